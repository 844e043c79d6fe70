import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { closeSync, mkdirSync, openSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import { record } from '../helpers/call-log-files'
import { CLI, type CliResult, runCli, startServe } from '../helpers/cli'
import { canMountSmallDisk, smallDisk } from '../helpers/small-disk'
import { tempDir } from '../helpers/temp-dir'

/*
 * Issue 36: an import on a disk that fills up. Each case fills a real filesystem (a tmpfs the test
 * mounts) and checks the store's rows against what the import reported: the report is true to the
 * rows, a bulk load leaves the store exactly as before, nothing is refused record by record for
 * the disk's sake, and once room is made the same import completes with nothing doubled.
 */

const files = tempDir('callscope-disk-full-files-')
/** An NDJSON file of `count` records numbered from `from`, outside the small disk. */
function ndjson(name: string, count: number, from = 1): string {
  const lines: string[] = []
  for (let n = from; n < from + count; n++) lines.push(record(n, { message: `Request ${n} to the provider took ${n % 900} ms while the caller waited about the booking` }))
  const path = join(files, name)
  writeFileSync(path, `${lines.join('\n')}\n`)
  return path
}

/** What the store holds, read from the file itself: the ground truth the reports are held to. */
function storeState(dbPath: string) {
  const db = new Database(dbPath, { readonly: true })
  try {
    const one = (sql: string) => db.prepare(sql).pluck().get()
    return {
      callLogs: one('select count(*) from call_logs') as number,
      words: one('select count(*) from call_logs_fts') as number,
      substrings: one("select count(*) from call_logs_trigram where call_logs_trigram match 'booking'") as number,
      indexes: (db.prepare("select name from sqlite_master where type in ('index', 'trigger') and tbl_name = 'call_logs' order by name").pluck().all() as string[]).join(','),
      imports: db.prepare('select status, inserted, duplicates, invalid from imports order by started_at').all() as Array<{ status: string; inserted: number; duplicates: number; invalid: number }>,
      integrity: one('pragma integrity_check'),
    }
  } finally {
    db.close()
  }
}

const reported = (stdout: string) => {
  const m = /([\d,]+) records read: ([\d,]+) new, ([\d,]+) already stored, ([\d,]+) refused/.exec(stdout)
  if (!m) throw new Error(`no counts in: ${stdout}`)
  const n = (s: string) => Number(s.replaceAll(',', ''))
  return { read: n(m[1]!), inserted: n(m[2]!), duplicates: n(m[3]!), invalid: n(m[4]!) }
}

// Each case imports tens of thousands of records, some twice: minutes on a loaded 2-core machine.
describe.skipIf(!canMountSmallDisk)('an import on a full disk', { timeout: 300_000 }, () => {
  const disk = canMountSmallDisk ? smallDisk(128 * 1024 * 1024) : (null as never)
  const first = ndjson('first.ndjson', 1)
  let n = 0
  /** A new store on the small disk holding one call log. */
  const newStore = () => {
    const dir = join(disk.dir, `store-${++n}`)
    mkdirSync(dir)
    const db = join(dir, 'callscope.sqlite')
    expect(runCli(['import', 'logs', first, '--db', db]).status).toBe(0)
    return db
  }

  it('in batches: says the disk is full once, reports exactly the batches it committed, and completes once room is made', () => {
    disk.clear()
    const db = newStore()
    const file = ndjson('batches.ndjson', 60_000, 2)
    disk.fill(20 * 1024 * 1024)
    const cut = runCli(['import', 'logs', file, '--db', db, '--bulk', 'never'], {}, 240_000)
    expect(cut.status).toBe(1)
    expect(cut.stderr).toContain('The import failed: the disk holding the store is full')
    expect(cut.stderr).toContain(db)
    // One cause, one message: no record refused for the disk's sake.
    expect(cut.stderr).not.toContain('Refused records')
    const counts = reported(cut.stdout)
    expect(counts.invalid).toBe(0)
    const after = storeState(db)
    // Some batches landed, not all: the disk filled in the middle.
    expect(counts.inserted).toBeGreaterThan(0)
    expect(counts.inserted).toBeLessThan(60_000)
    expect(after.callLogs).toBe(1 + counts.inserted)
    expect(after.words).toBe(after.callLogs)
    // The record keeps the counts committed with the last batch. Its end could not be written: the
    // WAL holding that batch cannot be checkpointed into a full disk, so no write gets through. It
    // reads as interrupted once this process is gone (run-lifecycle.ts), true to the rows either way.
    expect(after.imports.at(-1)).toMatchObject({ status: 'running', inserted: counts.inserted, invalid: 0 })
    expect(after.integrity).toBe('ok')

    disk.makeRoom()
    const again = runCli(['import', 'logs', file, '--db', db, '--bulk', 'never'], {}, 240_000)
    expect(again.status, again.stderr).toBe(0)
    expect(reported(again.stdout)).toEqual({ read: 60_000, inserted: 60_000 - counts.inserted, duplicates: counts.inserted, invalid: 0 })
    expect(storeState(db).callLogs).toBe(60_001)
  })

  it('in bulk: a load the disk fills midway leaves the store exactly as before, indexes and full-text included', () => {
    disk.clear()
    const db = newStore()
    expect(runCli(['import', 'logs', ndjson('before.ndjson', 5000, 100_000), '--db', db]).status).toBe(0)
    const before = storeState(db)
    const file = ndjson('bulk.ndjson', 60_000, 2)
    disk.fill(24 * 1024 * 1024)
    // From standard input the size is unknown, so the room is not estimated first: the disk fills
    // during the load itself.
    const cut = spawnImportFromStdin(file, db)
    return cut.then((result) => {
      expect(result.status).toBe(1)
      expect(result.stderr).toContain('The import failed: the disk holding the store is full')
      expect(result.stderr).toContain('Nothing of it was stored')
      expect(result.stderr).not.toContain('Refused records')
      expect(reported(result.stdout)).toMatchObject({ inserted: 0, duplicates: 0, invalid: 0 })
      const after = storeState(db)
      expect({ ...after, imports: after.imports.slice(0, -1) }).toEqual(before)
      expect(after.imports.at(-1)).toMatchObject({ status: 'failed', inserted: 0, duplicates: 0 })
    })
  })

  it('in bulk: refuses before it starts when the disk has too little room for the file, saying how much it needs', () => {
    disk.clear()
    const db = newStore()
    const before = storeState(db)
    const file = ndjson('refused.ndjson', 60_000, 2)
    disk.fill(30 * 1024 * 1024)
    const refused = runCli(['import', 'logs', file, '--db', db, '--bulk', 'always'])
    expect(refused.status).toBe(1)
    expect(refused.stderr).toMatch(/The import was not started: the disk holding the store has too little room for it \(.*callscope\.sqlite; \d+ MiB free, about \d+ MiB needed/)
    expect(refused.stdout).toBe('')
    expect(storeState(db)).toEqual(before)
  })

  it('an upload to serve answers 507 with the report of what was kept, serves reads meanwhile, and completes once room is made', async () => {
    disk.clear()
    const dir = join(disk.dir, 'serve')
    mkdirSync(dir)
    const db = join(dir, 'callscope.sqlite')
    const server = await startServe(['--db', db, '--no-seed', '--readers', '1'], { CALLSCOPE_TOKEN: 'cs_disk_full_test_token' })
    try {
      const auth = { Authorization: 'Bearer cs_disk_full_test_token' }
      const body = ndjson('upload.ndjson', 20_000, 2)
      const upload = () => fetch(`${server.url}/imports/call-logs?format=ndjson&file_name=upload.ndjson`, { method: 'POST', headers: auth, body: readFileSync(body) })
      disk.fill(4 * 1024 * 1024)
      const full = await upload()
      expect(full.status).toBe(507)
      const answer = (await full.json()) as { detail: string; import: { inserted: number; status: string } }
      expect(answer.detail).toContain('The import failed: the disk holding the store is full')
      expect(answer.detail).toContain(db)
      expect(answer.import.status).toBe('failed')
      expect(storeState(db).callLogs).toBe(answer.import.inserted)

      const read = await fetch(`${server.url}/logs/calls?limit=5`, { headers: auth })
      expect(read.status).toBe(200)
      // What the console's banner shows: the refused write, until room is made.
      const health = async () => ((await (await fetch(`${server.url}/trpc/storeHealth.status`, { headers: auth })).json()) as { result: { data: { writeFault: { kind: string; message: string } | null } } }).result.data.writeFault
      expect(await health()).toMatchObject({ kind: 'full', message: answer.detail })

      disk.makeRoom()
      expect(await health()).toBeNull()
      const retried = await upload()
      expect(retried.status).toBe(201)
      const done = (await retried.json()) as { inserted: number; duplicates: number }
      expect(done).toMatchObject({ inserted: 20_000 - answer.import.inserted, duplicates: answer.import.inserted })
      expect(storeState(db).callLogs).toBe(20_000)
    } finally {
      await server.stop()
    }
  })
})

/** `callscope import logs - --bulk always < file`: the file as standard input. */
async function spawnImportFromStdin(file: string, db: string): Promise<CliResult> {
  const input = openSync(file, 'r')
  const child = spawn(process.execPath, [CLI, 'import', 'logs', '-', '--format', 'ndjson', '--bulk', 'always', '--db', db], { stdio: [input, 'pipe', 'pipe'] })
  closeSync(input)
  let stdout = ''
  let stderr = ''
  child.stdout!.on('data', (chunk) => (stdout += chunk))
  child.stderr!.on('data', (chunk) => (stderr += chunk))
  const [status] = (await once(child, 'exit')) as [number | null]
  return { status, stdout, stderr }
}
