import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { z } from '../../src-shared/schemas/zod'
import { DEFAULT_LISTENER, listenerConfigSchema } from '../../src-shared/schemas/listener'
import { savedTeamServerSchema } from './team-server'
import { backupScheduleSchema } from '../../src-shared/schemas/backup-schedule'

/**
 * What the desktop app remembers between runs, in `settings.json` in the user-data folder: the
 * window's bounds, the optional HTTP listener, the last database opened, the team server. Not in the database:
 * it belongs to this installation, not to a demo pack someone opens.
 */
const desktopSettingsSchema = z.object({
  windowBounds: z
    .object({ x: z.number().int(), y: z.number().int(), width: z.number().int().min(400), height: z.number().int().min(300), maximized: z.boolean().default(false) })
    .nullable()
    .default(null),
  listener: listenerConfigSchema.default(DEFAULT_LISTENER),
  lastDatabase: z.string().nullable().default(null),
  /** The team server the console reads instead of the local store; its token sealed (team-server.ts). */
  teamServer: savedTeamServerSchema.nullable().default(null),
  /** Settings → Backups: the scheduled backups of the open store (desktop/backup-control.ts). */
  backups: backupScheduleSchema.default({ every: null, keep: 7, dir: null }),
})

export type DesktopSettings = z.infer<typeof desktopSettingsSchema>
export type WindowBounds = NonNullable<DesktopSettings['windowBounds']>

export const DEFAULT_SETTINGS: DesktopSettings = desktopSettingsSchema.parse({})

export interface SettingsStore {
  get(): DesktopSettings
  update(patch: Partial<DesktopSettings>): DesktopSettings
}

/**
 * Reads the file once; a missing, unreadable or invalid file gives the defaults (and one bad field
 * does not cost the others: each falls back on its own). Writes go to a temporary file renamed over
 * the old one, so a crash mid-write never leaves half a file.
 */
export function createSettingsStore(file: string): SettingsStore {
  let current = load(file)
  return {
    get: () => current,
    update(patch) {
      current = desktopSettingsSchema.parse({ ...current, ...patch })
      mkdirSync(dirname(file), { recursive: true })
      const temporary = `${file}.${process.pid}.tmp`
      writeFileSync(temporary, `${JSON.stringify(current, null, 2)}\n`, { mode: 0o600 })
      renameSync(temporary, file)
      return current
    },
  }
}

function load(file: string): DesktopSettings {
  let raw: unknown
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'))
  } catch {
    return DEFAULT_SETTINGS
  }
  if (typeof raw !== 'object' || raw === null) return DEFAULT_SETTINGS
  const fields: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(raw)) {
    const field = desktopSettingsSchema.shape[key as keyof DesktopSettings]
    if (field?.safeParse(value).success) fields[key] = value
  }
  return desktopSettingsSchema.parse(fields)
}
