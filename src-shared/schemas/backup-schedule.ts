import { z } from './zod'

const UNIT_MS = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const
/** Longer than a timer can wait (setTimeout's 2^31 - 1 ms is about 24.8 days) is split by the scheduler; a year is plenty. */
const MAX_MS = 366 * UNIT_MS.d

/**
 * A period between scheduled backups as people write it: `30m`, `6h`, `24h`, `7d` (`s` too: tests
 * and the impatient). Milliseconds, or null when it is not one.
 */
export function parseBackupPeriod(text: string): number | null {
  const match = /^\s*(\d{1,6})\s*([smhd])\s*$/i.exec(text)
  if (!match) return null
  const ms = Number(match[1]) * UNIT_MS[match[2]!.toLowerCase() as keyof typeof UNIT_MS]
  return ms > 0 && ms <= MAX_MS ? ms : null
}

export const backupPeriodSchema = z.string().refine((text) => parseBackupPeriod(text) !== null, { message: 'a period such as 30m, 6h, 24h or 7d' })

/**
 * Scheduled backups as the desktop app keeps them in its settings (`serve --backup-every` has the
 * same three): how often (null: none), how many to keep, and where (null: a `backups` folder beside
 * the store).
 */
export const backupScheduleSchema = z.object({
  every: backupPeriodSchema.nullable().default(null),
  keep: z.number().int().min(1).max(1000).default(7),
  dir: z.string().trim().min(1).max(4096).nullable().default(null),
})

export type BackupSchedule = z.infer<typeof backupScheduleSchema>

/** Settings → Backups as the desktop app answers it: the schedule, the folder it resolves to, and how the last backup went. */
export const backupStatusSchema = z.object({
  schedule: backupScheduleSchema,
  /** Where backups go now (the default folder resolved against the open store). */
  dir: z.string(),
  last: z.object({ file: z.string(), at: z.string(), sizeBytes: z.number() }).nullable(),
  /** The last scheduled backup's failure, until one succeeds. */
  error: z.string().nullable(),
})

export type BackupStatus = z.infer<typeof backupStatusSchema>
