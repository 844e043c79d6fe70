import { readdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { parseBackupPeriod } from '../../src-shared/schemas/backup-schedule'
import { tempDir } from '../../test/helpers/temp-dir'
import type { BackupResult } from './backup'
import { backupFileName, defaultBackupDir, listBackups, pruneBackups, startBackupSchedule } from './backup-schedule'

/*
 * The schedule's naming, keeping and timing, with a backup that writes a small file (the copy
 * itself is db/backup.test.ts's) and fake timers: the clock moves a period at a time.
 */

const HOUR = 3_600_000
const store = '/data/callscope.sqlite'

describe('parseBackupPeriod', () => {
  it('reads 30m, 6h, 24h, 7d (and seconds), and refuses the rest', () => {
    expect([parseBackupPeriod('30m'), parseBackupPeriod('6h'), parseBackupPeriod('24h'), parseBackupPeriod('7d'), parseBackupPeriod('2s')]).toEqual([1_800_000, 6 * HOUR, 24 * HOUR, 7 * 24 * HOUR, 2000])
    expect(['', '0h', '1.5h', '24', 'h', '-1d', '1w', '400d'].map(parseBackupPeriod)).toEqual(Array(8).fill(null))
  })
})

describe('backup names', () => {
  it('are the store name and the UTC time, listed oldest first, other files ignored', () => {
    const dir = tempDir()
    expect(backupFileName(store, new Date('2026-11-28T02:37:05.123Z'))).toBe('callscope-20261128T023705Z.sqlite')
    for (const name of ['callscope-20261128T023705Z.sqlite', 'callscope-20261127T230000Z.sqlite', 'other-20261127T230000Z.sqlite', 'callscope-20261127T230000Z.sqlite.key', 'notes.txt']) writeFileSync(join(dir, name), '')
    expect(listBackups(dir, store)).toEqual([
      { file: join(dir, 'callscope-20261127T230000Z.sqlite'), at: new Date('2026-11-27T23:00:00Z') },
      { file: join(dir, 'callscope-20261128T023705Z.sqlite'), at: new Date('2026-11-28T02:37:05Z') },
    ])
    expect(pruneBackups(dir, store, 1)).toEqual([join(dir, 'callscope-20261127T230000Z.sqlite')])
    // The key copied beside a pruned backup goes with it; other files stay.
    expect(readdirSync(dir).sort()).toEqual(['callscope-20261128T023705Z.sqlite', 'notes.txt', 'other-20261127T230000Z.sqlite'])
    expect(defaultBackupDir(store)).toBe('/data/backups')
  })
})

describe('startBackupSchedule', () => {
  let clock: number
  beforeEach(() => {
    vi.useFakeTimers()
    clock = Date.parse('2026-11-28T00:00:00Z')
  })
  afterEach(() => vi.useRealTimers())

  /** A backup that writes a stand-in file, failing on the calls listed. */
  function fakeBackup(failOn: number[] = []) {
    const calls: string[] = []
    const backup = async (file: string): Promise<BackupResult> => {
      calls.push(file)
      if (failOn.includes(calls.length)) throw new Error('The backup failed: the disk holding /backups is full (0 bytes free, about 28 MiB needed).')
      writeFileSync(file, 'copy')
      return { file, sizeBytes: 4, pages: 1, ms: 12 }
    }
    return { calls, backup }
  }

  /** Moves the clock (Date and timers) on by `ms`, letting each backup settle. */
  const advance = async (ms: number) => {
    clock += ms
    await vi.advanceTimersByTimeAsync(ms)
  }

  it('backs up at once when there is none, then every period, keeping the newest N once each new one is complete', async () => {
    const dir = tempDir()
    const { calls, backup } = fakeBackup()
    const log: string[] = []
    const schedule = startBackupSchedule({ storePath: store, everyMs: HOUR, keep: 2, dir, backup, log: (l) => log.push(l), warn: (l) => log.push(`warn: ${l}`), now: () => new Date(clock) })
    await advance(0)
    expect(calls).toEqual([join(dir, 'callscope-20261128T000000Z.sqlite')])
    await advance(HOUR - 1)
    expect(calls).toHaveLength(1)
    await advance(1)
    await advance(HOUR)
    expect(calls).toHaveLength(3)
    schedule.stop()
    await advance(5 * HOUR)
    expect(calls).toHaveLength(3)
    expect(readdirSync(dir).sort()).toEqual(['callscope-20261128T010000Z.sqlite', 'callscope-20261128T020000Z.sqlite'])
    expect(log).toEqual([
      `Backup written to ${join(dir, 'callscope-20261128T000000Z.sqlite')} (4 bytes, 0.0 s)`,
      `Backup written to ${join(dir, 'callscope-20261128T010000Z.sqlite')} (4 bytes, 0.0 s)`,
      `Backup written to ${join(dir, 'callscope-20261128T020000Z.sqlite')} (4 bytes, 0.0 s); removed callscope-20261128T000000Z.sqlite (keeping 2)`,
    ])
  })

  it('waits out the period from the newest backup already there, so a restart does not put a backup off', async () => {
    const dir = tempDir()
    writeFileSync(join(dir, 'callscope-20261127T234000Z.sqlite'), 'earlier') // 20 minutes before the start
    const { calls, backup } = fakeBackup()
    const schedule = startBackupSchedule({ storePath: store, everyMs: HOUR, keep: 7, dir, backup, log: () => {}, warn: () => {}, now: () => new Date(clock) })
    await advance(40 * 60_000 - 1)
    expect(calls).toEqual([])
    await advance(1)
    expect(calls).toEqual([join(dir, 'callscope-20261128T004000Z.sqlite')])
    schedule.stop()
  })

  it('says a failed backup, deletes nothing for it, and goes on', async () => {
    const dir = tempDir()
    const { calls, backup } = fakeBackup([2])
    const log: string[] = []
    const schedule = startBackupSchedule({ storePath: store, everyMs: HOUR, keep: 1, dir, backup, log: (l) => log.push(l), warn: (l) => log.push(`warn: ${l}`), now: () => new Date(clock) })
    await advance(0)
    await advance(HOUR)
    expect(readdirSync(dir)).toEqual(['callscope-20261128T000000Z.sqlite'])
    await advance(HOUR)
    schedule.stop()
    expect(calls).toHaveLength(3)
    expect(log[1]).toBe(
      `warn: Scheduled backup to ${join(dir, 'callscope-20261128T010000Z.sqlite')} failed: The backup failed: the disk holding /backups is full (0 bytes free, about 28 MiB needed). Serving goes on; the next try is in 1h.`,
    )
    expect(readdirSync(dir)).toEqual(['callscope-20261128T020000Z.sqlite'])
  })
})
