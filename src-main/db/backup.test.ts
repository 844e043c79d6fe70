import { closeSync, copyFileSync, existsSync, openSync, readdirSync, readFileSync, statSync, writeFileSync, writeSync } from 'node:fs'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import { StoreDamagedError, StoreFullError } from '../../src-shared/store-faults'
import { canMountSmallDisk, smallDisk } from '../../test/helpers/small-disk'
import { tempDir } from '../../test/helpers/temp-dir'
import { type BackupProgress, backupSqliteStore, copyKeyFile } from './backup'

/*
 * The online backup (issue 36, point 4) against real files: a second connection writes while it
 * copies, a tmpfs of its own fills up under it, a damaged store is read. Each case checks what is
 * in the folder afterwards, not only the message.
 */

const dir = tempDir('callscope-backup-')

/** A WAL store of `rows` rows of ~1 KiB in batches of 10, each batch one transaction tagged by its number. */
function makeStore(name: string, rows: number): string {
  const path = join(dir, name)
  const db = new Database(path)
  db.pragma('journal_mode = WAL')
  db.exec('create table t (id integer primary key, batch integer not null, body text not null)')
  const insert = db.prepare('insert into t (batch, body) values (?, ?)')
  db.transaction(() => {
    for (let i = 0; i < rows; i++) insert.run(Math.floor(i / 10), 'x'.repeat(1000))
  })()
  db.close()
  return path
}

const count = (path: string) => {
  const db = new Database(path, { readonly: true })
  try {
    return { rows: db.prepare('select count(*) from t').pluck().get() as number, check: db.pragma('integrity_check', { simple: true }), batches: db.prepare('select batch, count(*) n from t group by batch having n <> 10').all() }
  } finally {
    db.close()
  }
}

/** Two pages from the middle of a closed store overwritten with garbage (0xEE is no B-tree page type), as a failing disk does. */
function damageMiddle(path: string): void {
  const pageSize = 4096
  const middle = Math.floor(statSync(path).size / pageSize / 2)
  const fd = openSync(path, 'r+')
  try {
    writeSync(fd, Buffer.alloc(2 * pageSize, 0xee), 0, 2 * pageSize, middle * pageSize)
  } finally {
    closeSync(fd)
  }
}

const leftovers = (folder: string) => readdirSync(folder).filter((name) => name.includes('.partial') || name.endsWith('-journal'))

describe('backupSqliteStore', () => {
  it('copies the store as it was when it began while another connection commits on every step', async () => {
    const store = makeStore('busy.sqlite', 20_000)
    const writer = new Database(store)
    const insert = writer.prepare('insert into t (batch, body) values (?, ?)')
    let batch = 1_000_000
    const progress: BackupProgress[] = []
    const file = join(dir, 'busy-backup.sqlite')
    const result = await backupSqliteStore(store, file, {
      onProgress: (p) => {
        progress.push(p)
        // A whole batch per step, committed beside the copy: it must be in the backup whole or not at all.
        const b = batch++
        writer.transaction(() => {
          for (let i = 0; i < 10; i++) insert.run(b, 'y'.repeat(1000))
        })()
      },
    })
    const after = writer.prepare('select count(*) from t').pluck().get() as number
    writer.close()

    expect(progress.length).toBeGreaterThan(3)
    expect(after).toBe(20_000 + 10 * progress.length)
    expect(count(file)).toEqual({ rows: 20_000, check: 'ok', batches: [] })
    expect(result.pages).toBeGreaterThan(0)
    const copied = progress.map((p) => p.copiedBytes)
    expect(copied).toEqual([...copied].sort((a, b) => a - b))
    expect(progress.at(-1)!.copiedBytes).toBe(progress.at(-1)!.totalBytes)
    expect(leftovers(dir)).toEqual([])
  })

  it('refuses an existing file unless forced, and replaces it only once the new copy is complete', async () => {
    const store = makeStore('small.sqlite', 50)
    const file = join(dir, 'small-backup.sqlite')
    writeFileSync(file, 'not a backup')
    await expect(backupSqliteStore(store, file)).rejects.toThrow(`${file} already exists (use --force`)
    expect(readFileSync(file, 'utf8')).toBe('not a backup')
    await backupSqliteStore(store, file, { force: true })
    expect(count(file)).toEqual({ rows: 50, check: 'ok', batches: [] })
  })

  it('refuses a damaged store: no backup file, and a message naming the damage and what to run', async () => {
    const store = makeStore('damaged.sqlite', 4_000)
    damageMiddle(store)
    const file = join(dir, 'damaged-backup.sqlite')
    const error = await backupSqliteStore(store, file).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(StoreDamagedError)
    expect((error as Error).message).toMatch(new RegExp(`^The backup failed: the store is damaged \\(${store.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: .+\\)\\. Run \`callscope db check --db`))
    expect(existsSync(file)).toBe(false)
    expect(leftovers(dir)).toEqual([])
  })

  it('removes the partial file a killed backup left, never one whose process still runs', async () => {
    const store = makeStore('leftover.sqlite', 50)
    const file = join(dir, 'leftover-backup.sqlite')
    const dead = join(dir, '.leftover-backup.sqlite.999999999-0badcafe.partial')
    const running = join(dir, `.leftover-backup.sqlite.${process.pid}-0badcafe.partial`)
    writeFileSync(dead, 'cut short')
    writeFileSync(running, 'under way')
    await backupSqliteStore(store, file)
    expect(existsSync(dead)).toBe(false)
    expect(existsSync(running)).toBe(true)
    expect(count(file).rows).toBe(50)
  })

  it('copies the sealing key beside the backup only when asked, owner-only', () => {
    const store = makeStore('keyed.sqlite', 1)
    expect(copyKeyFile(store, join(dir, 'keyed-backup.sqlite'))).toBe(false)
    copyFileSync(store, `${store}.key`)
    expect(copyKeyFile(store, join(dir, 'keyed-backup.sqlite'))).toBe(true)
    expect(existsSync(join(dir, 'keyed-backup.sqlite.key'))).toBe(true)
    expect(() => copyKeyFile(store, join(dir, 'keyed-backup.sqlite'))).toThrow('already exists')
  })
})

describe.runIf(canMountSmallDisk)('backupSqliteStore on a full disk', () => {
  const disk = canMountSmallDisk ? smallDisk(40 * 1024 * 1024) : (null as never)
  const folder = () => disk.dir

  it('fails mid-copy when the disk fills under it: one message naming the folder and the room, no file left', async () => {
    const store = makeStore('to-fill.sqlite', 20_000) // about 23 MiB: several steps of 8 MiB
    const file = join(folder(), 'fills.sqlite')
    let filled = false
    const error = await backupSqliteStore(store, file, {
      onProgress: ({ copiedBytes, totalBytes }) => {
        // Something else takes the disk once the copy is under way: the backup's own writes fail.
        if (copiedBytes > 0 && copiedBytes < totalBytes && !filled) {
          filled = true
          disk.fill(0)
        }
      },
    }).catch((e: unknown) => e)
    expect(filled).toBe(true)
    expect(error).toBeInstanceOf(StoreFullError)
    expect((error as Error).message).toMatch(new RegExp(`^The backup failed: the disk holding ${folder()} is full \\(.+ free, about .+ needed\\)\\. No backup file was left there\\.`))
    expect(readdirSync(folder()).filter((name) => name !== '.filler')).toEqual([])

    disk.makeRoom()
    await backupSqliteStore(store, file)
    expect(count(file)).toEqual({ rows: 20_000, check: 'ok', batches: [] })
  })

  it('refuses before it starts when the folder has less room than the store', async () => {
    const store = makeStore('too-big.sqlite', 6_000)
    const file = join(folder(), 'too-big.sqlite')
    disk.fill(2 * 1024 * 1024)
    const error = await backupSqliteStore(store, file)
      .catch((e: unknown) => e)
      .finally(() => disk.makeRoom())
    expect(error).toBeInstanceOf(StoreFullError)
    expect((error as Error).message).toMatch(new RegExp(`^The backup was not started: the disk holding ${folder()} has too little room for it \\(2\\.0 MiB free, about \\d\\.\\d MiB needed\\)`))
    expect(existsSync(file)).toBe(false)
    expect(leftovers(folder())).toEqual([])
  })
})
