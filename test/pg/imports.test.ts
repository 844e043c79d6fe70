import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { callLogPartitions } from '../../src-main/db/pg-partitions'
import type { ImportReport } from '../../src-main/modules/imports/imports.service'
import { runCliAsync } from '../helpers/cli'
import { createPgDatabase } from '../helpers/pg-database'
import { tempDir } from '../helpers/temp-dir'
import { startTestServer, type TestServer } from '../helpers/test-server'

/*
 * Call log imports into a PostgreSQL store (issue 20): COPY into a staging table, then one
 * INSERT … SELECT deduplicated by call_log_ids. The same file into an empty SQLite store and an
 * empty PostgreSQL store must give the same reports and the same rows, as the API answers them
 * (GET /logs/calls, byte for byte), whichever parser (this thread, or the worker writing COPY text).
 */

let sqlite: TestServer
let postgres: TestServer

beforeAll(async () => {
  ;[sqlite, postgres] = await Promise.all([startTestServer({ seed: false }), startTestServer({ seed: false, store: 'postgres' })])
})
afterAll(async () => {
  await Promise.all([sqlite?.close(), postgres?.close()])
})

const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`
const AGENTS = [uuid(900_001), uuid(900_002), uuid(900_003)]

/** Record n: three months of 2026, a spread of levels (some spelled as backends do), awkward text. */
function record(n: number): Record<string, unknown> {
  const day = 1 + (n % 28)
  const month = 9 + (n % 3)
  return {
    id: n % 11 === 0 ? uuid(n).toUpperCase() : uuid(n),
    tenant_id: uuid(n % 4),
    log_type: ['stt', 'llm', 'tts', 'webhook'][n % 4],
    log_level: ['info', 'WARN', 'error', 'debug', 'fatal', 'warning'][n % 6],
    // Tabs, newlines, backslashes and non-ASCII text: COPY's escapes and UTF-8 on the way in.
    message: n % 5 === 0 ? `line ${n}\twith a tab\nand a newline, a \\ backslash and “quotes” — Transcrição` : `line ${n} ok`,
    timestamp: `2026-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}T${String(n % 24).padStart(2, '0')}:00:0${n % 10}.${String(n % 1000).padStart(3, '0')}+02:00`,
    agent_id: n % 7 === 0 ? null : AGENTS[n % 3],
    details: n % 3 === 0 ? { n, nested: { list: [1, 2.5, 'x'], flag: true, none: null }, 'quote"key': 'é\u0001' } : { n },
    ...(n % 13 === 0 ? {} : { user_id: `user-${n % 9}`, request_id: null }),
  }
}

/** NDJSON of records 1..count, with refused records and repeated ids in between. */
function ndjson(count: number, from = 1): string {
  const lines: string[] = []
  for (let n = from; n < from + count; n++) {
    lines.push(JSON.stringify(record(n)))
    if (n % 97 === 0) lines.push('{"id": "broken')
    if (n % 89 === 0) lines.push(JSON.stringify({ ...record(n), id: uuid(500_000 + n), log_level: 'loud' }))
    // The same id later in the file: the first one wins on both stores.
    if (n % 101 === 0) lines.push(JSON.stringify({ ...record(n), message: 'a later copy, skipped' }))
  }
  return lines.join('\n')
}

const upload = (server: TestServer, body: string, name: string) =>
  server.get(`/imports/call-logs?file_name=${name}`, { method: 'POST', body, headers: { 'Content-Type': 'application/x-ndjson' } })

/** A report without what differs between any two runs (its id and times). */
const comparable = ({ id: _id, startedAt: _s, updatedAt: _u, finishedAt: _f, durationMs: _d, ...rest }: ImportReport) => rest

/** Every call log both stores hold, as GET /logs/calls answers: a page per day and agent, bodies compared byte for byte. */
async function sameListings(days: string[]): Promise<number> {
  let lines = 0
  for (const day of days) {
    // By agent too on some days (each agent's index), all of them by day.
    const byAgent = day.endsWith('1') ? AGENTS.map((a) => `agent_id=${a}&start_date=${day}&end_date=${day}&limit=1000`) : []
    for (const query of [`start_date=${day}&end_date=${day}&limit=1000`, ...byAgent]) {
      const [a, b] = await Promise.all([sqlite, postgres].map(async (s) => {
        const response = await s.get(`/logs/calls?${query}`)
        return { status: response.status, body: await response.text() }
      }))
      expect(a!.status).toBe(200)
      expect(b, query).toEqual(a)
      if (!query.startsWith('agent_id')) lines += (JSON.parse(a!.body) as unknown[]).length
    }
  }
  return lines
}

/** The UTC days from `first` to `last`, as YYYY-MM-DD. */
function daysFrom(first: string, last: string): string[] {
  const days: string[] = []
  for (let t = Date.parse(first); t <= Date.parse(last); t += 86_400_000) days.push(new Date(t).toISOString().slice(0, 10))
  return days
}

describe('importing call logs into PostgreSQL', () => {
  it('gives the same report and the same rows as SQLite, and a re-import adds nothing', async () => {
    const file = ndjson(3000)
    const [a, b] = await Promise.all([upload(sqlite, file, 'logs.ndjson'), upload(postgres, file, 'logs.ndjson')])
    expect([a.status, b.status]).toEqual([201, 201])
    const [fromSqlite, fromPg] = [(await a.json()) as ImportReport, (await b.json()) as ImportReport]
    expect(fromSqlite).toMatchObject({ status: 'completed', inserted: 3000, duplicates: 29, invalid: 30 + 33 })
    expect(comparable(fromPg)).toEqual(comparable(fromSqlite))
    // Refused records reported by position and line, with the same reasons.
    expect(fromPg.errors[0]).toEqual({ record: 90, line: 90, reason: expect.stringContaining('log_level') })
    // The history (tRPC's imports.get reads it) holds the same record.
    const { bulk: _bulk, ...withoutBulk } = comparable(fromSqlite) as ReturnType<typeof comparable> & { bulk?: boolean }
    expect(comparable(await postgres.service.imports.get(fromPg.id))).toEqual(withoutBulk)

    expect(await sameListings(daysFrom('2026-08-31', '2026-11-30'))).toBe(3000)
    // The stored rows name their import; ids are stored lower-case, their levels as spelled.
    const stored = await postgres.service.db.selectFrom('call_logs').select(['import_id', 'source']).distinct().execute()
    expect(stored).toEqual([{ import_id: fromPg.id, source: '' }])
    const { rows } = await sql<{ n: number }>`select count(*) as n from call_log_ids`.execute(postgres.service.db)
    expect(rows).toEqual([{ n: 3000 }])

    const again = await Promise.all([upload(sqlite, file, 'again.ndjson'), upload(postgres, file, 'again.ndjson')])
    const [twiceSqlite, twicePg] = (await Promise.all(again.map((r) => r.json()))) as [ImportReport, ImportReport]
    expect(twicePg).toMatchObject({ status: 'completed', inserted: 0, duplicates: 3029, invalid: 63 })
    expect(comparable(twicePg)).toEqual(comparable(twiceSqlite))
    expect(await sameListings(daysFrom('2026-10-01', '2026-10-31'))).toBeGreaterThan(900)
  }, 120_000)

  it('gives a month without a partition one, and only that month', async () => {
    const before = (await callLogPartitions(postgres.service.db)).map((p) => p.name)
    expect(before).not.toContain('call_logs_1999_12')
    const old = [
      { ...record(70_001), timestamp: '1999-12-31T23:59:59.999Z' },
      { ...record(70_002), timestamp: '2031-01-01T00:00:00Z' },
    ].map((r) => JSON.stringify(r)).join('\n')
    const [a, b] = await Promise.all([upload(sqlite, old, 'old.ndjson'), upload(postgres, old, 'old.ndjson')])
    const [fromSqlite, fromPg] = [(await a.json()) as ImportReport, (await b.json()) as ImportReport]
    expect(fromPg).toMatchObject({ status: 'completed', inserted: 2 })
    expect(comparable(fromPg)).toEqual(comparable(fromSqlite))
    const after = (await callLogPartitions(postgres.service.db)).map((p) => p.name)
    expect(after.filter((name) => !before.includes(name)).sort()).toEqual(['call_logs_1999_12', 'call_logs_2031_01'])
    await sameListings(['1999-12-31', '2031-01-01'])
  })

  it('parses a large file on the worker (COPY text) and stores what SQLite stores', async () => {
    const file = ndjson(4000, 10_001)
    expect(Buffer.byteLength(file)).toBeGreaterThan(1 << 20)
    const options = { source: 'big.ndjson', format: 'ndjson' as const, parser: 'worker' as const, batchSize: 1500 }
    const progress: number[] = []
    const [fromSqlite, fromPg] = await Promise.all([
      sqlite.service.imports.importCallLogs(Readable.from([file]), options),
      postgres.service.imports.importCallLogs(Readable.from([file]), { ...options, onProgress: (r) => progress.push(r.inserted) }),
    ])
    expect(fromPg).toMatchObject({ status: 'completed', inserted: 4000, bulk: false })
    expect(comparable(fromPg)).toEqual(comparable(fromSqlite))
    // Progress came batch by batch, each committed with the rows it counts.
    expect(progress.length).toBeGreaterThan(2)
    expect(progress.at(-1)).toBe(4000)
    expect(await sameListings(daysFrom('2026-08-31', '2026-11-30'))).toBeGreaterThan(3000)
  }, 120_000)

  it('ends as failed for a file it cannot read on, keeping the batches before, as SQLite does', async () => {
    const broken = `[${JSON.stringify(record(80_001))}, ${JSON.stringify(record(80_002))}, {"id": `
    const [a, b] = await Promise.all([
      sqlite.get('/imports/call-logs?format=json', { method: 'POST', body: broken }),
      postgres.get('/imports/call-logs?format=json', { method: 'POST', body: broken }),
    ])
    expect([a.status, b.status]).toEqual([422, 422])
    const [fromSqlite, fromPg] = [(await a.json()) as { detail: string; import: ImportReport }, (await b.json()) as { detail: string; import: ImportReport }]
    expect(fromPg.detail).toBe(fromSqlite.detail)
    expect(comparable(fromPg.import)).toEqual(comparable(fromSqlite.import))
  })
})

describe('a record PostgreSQL cannot hold', () => {
  it('is refused with its reason (text with U+0000), and the rest of its batch is stored', async () => {
    const lines = [
      { ...record(90_001), message: 'before' },
      { ...record(90_002), message: 'a\u0000b' },
      { ...record(90_003), details: { k: 'x\u0000' } },
      // A backslash then "u0000" is no NUL: kept.
      { ...record(90_004), details: { k: '\\u0000' } },
    ].map((r) => JSON.stringify(r)).join('\n')
    const response = await upload(postgres, lines, 'nul.ndjson')
    expect(response.status).toBe(201)
    const report = (await response.json()) as ImportReport
    expect(report).toMatchObject({ status: 'completed', inserted: 2, invalid: 2 })
    expect(report.errors).toEqual([
      { record: 2, line: 2, reason: 'message: contains the character U+0000 (NUL), which a PostgreSQL store cannot hold' },
      { record: 3, line: 3, reason: 'details: contains the character U+0000 (NUL), which a PostgreSQL store cannot hold' },
    ])
    const kept = await postgres.service.db.selectFrom('call_logs').select('details').where('import_id', '=', report.id).orderBy('seq').execute()
    expect(kept.map((r) => r.details)).toEqual([JSON.stringify({ n: 90_001 }), JSON.stringify({ k: '\\u0000' })])
  })
})

describe('callscope import logs --db postgres://', () => {
  it('imports a file into a PostgreSQL store as into SQLite, then finds every record already stored', async () => {
    const url = await createPgDatabase({ seed: false })
    const dir = tempDir()
    const file = join(dir, 'cli.ndjson')
    writeFileSync(file, ndjson(500, 20_001))
    const counts = (stdout: string) => stdout.match(/\d+ records read: .*/)?.[0]
    const [first, inSqlite] = await Promise.all([runCliAsync(['import', 'logs', file, '--db', url]), runCliAsync(['import', 'logs', file, '--db', join(dir, 'cli.sqlite')])])
    expect(first.status).toBe(0)
    expect(counts(first.stdout)).toBe('515 records read: 500 new, 4 already stored, 11 refused')
    expect(counts(first.stdout)).toBe(counts(inSqlite.stdout))
    // The refused records, listed on stderr the same way.
    expect(first.stderr).toBe(inSqlite.stderr)
    expect(first.stderr).toContain('record 26, line 26: log_level: must be a log level')
    const second = await runCliAsync(['import', 'logs', file, '--db', url])
    expect(counts(second.stdout)).toBe('515 records read: 0 new, 504 already stored, 11 refused')
    const info = await runCliAsync(['db', 'info', '--json', '--db', url])
    expect((JSON.parse(info.stdout) as { counts: Record<string, number> }).counts.call_logs).toBe(500)
  }, 60_000)
})
