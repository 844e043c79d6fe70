import { copyFileSync, existsSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { runCli, runCliAsync, type ServeProcess, startServe } from '../helpers/cli'
import { damageHeader, damageRowsOf } from '../helpers/damaged-store'
import { tempDir } from '../helpers/temp-dir'
import { trpcHttp } from '../helpers/trpc-http'

/** Each case runs the CLI a few times; a loaded 2-core machine takes up to 10 s a start. */
const SLOW = 120_000

/*
 * A damaged store file (issue 36), end to end through the real CLI and `serve`: pages overwritten
 * in the middle of the demo store (the newest call logs' page and a page of messages), and
 * separately its header. Each case checks what is said and the rows, against the undamaged original.
 */

const TOKEN = 'damaged-store-test-token'
const dir = tempDir()
const original = join(dir, 'original.sqlite')
const damaged = join(dir, 'damaged.sqlite')

const query = <T>(file: string, sql: string, ...params: unknown[]): T[] => {
  const db = new Database(file, { readonly: true })
  try {
    return db.prepare(sql).pluck().all(...params) as T[]
  } finally {
    db.close()
  }
}
/** Rows per ordinary table (the full-text indexes' shadow tables left out), read from an undamaged file. */
const countsOf = (file: string): Record<string, number> => {
  const tables = query<string>(file, "select name from sqlite_master where type = 'table' and name not like 'sqlite_%' and name not like 'call_logs_fts%' and name not like 'call_logs_trigram%' and name not like 'kysely_%'")
  return Object.fromEntries(tables.map((t) => [t, query<number>(file, `select count(*) from "${t}"`)[0]!]))
}

let lost: { call_logs: number[]; messages: number[] }
beforeAll(() => {
  copyFileSync(inject('demoTemplate'), original)
  copyFileSync(original, damaged)
  // The newest line's page: the first page of /logs/calls and of an export meets the damage.
  const newest = query<number>(original, 'select seq from call_logs order by timestamp desc, seq desc limit 1')[0]!
  const middleMessage = query<number>(original, 'select rowid from messages order by rowid limit 1 offset (select count(*) / 2 from messages)')[0]!
  lost = { call_logs: damageRowsOf(damaged, 'call_logs', [newest]).lost, messages: damageRowsOf(damaged, 'messages', [middleMessage]).lost }
  expect(lost.call_logs.length).toBeGreaterThan(0)
  expect(lost.messages.length).toBeGreaterThan(0)
})

describe('serve on a store damaged in the middle', () => {
  let serve: ServeProcess
  const headers = { Authorization: `Bearer ${TOKEN}` }
  beforeAll(async () => {
    serve = await startServe(['--db', damaged, '--no-seed'], { CALLSCOPE_TOKEN: TOKEN })
  })
  afterAll(() => serve?.stop())

  it('says on stderr, before it listens, that the store is damaged, where it is and what to run', () => {
    const warning = serve.stderr().split('\n').find((line) => line.startsWith('Warning: '))
    expect(warning).toContain(`the store is damaged (${damaged}`)
    expect(warning).toContain(`callscope db check --db ${damaged}`)
    expect(warning).toContain(`callscope db recover --db ${damaged} --out NEW.db`)
  })

  it('answers a read that meets the damage with 503 and what to run, and keeps answering reads that do not', async () => {
    const logs = await fetch(`${serve.url}/logs/calls`, { headers })
    expect(logs.status).toBe(503)
    const { detail } = (await logs.json()) as { detail: string }
    expect(detail).toMatch(/^Reading the store failed: the store is damaged/)
    expect(detail).toContain('callscope db recover')

    const tenantId = query<string>(original, 'select id from tenants order by name limit 1')[0]!
    const tenant = await fetch(`${serve.url}/tenants/${tenantId}`, { headers })
    expect(tenant.status).toBe(200)
    expect(((await tenant.json()) as { id: string }).id).toBe(tenantId)
  })

  it('answers an export whose first rows are damaged with 503, not a file that looks empty or whole', async () => {
    const response = await fetch(`${serve.url}/export/call-logs.ndjson`, { headers })
    expect(response.status).toBe(503)
    expect(((await response.json()) as { detail: string }).detail).toContain('the store is damaged')
  })

  it('gives the console the damage through storeHealth.status', async () => {
    const health = await trpcHttp(() => serve.url, () => TOKEN).query<{ damage: { message: string } | null; writeFault: unknown }>('storeHealth.status')
    expect(health.damage?.message).toContain('the store is damaged')
    expect(health.writeFault).toBeNull()
  })
})

describe('serve with every query on the main thread (--readers 0)', () => {
  it('answers a read that meets the damage with 503 too, and says it once on stderr', async () => {
    const serve = await startServe(['--db', damaged, '--no-seed', '--readers', '0'], { CALLSCOPE_TOKEN: TOKEN })
    try {
      // No quick_check without reader threads; the header and schema are sound, so nothing is said at start.
      expect(serve.stderr()).not.toContain('Warning:')
      const logs = await fetch(`${serve.url}/logs/calls`, { headers: { Authorization: `Bearer ${TOKEN}` } })
      expect(logs.status).toBe(503)
      expect(((await logs.json()) as { detail: string }).detail).toMatch(/^Reading the store failed: the store is damaged/)
      // The first read that meets the damage is said on stderr too, once.
      await expect.poll(() => serve.stderr()).toContain('Warning: Reading the store failed: the store is damaged')
      await fetch(`${serve.url}/logs/calls`, { headers: { Authorization: `Bearer ${TOKEN}` } })
      expect(serve.stderr().split('Warning:').length - 1).toBe(1)
    } finally {
      await serve.stop()
    }
  }, SLOW)
})

describe('the CLI on a store damaged in the middle', () => {
  it('export logs names the damage and what to run instead of SQLite\'s bare message, and writes no file', async () => {
    const out = join(dir, 'export.ndjson')
    const result = await runCliAsync(['export', 'logs', '--db', damaged, '-o', out])
    expect(result.status).toBe(1)
    expect(result.stderr).toMatch(/^callscope: error: .*Reading the store failed: the store is damaged/)
    expect(result.stderr).toContain(`callscope db check --db ${damaged}`)
    expect(existsSync(out)).toBe(false)
  }, SLOW)

  it('db check exits 3 and names the damaged tables; 0 on the original; 1 with no store', () => {
    const check = runCli(['db', 'check', '--db', damaged])
    expect(check.status).toBe(3)
    expect(check.stdout).toContain('Verdict:  DAMAGED')
    expect(check.stdout).toContain('table call_logs')
    expect(check.stdout).toContain('table messages')
    expect(check.stdout).toContain(`callscope db recover --db ${damaged} --out NEW.db`)

    const json = runCli(['db', 'check', '--db', damaged, '--json', '--full'])
    expect(json.status).toBe(3)
    const report = JSON.parse(json.stdout) as { healthy: boolean; depth: string; problems: string[] }
    expect(report).toMatchObject({ healthy: false, depth: 'full' })

    const healthy = runCli(['db', 'check', '--db', original, '--full'])
    expect(healthy.stdout).toContain('Verdict:  healthy')
    expect(healthy.status).toBe(0)

    const none = runCli(['db', 'check', '--db', join(dir, 'nothing-here.sqlite')])
    expect(none.status).toBe(1)
    expect(none.stderr).toContain('no store at')
  }, SLOW)

  it('db recover copies every readable row into a new store that passes db check, and reports the unreadable ranges', () => {
    const out = join(dir, 'recovered.sqlite')
    const result = runCli(['db', 'recover', '--db', damaged, '--out', out, '--json'])
    expect(result.stderr).toBe('')
    expect(result.status).toBe(0)
    const report = JSON.parse(result.stdout) as { tables: Array<{ table: string; copied: number; unreadable: Array<{ from: number | null; to: number | null }> }>; check: { healthy: boolean } }
    expect(report.check.healthy).toBe(true)

    // Undamaged tables: every row. Damaged ones: every row but those on the overwritten pages.
    const before = countsOf(original)
    const after = countsOf(out)
    const expected = { ...before, call_logs: before.call_logs! - lost.call_logs.length, messages: before.messages! - lost.messages.length }
    expect(after).toEqual(expected)
    const byTable = Object.fromEntries(report.tables.map((t) => [t.table, t]))
    expect(byTable.call_logs!.copied).toBe(expected.call_logs)
    expect(byTable.tenants!.unreadable).toEqual([])
    // The reported range covers exactly the lost rowids (seq is dense in the demo store).
    const range = byTable.call_logs!.unreadable
    expect(range).toHaveLength(1)
    expect(lost.call_logs).toEqual(Array.from({ length: lost.call_logs.length }, (_, i) => range[0]!.from! + i))
    expect(range[0]!.to === null || range[0]!.to === Math.max(...lost.call_logs)).toBe(true)

    // The rows themselves, not only their number: a surviving line is byte for byte the original's.
    const sample = query<string>(original, 'select seq from call_logs where seq not in (select value from json_each(?)) order by seq limit 1 offset 5000', JSON.stringify(lost.call_logs))[0]!
    const row = (file: string) => query<string>(file, "select json_object('id', id, 'message', message, 'details', details, 'timestamp', timestamp) from call_logs where seq = ?", sample)[0]
    expect(row(out)).toBe(row(original))

    // Both full-text indexes were rebuilt from the copied messages and agree with them.
    const db = new Database(out)
    try {
      for (const index of ['call_logs_fts', 'call_logs_trigram']) db.prepare(`insert into ${index}(${index}) values ('integrity-check')`).run()
      const word = db.prepare("select count(*) from call_logs_fts where call_logs_fts match 'response'").pluck().get() as number
      expect(word).toBe(db.prepare("select count(*) from call_logs where message like '%response%'").pluck().get())
      expect(word).toBeGreaterThan(0)
    } finally {
      db.close()
    }
    expect(runCli(['db', 'check', '--db', out, '--full']).status).toBe(0)
    const info = JSON.parse(runCli(['db', 'info', '--json', '--db', out]).stdout) as { counts: Record<string, number> }
    expect(info.counts.call_logs).toBe(expected.call_logs)
  }, SLOW)

  it('db recover refuses to overwrite an existing file, and leaves it as it was', () => {
    const out = join(dir, 'taken.sqlite')
    copyFileSync(original, out)
    const size = statSync(out).size
    const result = runCli(['db', 'recover', '--db', damaged, '--out', out])
    expect(result.status).toBe(1)
    expect(result.stderr).toContain('already exists')
    expect(statSync(out).size).toBe(size)
    expect(readFileSync(out).equals(readFileSync(original))).toBe(true)
  }, SLOW)
})

describe('a store whose header is overwritten', () => {
  const broken = join(dir, 'no-header.sqlite')
  beforeAll(() => {
    copyFileSync(original, broken)
    damageHeader(broken)
  })

  it('serve refuses to start, naming the damage and what to run', async () => {
    const result = await runCliAsync(['serve', '--port', '0', '--db', broken, '--no-seed'])
    expect(result.status).toBe(1)
    expect(result.stderr).toContain(`Opening the store failed: the store is damaged (${broken}: the header does not start with "SQLite format 3"`)
    expect(result.stderr).toContain(`callscope db check --db ${broken}`)
    expect(result.stdout).not.toContain('Listening on')
  }, SLOW)

  it('db check exits 3; db recover says it cannot read a file without its header and writes nothing', () => {
    const check = runCli(['db', 'check', '--db', broken])
    expect(check.status).toBe(3)
    expect(check.stdout).toContain('the header does not start with "SQLite format 3"')
    const out = join(dir, 'from-no-header.sqlite')
    const recover = runCli(['db', 'recover', '--db', broken, '--out', out])
    expect(recover.status).toBe(1)
    expect(recover.stderr).toContain('cannot be opened as a SQLite store')
    expect(existsSync(out)).toBe(false)
  }, SLOW)
})
