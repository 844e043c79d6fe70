import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { BackupSchedule } from '../../src-shared/schemas/backup-schedule'
import { tempDir } from '../../test/helpers/temp-dir'
import { createBackupControl } from './backup-control'

/*
 * Settings → Backups without Electron: the control over the schedule with a stand-in backup that
 * writes a file (the copy is db/backup.test.ts's), fake timers moving the clock.
 */

describe('createBackupControl', () => {
  beforeEach(() => vi.useFakeTimers({ now: Date.parse('2026-11-28T10:00:00Z'), toFake: ['setTimeout', 'clearTimeout', 'Date'] }))
  afterEach(() => vi.useRealTimers())

  it('starts the saved schedule on the open store, says how the last backup went, and follows a change or another store', async () => {
    const dir = tempDir()
    let store: string | null = null
    let failing = false
    const saved: BackupSchedule[] = []
    const warned: string[] = []
    const control = createBackupControl({
      initial: { every: null, keep: 2, dir: null },
      save: (schedule) => saved.push(schedule),
      store: () =>
        store === null ? null : {
          path: store,
          backup: async (file) => {
            if (failing) throw new Error('The backup failed: the disk holding x is full.')
            writeFileSync(file, 'copy')
            return { file, sizeBytes: 4, pages: 1, ms: 1 }
          },
        },
      warn: (line) => warned.push(line),
    })
    // No store open yet (the app's start): nothing to back up, nothing fails.
    expect(control.status()).toEqual({ schedule: { every: null, keep: 2, dir: null }, dir: '', last: null, error: null })

    store = join(dir, 'first.sqlite')
    control.restart()
    expect(control.configure({ every: '1h', keep: 2, dir: null })).toMatchObject({ dir: join(dir, 'backups'), last: null })
    expect(saved).toEqual([{ every: '1h', keep: 2, dir: null }])
    await vi.advanceTimersByTimeAsync(0)
    expect(control.status()).toEqual({
      schedule: { every: '1h', keep: 2, dir: null },
      dir: join(dir, 'backups'),
      last: { file: join(dir, 'backups', 'first-20261128T100000Z.sqlite'), at: '2026-11-28T10:00:00.000Z', sizeBytes: 4 },
      error: null,
    })

    failing = true
    await vi.advanceTimersByTimeAsync(3_600_000)
    expect(control.status().error).toMatch(/^Scheduled backup to .+first-20261128T110000Z\.sqlite failed: The backup failed: the disk holding x is full\. Serving goes on/)
    expect(warned).toHaveLength(1)
    expect(control.status().last?.file).toBe(join(dir, 'backups', 'first-20261128T100000Z.sqlite'))

    // Turned off: no more backups.
    failing = false
    control.configure({ every: null, keep: 2, dir: null })
    await vi.advanceTimersByTimeAsync(10 * 3_600_000)
    expect(existsSync(join(dir, 'backups', 'first-20261128T210000Z.sqlite'))).toBe(false)

    // Another store opened, with a folder of its own: backed up there at once.
    const other = join(dir, 'elsewhere')
    mkdirSync(other)
    store = join(dir, 'second.sqlite')
    control.configure({ every: '6h', keep: 1, dir: other })
    await vi.advanceTimersByTimeAsync(0)
    expect(control.status().last?.file).toMatch(new RegExp(`^${other}/second-\\d{8}T\\d{6}Z\\.sqlite$`))
    control.stop()
  })
})
