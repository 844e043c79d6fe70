import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { record } from '../helpers/call-log-files'
import { CLI, runCliAsync } from '../helpers/cli'
import { canMountSmallDisk, smallDisk } from '../helpers/small-disk'
import { tempDir } from '../helpers/temp-dir'
import { ADMIN_TOKEN, startTestServer, type TestServer } from '../helpers/test-server'

/*
 * Issue 36: `callscope pull` into a store whose disk fills, in bulk (a first pull into an empty
 * store) and window by window (a store holding call logs). The pull fails saying so; what its
 * record and report count is what the store holds; the same pull once room is made completes with
 * the source's every line once.
 */

const SINCE = '2026-10-01'

function stored(db: string) {
  const sqlite = new Database(db, { readonly: true })
  try {
    const one = (sql: string) => sqlite.prepare(sql).pluck().get() as number
    return {
      callLogs: one('select count(*) from call_logs'),
      distinct: one('select count(distinct id) from call_logs'),
      words: one('select count(*) from call_logs_fts'),
      indexes: one("select count(*) from sqlite_master where type = 'index' and tbl_name = 'call_logs'"),
      pulled: sqlite.prepare('select status, counts from pulls order by started_at').all() as Array<{ status: string; counts: string }>,
    }
  } finally {
    sqlite.close()
  }
}
const insertedOf = (counts: string) => (JSON.parse(counts) as { callLogs: { inserted: number } }).callLogs.inserted

describe.skipIf(!canMountSmallDisk)('a pull into a store whose disk fills', { timeout: 300_000 }, () => {
  const disk = canMountSmallDisk ? smallDisk(80 * 1024 * 1024) : (null as never)
  const oneLine = join(tempDir('callscope-disk-full-pull-'), 'one.ndjson')
  writeFileSync(oneLine, `${record(9_999_999)}\n`)
  let source: TestServer
  let sourceLines: number
  beforeAll(async () => {
    source = await startTestServer()
    sourceLines = source.sqlite.prepare(`select count(*) from call_logs where timestamp >= '${SINCE}T00:00:00.000Z'`).pluck().get() as number
  })
  afterAll(() => source.close())

  const pull = (db: string) => runCliAsync(['pull', '--base-url', source.url, '--since', SINCE, '--rate', '500', '--db', db], { CALLSCOPE_REMOTE_TOKEN: ADMIN_TOKEN }, 240_000)

  for (const mode of ['in bulk', 'window by window'] as const) {
    it(`${mode}: fails saying the disk is full, its record true to the rows, and completes once room is made`, async () => {
      disk.clear()
      mkdirSync(join(disk.dir, 'mirror'))
      const db = join(disk.dir, 'mirror', 'mirror.sqlite')
      // A store that holds call logs takes a pull window by window, every index live.
      const own = mode === 'window by window' ? 1 : 0
      if (own) expect((await runCliAsync(['import', 'logs', oneLine, '--db', db])).status).toBe(0)
      disk.fill(8 * 1024 * 1024)
      const cut = await pull(db)
      expect(cut.status, cut.stdout + cut.stderr).toBe(1)
      expect(cut.stderr).toContain('The pull failed: the disk holding the store is full')
      expect(cut.stderr).toContain(db)
      const after = stored(db)
      expect(after.callLogs).toBeLessThan(sourceLines + own)
      expect(after.distinct).toBe(after.callLogs)
      expect(insertedOf(after.pulled.at(-1)!.counts)).toBe(after.callLogs - own)

      disk.makeRoom()
      const again = await pull(db)
      expect(again.status, again.stderr).toBe(0)
      const done = stored(db)
      expect(done).toMatchObject({ callLogs: sourceLines + own, distinct: sourceLines + own, words: sourceLines + own })
    })
  }

  it('keeping in sync (pull --follow): a cycle the disk refuses says so and the sync goes on; once room is made it catches up', async () => {
    disk.clear()
    mkdirSync(join(disk.dir, 'follow'))
    const db = join(disk.dir, 'follow', 'follow.sqlite')
    disk.fill(8 * 1024 * 1024)
    const child = spawn(process.execPath, [CLI, 'pull', '--base-url', source.url, '--since', SINCE, '--rate', '500', '--follow', '--interval', '1s', '--db', db], {
      env: { ...process.env, CALLSCOPE_TOKEN: '', CALLSCOPE_REMOTE_TOKEN: ADMIN_TOKEN },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stdout = ''
    const waiting: Array<{ pattern: RegExp; resolve: () => void }> = []
    child.stdout!.on('data', (chunk) => {
      stdout += chunk
      for (const w of [...waiting]) if (w.pattern.test(stdout)) waiting.splice(waiting.indexOf(w), 1) && w.resolve()
    })
    /** The output so far shows this (a signal from the process, not a sleep). */
    const printed = (pattern: RegExp) => new Promise<void>((resolve) => (pattern.test(stdout) ? resolve() : waiting.push({ pattern, resolve })))
    const exited = once(child, 'exit')
    try {
      await printed(/failed: The pull failed: the disk holding the store is full .* retrying at/)
      expect(stdout).toContain(db)
      const during = stored(db)
      expect(during.distinct).toBe(during.callLogs)
      disk.makeRoom()
      await printed(/synced: /)
      child.kill('SIGINT')
      const [code] = (await exited) as [number | null]
      expect(code).toBe(0)
      expect(stored(db)).toMatchObject({ callLogs: sourceLines, distinct: sourceLines, words: sourceLines })
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL')
    }
  })
})
