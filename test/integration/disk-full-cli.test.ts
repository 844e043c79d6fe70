import { copyFileSync, existsSync, mkdirSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { afterEach, describe, expect, inject, it } from 'vitest'
import { runCli } from '../helpers/cli'
import { canMountSmallDisk, type SmallDisk, smallDisk } from '../helpers/small-disk'
import { tempDir } from '../helpers/temp-dir'

/*
 * Issue 36, point 1, for the CLI's own writes: `token create` / `token revoke`, `seed`, `snapshot`
 * and the migrations a store gets when a newer build opens it. Each runs the real binary against a
 * store (or a pack) on a tmpfs of its own filled to leave a measured room: enough for SQLite to open
 * the store (its 32 KiB shared-memory file), too little for what the command writes. Each checks
 * exit 1 with the one message on stderr (no stack), the rows before and after, no file left behind,
 * and the same command succeeding once room is made, nothing doubled.
 */

const disk: SmallDisk | null = canMountSmallDisk ? smallDisk(128 * 1024 * 1024) : null

/**
 * Fills the disk leaving room to open the store but not to write to it: its shared-memory file
 * (32 KiB, unless a reader left it there) fits, then one 4 KiB page, where the WAL's header and
 * first frame (4,152 bytes) do not. Measured from a closed store: 32-44 KiB left fail the write
 * with SQLITE_FULL, less fails the open itself (SQLITE_IOERR_SHMSIZE), 48 KiB lets it through.
 */
function fillLeavingRoomToOpen(path: string): void {
  disk!.fill(4096 + (existsSync(`${path}-shm`) ? 0 : 32 * 1024))
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
const fullMessage = (what: string, path: string) => new RegExp(`^callscope: error: ${escape(what)} failed: the disk holding the store is full \\(${escape(path)}; \\d+(\\.\\d)? (bytes|KiB|MiB) free\\)\\. `)

/** Every table's rows (the store as the user sees it). */
function storeRows(path: string): Record<string, unknown[]> {
  const db = new Database(path, { readonly: true })
  try {
    const tables = (db.prepare("select name from sqlite_master where type = 'table' and name not like 'sqlite_%' and name not like '%fts%' and name not like '%trigram%' order by name").all() as Array<{ name: string }>).map((t) => t.name)
    return Object.fromEntries(tables.map((t) => [t, db.prepare(`select * from "${t}"`).all()]))
  } finally {
    db.close()
  }
}

/** A store of its own on the small disk, migrated and empty, closed (no WAL beside it). */
function newStore(name: string): string {
  const folder = join(disk!.dir, name)
  mkdirSync(folder)
  const path = join(folder, 'store.sqlite')
  expect(runCli(['token', 'list', '--db', path]).status).toBe(0)
  return path
}

describe.skipIf(!canMountSmallDisk)('a full disk under the CLI', () => {
  afterEach(() => disk!.makeRoom())

  it('token create and revoke: exit 1 with the message, no secret in it, the tokens as they were; once room is made, each happens once', { timeout: 120_000 }, () => {
    const path = newStore('tokens')
    const first = runCli(['token', 'create', '-n', 'first', '--db', path])
    expect(first.status).toBe(0)
    const id = /id ([0-9a-f-]{36})/.exec(first.stderr)![1]!
    const before = storeRows(path)
    fillLeavingRoomToOpen(path)
    const created = runCli(['token', 'create', '-n', 'ci', '--db', path])
    expect(created).toMatchObject({ status: 1, stdout: '' })
    expect(created.stderr).toMatch(fullMessage('Creating the token "ci"', path))
    expect(created.stderr.trim().split('\n')).toHaveLength(1)
    expect(created.stderr).not.toMatch(/cs_[A-Za-z0-9_-]{8,}|[0-9a-f]{64}|\n\s+at /)
    const revoked = runCli(['token', 'revoke', id.slice(0, 8), '--db', path])
    expect(revoked.status).toBe(1)
    expect(revoked.stderr).toMatch(fullMessage(`Revoking the token "first" (id ${id})`, path))
    disk!.makeRoom()
    expect(storeRows(path)).toEqual(before)

    expect(runCli(['token', 'create', '-n', 'ci', '--db', path]).status).toBe(0)
    expect(runCli(['token', 'revoke', id.slice(0, 8), '--db', path]).status).toBe(0)
    const tokens = storeRows(path).api_tokens as Array<{ name: string; revoked_at: string | null }>
    expect(tokens.map((t) => [t.name, t.revoked_at !== null])).toEqual([['first', true], ['ci', false]])
  })

  it('seed: exit 1 with the message, every table as it was; once room is made, the seed lands once', { timeout: 180_000 }, () => {
    const path = newStore('seed')
    const before = storeRows(path)
    disk!.fill(2 * 1024 * 1024)
    const refused = runCli(['seed', '--seed', '3', '--db', path])
    expect(refused.status).toBe(1)
    expect(refused.stderr).toMatch(fullMessage('The seed', path))
    expect(refused.stderr).not.toMatch(/\n\s+at /)
    disk!.makeRoom()
    expect(storeRows(path)).toEqual(before)

    const seeded = runCli(['seed', '--seed', '3', '--db', path], {}, 120_000)
    expect(seeded.status).toBe(0)
    const logs = Number(/([\d,]+) call logs/.exec(seeded.stdout)![1]!.replaceAll(',', ''))
    expect((storeRows(path).call_logs as unknown[]).length).toBe(logs)
  })

  it('snapshot: the pack’s disk full → exit 1 naming the pack, no pack and no scratch copy left; once room is made, it is written', { timeout: 120_000 }, () => {
    const store = join(tempDir(), 'demo.sqlite')
    copyFileSync(inject('demoTemplate'), store)
    const folder = join(disk!.dir, 'packs')
    mkdirSync(folder)
    const pack = join(folder, 'pack.sqlite')
    disk!.fill(512 * 1024)
    const refused = runCli(['snapshot', pack, '--db', store])
    expect(refused.status).toBe(1)
    expect(refused.stderr).toMatch(new RegExp(`^callscope: error: Writing the snapshot failed: the disk holding ${escape(folder)} is full \\(\\d+ KiB free\\)\\. No pack was left there, and the store was only read\\. `))
    expect(readdirSync(folder)).toEqual([])
    disk!.makeRoom()

    expect(runCli(['snapshot', pack, '--db', store])).toMatchObject({ status: 0, stderr: '' })
    expect(readdirSync(folder)).toEqual(['pack.sqlite'])
    expect((storeRows(pack).call_logs as unknown[]).length).toBe((storeRows(store).call_logs as unknown[]).length)
  })

  it('a migration on start: exit 1 saying the disk is full and where; the store as it was, still opened by the old schema; once room is made, migrated once', { timeout: 120_000 }, () => {
    const path = newStore('migrate')
    // The store as the build before 0021 left it: no imports.call_log_source, 0021 not recorded.
    const old = new Database(path)
    old.prepare('alter table imports drop column call_log_source').run()
    old.prepare("delete from kysely_migration where name = '0021-import-sources'").run()
    old.close()
    const before = storeRows(path)
    fillLeavingRoomToOpen(path)
    const refused = runCli(['token', 'list', '--db', path])
    expect(refused.status).toBe(1)
    expect(refused.stderr).toMatch(/0021-import-sources/)
    expect(refused.stderr.split('\n').filter((l) => l.startsWith('callscope: error:'))).toEqual([expect.stringMatching(fullMessage("Updating the store's schema", path))])
    disk!.makeRoom()
    expect(storeRows(path)).toEqual(before)
    const check = new Database(path, { readonly: true })
    expect(check.pragma('integrity_check')).toEqual([{ integrity_check: 'ok' }])
    expect((check.pragma('table_info(imports)') as Array<{ name: string }>).map((c) => c.name)).not.toContain('call_log_source')
    check.close()

    expect(runCli(['token', 'list', '--db', path]).status).toBe(0)
    const migrated = storeRows(path).kysely_migration as Array<{ name: string }>
    expect(migrated.filter((m) => m.name === '0021-import-sources')).toHaveLength(1)
  })
})
