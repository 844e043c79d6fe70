import { closeSync, copyFileSync, existsSync, openSync, readFileSync, readSync, statSync, watch, writeFileSync } from 'node:fs'
import { request } from 'node:http'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { beforeAll, describe, expect, it } from 'vitest'
import { record } from '../helpers/call-log-files'
import { runCli, startServe } from '../helpers/cli'
import { inRollbackTransaction, killHard, readStore, type RunningCli, startCli, until } from '../helpers/killed-process'
import { tempDir } from '../helpers/temp-dir'
import { trpcHttp } from '../helpers/trpc-http'

/*
 * Issue 36, the killed-process column for imports: `callscope import logs` in batches and in bulk,
 * and an upload to `serve`, each killed with SIGKILL at a moment the test waits for (a batch
 * committed, the bulk load's rollback journal, its pages reaching the store file, a batch of the
 * upload committed). Then the store opens and passes integrity_check, holds exactly what the
 * import's record says it committed (batches) or exactly what it held before (bulk: indexes and
 * both full-text indexes included), and the same import run again completes with nothing doubled.
 */

const dir = tempDir('callscope-killed-imports-')
const TOKEN = 'cs_killed_imports_test_token'

/** An NDJSON file of `count` records numbered from `from`, every message holding the word "booking". */
function ndjson(name: string, count: number, from: number): string {
  const lines: string[] = []
  for (let n = from; n < from + count; n++) lines.push(record(n, { message: `Request ${n} to the provider took ${n % 900} ms while the caller waited about the booking` }))
  const path = join(dir, name)
  writeFileSync(path, `${lines.join('\n')}\n`)
  return path
}

/** What the store holds, read by another connection: the ground truth each report is held to. */
function storeState(path: string) {
  return readStore(path, (db) => {
    const one = (sql: string) => db.prepare(sql).pluck().get()
    return {
      callLogs: one('select count(*) from call_logs') as number,
      distinctIds: one('select count(distinct id) from call_logs') as number,
      words: one("select count(*) from call_logs_fts where call_logs_fts match 'booking'") as number,
      substrings: one("select count(*) from call_logs_trigram where call_logs_trigram match 'booking'") as number,
      indexes: db.prepare("select name from sqlite_master where type in ('index', 'trigger') and tbl_name = 'call_logs' order by name").pluck().all(),
      integrity: one('pragma integrity_check'),
    }
  })
}

const importsOf = (path: string) =>
  readStore(path, (db) => db.prepare('select id, status, inserted, duplicates, invalid from imports order by started_at').all() as Array<{ id: string; status: string; inserted: number; duplicates: number; invalid: number }>)

/** Call logs an import stored (each row names its import). */
const rowsOfImport = (path: string, id: string) => readStore(path, (db) => db.prepare('select count(*) from call_logs where import_id = ?').pluck().get(id) as number)

/** Both full-text indexes checked against the rows (FTS5's integrity-check raises on any difference): needs a writable connection. */
function checkMessageIndexes(path: string): void {
  const db = new Database(path)
  try {
    db.exec("insert into call_logs_fts(call_logs_fts) values ('integrity-check'); insert into call_logs_trigram(call_logs_trigram) values ('integrity-check')")
  } finally {
    db.close()
  }
}

/** The page count in the store file's header (offset 28; valid while the change counter equals offset 92's). */
function headerPages(path: string): number {
  const header = Buffer.alloc(100)
  const fd = openSync(path, 'r')
  try {
    readSync(fd, header, 0, 100, 0)
  } finally {
    closeSync(fd)
  }
  return header.readUInt32BE(24) === header.readUInt32BE(92) ? header.readUInt32BE(28) : 0
}

/** Resolves the moment the store file is shorter than its header counts (a checkpoint under way), told by inotify. */
function fileShorterThanHeader(path: string, running: RunningCli): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const watcher = watch(path, () => {
      if (headerPages(path) * 4096 <= statSync(path).size) return
      watcher.close()
      resolve()
    })
    running.child.once('exit', () => {
      watcher.close()
      reject(new Error(`the import ended before a checkpoint was seen: ${running.output()}`))
    })
  })
}

const reported = (stdout: string) => {
  const m = /([\d,]+) records read: ([\d,]+) new, ([\d,]+) already stored, ([\d,]+) refused/.exec(stdout)
  if (!m) throw new Error(`no counts in: ${stdout}`)
  const n = (s: string) => Number(s.replaceAll(',', ''))
  return { read: n(m[1]!), inserted: n(m[2]!), duplicates: n(m[3]!), invalid: n(m[4]!) }
}

/**
 * The CLI commits every 20,000 records (imports.service.ts); the upload once 5,000 are pending
 * (imports.routes.ts), in whole parse batches of 2,000: every 6,000.
 */
const CLI_BATCH = 20_000
const UPLOAD_BATCH = 6_000

// A closed store (no WAL beside it) of records 1-3,000: each case copies it, so the files overlap it by 1,000.
const base = join(dir, 'base.sqlite')
beforeAll(() => {
  expect(runCli(['import', 'logs', ndjson('first.ndjson', 3_000, 1), '--db', base]).status).toBe(0)
}, 120_000)

const storeFromBase = (name: string) => {
  const path = join(dir, name)
  copyFileSync(base, path)
  return path
}

describe('a killed import', { timeout: 240_000 }, () => {
  // Two moments: a batch committed, and a checkpoint of the WAL into the store file under way. A
  // checkpoint writes page 1 (the header, counting the pages to come) first and grows the file
  // after it, so the store file is then shorter than its header says, the WAL holding the rest.
  it.each([
    ['after a committed batch', 'batch'],
    ['in a checkpoint (the header counts pages the file does not hold yet)', 'checkpoint'],
  ] as const)('in batches (--bulk never), killed %s: the store opens, is whole, holds exactly the batches its record counts; a re-run completes once', async (_moment, moment) => {
    const db = storeFromBase(`batches-${moment}.sqlite`)
    const file = ndjson(`batches-${moment}.ndjson`, 50_000, 2_001)
    const running = startCli(['import', 'logs', file, '--db', db, '--bulk', 'never'])
    // The signal: the import's record, read by another connection, counts a committed batch.
    const committed = () => readStore(db, (d) => d.prepare("select id from imports where status = 'running' and inserted + duplicates > 0").get() as { id: string } | undefined)
    if (moment === 'batch') await until('a committed batch', committed, running)
    else await fileShorterThanHeader(db, running)
    await killHard(running.child)
    if (moment === 'checkpoint') expect(headerPages(db) * 4096).toBeGreaterThan(statSync(db).size)
    const { id } = committed()!

    expect(runCli(['db', 'check', '--db', db])).toMatchObject({ status: 0, stdout: expect.stringContaining('healthy') })
    const [, killed] = importsOf(db)
    expect(killed!.id).toBe(id)
    // Exactly whole batches: the first holds the 1,000 records already stored.
    expect((killed!.inserted + killed!.duplicates) % CLI_BATCH).toBe(0)
    expect(killed!.inserted + killed!.duplicates).toBeLessThan(50_000)
    expect(killed!.inserted).toBe(rowsOfImport(db, id))
    expect(killed!.duplicates).toBe(1_000)
    const after = storeState(db)
    expect(after).toMatchObject({ callLogs: 3_000 + killed!.inserted, distinctIds: 3_000 + killed!.inserted, words: 3_000 + killed!.inserted, integrity: 'ok' })
    checkMessageIndexes(db)

    const again = runCli(['import', 'logs', file, '--db', db, '--bulk', 'never'], {}, 180_000)
    expect(again.status).toBe(0)
    expect(reported(again.stdout)).toEqual({ read: 50_000, inserted: 49_000 - killed!.inserted, duplicates: 1_000 + killed!.inserted, invalid: 0 })
    expect(storeState(db)).toMatchObject({ callLogs: 52_000, distinctIds: 52_000, words: 52_000, substrings: 52_000, integrity: 'ok' })
  })

  // The bulk load is one transaction on a rollback journal (call-logs.write.repo.ts beginBulkLoad),
  // with the indexes and full-text triggers dropped inside it. Two moments: early, and while its
  // pages are going into the store file (the commit, or a spill of SQLite's cache), the journal
  // still holding what they overwrite.
  it.each([
    ['as the load is under way (its rollback journal written)', 'journal'],
    ['while its pages go into the store file', 'pages'],
  ] as const)('in bulk, killed %s: the store opens exactly as before, indexes and full-text included; a re-run completes once', async (_moment, moment) => {
    const db = storeFromBase(`bulk-${moment}.sqlite`)
    const file = ndjson(`bulk-${moment}.ndjson`, 20_000, 2_001)
    const before = storeState(db)
    const importsBefore = importsOf(db)
    const sizeBefore = statSync(db).size
    const journal = `${db}-journal`
    const running = startCli(['import', 'logs', file, '--db', db, '--bulk', 'always'])
    await until('the bulk load’s transaction', () => inRollbackTransaction(db), running)
    if (moment === 'pages') {
      // Told by the file system the moment the store file grows (inotify): the pages go out in a
      // few milliseconds, too fast for a poll.
      await new Promise<void>((resolve, reject) => {
        const watcher = watch(db, () => {
          if (statSync(db).size <= sizeBefore) return
          watcher.close()
          resolve()
        })
        running.child.once('exit', () => {
          watcher.close()
          reject(new Error(`the import ended before its pages reached the store: ${running.output()}`))
        })
      })
    }
    await killHard(running.child)
    // Still there: the kill came before the load committed (or gave up).
    expect(existsSync(journal)).toBe(true)

    // The next process to open the store rolls the journal back.
    expect(runCli(['token', 'list', '--db', db]).status).toBe(0)
    expect(existsSync(journal)).toBe(false)
    expect(storeState(db)).toEqual(before)
    checkMessageIndexes(db)
    // The import's own record was committed before the load began; the load's counts were not.
    expect(importsOf(db)).toEqual([...importsBefore, expect.objectContaining({ status: 'running', inserted: 0, duplicates: 0, invalid: 0 })])

    const again = runCli(['import', 'logs', file, '--db', db, '--bulk', 'always'], {}, 180_000)
    expect(again.status).toBe(0)
    expect(reported(again.stdout)).toEqual({ read: 20_000, inserted: 19_000, duplicates: 1_000, invalid: 0 })
    expect(storeState(db)).toEqual({ ...before, callLogs: 22_000, distinctIds: 22_000, words: 22_000, substrings: 22_000 })
  })

  it('an upload to serve killed mid-body after a committed batch: restarted on the same store, the import reads interrupted with exactly its committed batches; the same upload then completes once', async () => {
    const db = storeFromBase('upload.sqlite')
    const body = readFileSync(ndjson('upload.ndjson', 12_000, 2_001))
    const cut = body.indexOf('\n', Math.floor(body.length * 0.9)) + 1
    const path = '/imports/call-logs?format=ndjson&file_name=upload.ndjson'
    const auth = { Authorization: `Bearer ${TOKEN}` }
    const serveArgs = ['--db', db, '--no-seed', '--readers', '1']

    const server = await startServe(serveArgs, { CALLSCOPE_TOKEN: TOKEN })
    // 90% of the body sent, the rest held back: the server is mid-upload when it dies.
    const upload = request(`${server.url}${path}`, { method: 'POST', headers: { ...auth, 'Content-Type': 'application/x-ndjson' } })
    const answered = new Promise<string>((resolve) => {
      upload.on('response', (response) => resolve(`answered ${response.statusCode}`))
      upload.on('error', (error) => resolve(`failed: ${(error as NodeJS.ErrnoException).code ?? error.message}`))
    })
    upload.write(body.subarray(0, cut))
    const serving = { child: server.child, output: server.stderr }
    const { id } = await until(
      'a committed batch of the upload',
      () => readStore(db, (d) => d.prepare("select id from imports where status = 'running' and inserted + duplicates > 0").get() as { id: string } | undefined),
      serving,
    )
    // SIGKILL, then stop(): it only waits for the exit, and tells the helper the exit is expected.
    server.child.kill('SIGKILL')
    await server.stop()
    expect(server.child.signalCode).toBe('SIGKILL')
    expect(await answered).toMatch(/^failed: (ECONNRESET|EPIPE)/)

    const restarted = await startServe(serveArgs, { CALLSCOPE_TOKEN: TOKEN })
    try {
      const trpc = trpcHttp(() => restarted.url, () => TOKEN)
      const history = await trpc.query<Array<{ id: string; status: string; recordsRead: number; inserted: number; duplicates: number }>>('imports.list')
      const killed = history.find((i) => i.id === id)!
      expect(killed.status).toBe('interrupted')
      // Whole batches: every record read by the last commit is counted in it (the upload commits
      // once 5,000 records are pending, in whole parse batches of 2,000: 6,000 at a time).
      expect(killed.inserted + killed.duplicates).toBe(killed.recordsRead)
      expect(killed.recordsRead % UPLOAD_BATCH).toBe(0)
      expect(killed.recordsRead).toBeLessThan(12_000)
      expect(killed.inserted).toBe(rowsOfImport(db, id))
      expect(storeState(db)).toMatchObject({ callLogs: 3_000 + killed.inserted, distinctIds: 3_000 + killed.inserted, words: 3_000 + killed.inserted, integrity: 'ok' })

      const again = await fetch(`${restarted.url}${path}`, { method: 'POST', headers: auth, body })
      expect(again.status).toBe(201)
      expect(await again.json()).toMatchObject({ status: 'completed', recordsRead: 12_000, inserted: 11_000 - killed.inserted, duplicates: 1_000 + killed.inserted, invalid: 0 })
      expect(storeState(db)).toMatchObject({ callLogs: 14_000, distinctIds: 14_000, words: 14_000, substrings: 14_000, integrity: 'ok' })
    } finally {
      await restarted.stop()
    }
  })
})
