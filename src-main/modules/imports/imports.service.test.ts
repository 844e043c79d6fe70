import { Readable } from 'node:stream'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { callLogFilterSchema } from '../../../src-shared/schemas/call-log-search'
import type { DatabaseHandle } from '../../db/connection'
import { migratedDb } from '../../../test/helpers/migrated-db'
import { createCallLogsService } from '../call-logs/call-logs.service'
import { csvHeader, csvLine } from '../call-logs/call-logs.lines'
import type { Principal } from '../../kit/access'
import { bulkPays, createImportsService, type ImportOptions } from './imports.service'

const admin: Principal = { role: 'admin', tenantId: null, tokenId: null }
const TENANT = '11111111-1111-4111-8111-111111111111'
const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`

/** A record exactly as GET /logs/calls returns it. */
const record = (n: number, o: Record<string, unknown> = {}) => ({
  id: uuid(n),
  tenant_id: TENANT,
  log_type: 'llm',
  log_level: 'error',
  message: `LLM timeout number ${n}`,
  timestamp: `2026-11-01T10:00:${String(n % 60).padStart(2, '0')}.000Z`,
  agent_id: null,
  session_id: null,
  call_id: null,
  details: { attempt: n },
  user_id: null,
  trace_id: `tr-${n}`,
  request_id: null,
  ...o,
})

let handle: DatabaseHandle
let imports: ReturnType<typeof createImportsService>
let logs: ReturnType<typeof createCallLogsService>
beforeEach(async () => {
  handle = await migratedDb()
  imports = createImportsService(handle.db, handle.writer)
  logs = createCallLogsService(handle.db, handle.json)
})
afterEach(() => handle.close())

let parser: ImportOptions['parser'] = 'worker'
const run = (text: string, format: 'ndjson' | 'json' | 'csv', batchSize?: number, more: Partial<ImportOptions> = {}) =>
  imports.importCallLogs(Readable.from([Buffer.from(text)]), { source: `test.${format}`, format, batchSize, parser, ...more })
const count = async () => (await logs.search(admin, callLogFilterSchema.parse({}), null, 1000)).rows.length

describe.each(['worker', 'thread'] as const)('importing NDJSON, parsed on the %s', (where) => {
  beforeEach(() => {
    parser = where
  })
  afterEach(() => {
    parser = 'worker'
  })
  const lines = [
    JSON.stringify(record(1)),
    '',
    JSON.stringify(record(2, { log_level: 'WARNING' })),
    '{"id": "broken',
    JSON.stringify(record(3, { log_level: 'loud' })),
    JSON.stringify(record(4, { timestamp: '2026-11-01 10:00:04' })),
    JSON.stringify({ ...record(5), tenant_id: undefined }),
    JSON.stringify(record(6, { log_type: '' })),
    '[1, 2]',
  ]

  it('keeps the valid records and reports each refused one with its line and reason', async () => {
    const report = await run(lines.join('\n'), 'ndjson', 2)
    expect(report).toMatchObject({ status: 'completed', recordsRead: 8, inserted: 3, duplicates: 0, invalid: 5, failure: null })
    expect(report.errors.map((e) => [e.record, e.line])).toEqual([[3, 4], [4, 5], [6, 7], [7, 8], [8, 9]])
    expect(report.errors[0]!.reason).toMatch(/^not valid JSON/)
    expect(report.errors[1]!.reason).toMatch(/^log_level: /)
    expect(report.errors[2]!.reason).toBe('tenant_id is required')
    expect(report.errors[3]!.reason).toBe('log_type: must not be empty (got "")')
    expect(report.errors[4]!.reason).toBe('expected a JSON object')
    expect(report.bytesRead).toBe(Buffer.byteLength(lines.join('\n')))
    // Stored as the API serves them: level lower-cased, a time without offset read as UTC.
    const stored = (await logs.search(admin, callLogFilterSchema.parse({}), null, 10)).rows
    expect(stored.map((r) => [r.id, r.log_level, r.timestamp])).toEqual([
      [uuid(4), 'error', '2026-11-01T10:00:04.000Z'],
      [uuid(2), 'warning', '2026-11-01T10:00:02.000Z'],
      [uuid(1), 'error', '2026-11-01T10:00:01.000Z'],
    ])
    expect(stored[2]!.details).toEqual({ attempt: 1 })
  })

  it('names every problem of a refused record, up to three, and counts the rest', async () => {
    const report = await run(
      [
        JSON.stringify(record(1, { tenant_id: undefined, log_level: 'loud' })),
        JSON.stringify({ id: 'x', message: 7, log_type: 'LLM', timestamp: 'soon' }),
      ].join('\n'),
      'ndjson',
    )
    expect(report.errors[0]!.reason).toMatch(/^tenant_id is required; log_level: must be a log level: debug, .* \(got "loud"\)$/)
    expect(report.errors[1]!.reason).toBe('id: must be a UUID, 8-4-4-4-12 hexadecimal digits (got "x"); tenant_id is required; log_level is required (and 2 more)')
  })

  it('fails on a file that is not NDJSON at all, storing nothing', async () => {
    const csv = ['id,tenant_id,log_type,log_level,message,timestamp', `${record(1).id},${record(1).tenant_id},llm,error,x,2026-11-01T10:00:00Z`].join('\n')
    const report = await run(csv, 'ndjson')
    expect(report).toMatchObject({ status: 'failed', inserted: 0, invalid: 0 })
    expect(report.failure).toMatch(/^line 1: not valid JSON: .*, nor is the next line: not NDJSON \(one JSON record per line\)$/)
    expect(await count()).toBe(0)
  })

  it('keeps what real backends send: open log types, levels in other spellings with the spelling kept', async () => {
    const report = await run(
      [
        JSON.stringify(record(1, { log_type: 'LLM Errors', log_level: 'WARN' })),
        JSON.stringify(record(2, { log_type: 'Anruf', log_level: 40 })),
        JSON.stringify(record(3, { log_level: 'fatal' })),
      ].join('\n'),
      'ndjson',
    )
    expect(report).toMatchObject({ inserted: 3, invalid: 0 })
    const stored = handle.sqlite.prepare('select log_type, log_level, log_level_original from call_logs order by timestamp').all()
    expect(stored).toEqual([
      { log_type: 'LLM Errors', log_level: 'warning', log_level_original: 'WARN' },
      { log_type: 'Anruf', log_level: 'error', log_level_original: '40' },
      { log_type: 'llm', log_level: 'critical', log_level_original: 'fatal' },
    ])
  })

  it('adds nothing the second time: known ids are duplicates', async () => {
    await run(lines.join('\n'), 'ndjson')
    const again = await run(lines.join('\n'), 'ndjson')
    expect(again).toMatchObject({ inserted: 0, duplicates: 3, invalid: 5 })
    expect(await count()).toBe(3)
  })

  it('indexes imported messages for full-text search', async () => {
    await run([1, 2, 3].map((n) => JSON.stringify(record(n))).join('\n'), 'ndjson', 2)
    const found = await logs.search(admin, callLogFilterSchema.parse({ q: 'number' }), null, 10)
    expect(found.rows.map((r) => r.id)).toEqual([uuid(3), uuid(2), uuid(1)])
    // The trigger is back: a line written later is searchable too.
    await run(JSON.stringify(record(9, { message: 'later words' })), 'ndjson')
    expect((await logs.search(admin, callLogFilterSchema.parse({ q: 'later' }), null, 10)).rows).toHaveLength(1)
    const integrity = handle.sqlite.prepare("insert into call_logs_fts(call_logs_fts, rank) values ('integrity-check', 1)")
    expect(() => integrity.run()).not.toThrow()
  })
})

describe('importing a JSON array', () => {
  it('reads what GET /logs/calls returns, element by element', async () => {
    const text = JSON.stringify([record(1), record(2), { nope: true }, record(3)], null, 2)
    const report = await run(text, 'json', 2)
    expect(report).toMatchObject({ status: 'completed', recordsRead: 4, inserted: 3, invalid: 1 })
    // The third element's "{" stands on the line before its first field.
    const line = text.slice(0, text.indexOf('"nope"')).split('\n').length - 1
    expect(line).toBeGreaterThan(30)
    expect(report.errors[0]).toMatchObject({ record: 3, line, reason: 'id is required; tenant_id is required; log_type is required (and 3 more)' })
  })

  it('fails on a file that is not an array, keeping nothing it could not read', async () => {
    const report = await run('{"id": 1}', 'json')
    expect(report).toMatchObject({ status: 'failed', inserted: 0, failure: 'line 1: expected a JSON array ("[")' })
  })

  it('keeps the batches before a break in the array and says where it broke', async () => {
    const text = `[${JSON.stringify(record(1))},${JSON.stringify(record(2))}\n{"x": 1}]`
    const report = await run(text, 'json', 1)
    expect(report).toMatchObject({ status: 'failed', inserted: 2 })
    expect(report.failure).toBe('line 2: expected "," or "]" after an element')
    expect(await count()).toBe(2)
  })
})

describe('importing CSV', () => {
  it('round-trips the console export, quotes and line breaks included', async () => {
    const tricky = record(1, { message: 'He said "hi",\nthen hung up', details: { note: 'a,b' }, user_id: 'u-1' })
    const text = csvHeader() + csvLine(tricky as never) + csvLine(record(2) as never) + 'only,three,fields\r\n' + csvLine(record(3, { log_level: 'nope' }) as never)
    const report = await run(text, 'csv')
    expect(report).toMatchObject({ status: 'completed', recordsRead: 4, inserted: 2, invalid: 2 })
    expect(report.errors.map((e) => e.line)).toEqual([5, 6])
    expect(report.errors[0]!.reason).toMatch(/columns/)
    const [stored] = (await logs.search(admin, callLogFilterSchema.parse({ q: 'hung' }), null, 10)).rows
    expect(stored).toMatchObject({ message: 'He said "hi",\nthen hung up', details: { note: 'a,b' }, user_id: 'u-1', agent_id: null })
  })

  it('round-trips formula-like messages and details: export as CSV, import, the same records', async () => {
    const FORMULAS = ['=HYPERLINK("http://x","click")', '+1', '-2', '@SUM(A1)', '\tTab', '\rCR', "'=already", "''+twice", "'plain", '-5 degrees']
    const originals = FORMULAS.map((text, i) =>
      record(i + 1, { message: text, details: { note: text, nested: [FORMULAS[(i + 1) % FORMULAS.length]] }, user_id: text, trace_id: FORMULAS[(i + 2) % FORMULAS.length] }),
    )
    expect((await run(originals.map((r) => JSON.stringify(r)).join('\n'), 'ndjson')).inserted).toBe(FORMULAS.length)
    const all = callLogFilterSchema.parse({})
    const csv = await new Response(logs.exportStream(admin, all, 'csv')).text()
    // Neutralised in the file: a spreadsheet sees text, not a formula.
    expect(csv).toContain(`"'=HYPERLINK(""http://x"",""click"")"`)
    expect(csv).toContain(`"''=already"`)
    expect(csv).toContain(`"'-5 degrees"`)
    expect(csv).not.toMatch(/(^|,)[=+\-@]/m)

    const copy = await migratedDb()
    try {
      const report = await createImportsService(copy.db, copy.writer).importCallLogs(Readable.from([Buffer.from(csv)]), { source: 'export.csv', format: 'csv', parser })
      expect(report).toMatchObject({ status: 'completed', inserted: FORMULAS.length, invalid: 0 })
      const ndjson = (service: ReturnType<typeof createCallLogsService>) => new Response(service.exportStream(admin, all, 'ndjson')).text()
      const copied = await ndjson(createCallLogsService(copy.db, copy.json))
      expect(copied).toBe(await ndjson(logs))
      const byId = new Map(copied.trim().split('\n').map((l) => [(JSON.parse(l) as { id: string }).id, JSON.parse(l) as unknown]))
      for (const original of originals) expect(byId.get(original.id)).toEqual(original)
      // And the copy exports the very same CSV.
      expect(await new Response(createCallLogsService(copy.db, copy.json).exportStream(admin, all, 'csv')).text()).toBe(csv)
    } finally {
      copy.close()
    }
  })

  it('fails when the header lacks required columns', async () => {
    const report = await run('id,message\r\nx,y\r\n', 'csv')
    expect(report.status).toBe('failed')
    expect(report.failure).toMatch(/^line 1: the CSV header lacks tenant_id, log_type, log_level, timestamp/)
  })
})

describe('the origin of imported records', () => {
  it('names the import, its file and time, on every record it brought in, and only those', async () => {
    const first = await run([1, 2].map((n) => JSON.stringify(record(n))).join('\n'), 'ndjson')
    const second = await imports.importCallLogs(Readable.from([Buffer.from([2, 3].map((n) => JSON.stringify(record(n))).join('\n'))]), { source: 'carrier.ndjson', format: 'ndjson' })
    const origin = async (n: number) => (await logs.context(admin, uuid(n), 0, 0)).origin
    expect(await origin(1)).toEqual({ kind: 'import', id: first.id, source: 'test.ndjson', at: first.startedAt })
    // Record 2 was already stored: the first import keeps it.
    expect(await origin(2)).toEqual({ kind: 'import', id: first.id, source: 'test.ndjson', at: first.startedAt })
    expect(await origin(3)).toEqual({ kind: 'import', id: second.id, source: 'carrier.ndjson', at: second.startedAt })
    handle.sqlite.prepare("insert into call_logs (id, tenant_id, log_type, log_level, message, timestamp) values (?, ?, 'llm', 'info', 'local', '2026-11-01T00:00:00.000Z')").run(uuid(4), TENANT)
    expect(await origin(4)).toBeNull()
  })
})

describe('the import history', () => {
  it('records each import with its counts, newest first', async () => {
    await run(JSON.stringify(record(1)), 'ndjson')
    await run('nonsense', 'json')
    const [last, first] = await imports.list()
    expect(first).toMatchObject({ source: 'test.ndjson', status: 'completed', inserted: 1 })
    expect(last).toMatchObject({ source: 'test.json', status: 'failed' })
    expect(await imports.get(first!.id)).toEqual(first)
    await expect(imports.get(uuid(99))).rejects.toThrow('Import not found')
  })

  it('marks an import whose process is gone as interrupted', async () => {
    const report = await run(JSON.stringify(record(1)), 'ndjson')
    handle.sqlite.prepare("update imports set status = 'running', pid = 999999 where id = ?").run(report.id)
    expect((await imports.get(report.id)).status).toBe('interrupted')
  })
})

describe('bulk loading', () => {
  const callLogObjects = () =>
    handle.sqlite.prepare("select type, name, sql from sqlite_master where tbl_name = 'call_logs' order by type, name").all()
  const many = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => JSON.stringify(record(from + i))).join('\n')

  it('stores, dedupes and indexes as batches do, and puts every index and trigger back', async () => {
    await run(many(1, 10), 'ndjson')
    const before = callLogObjects()
    expect(before.length).toBeGreaterThanOrEqual(13)
    const report = await run(many(5, 400), 'ndjson', 100, { bulk: true })
    expect(report).toMatchObject({ status: 'completed', recordsRead: 396, inserted: 390, duplicates: 6, invalid: 0 })
    expect(callLogObjects()).toEqual(before)
    expect(handle.sqlite.inTransaction).toBe(false)
    const found = await logs.search(admin, callLogFilterSchema.parse({ q: 'number', limit: 1000 }), null, 1000)
    expect(found.rows).toHaveLength(400)
    expect(() => handle.sqlite.prepare("insert into call_logs_fts(call_logs_fts, rank) values ('integrity-check', 1)").run()).not.toThrow()
    expect(handle.sqlite.pragma('integrity_check', { simple: true })).toBe('ok')
    // The trigger is back: later lines are searchable without a bulk load.
    await run(JSON.stringify(record(999, { message: 'afterwards' })), 'ndjson')
    expect((await logs.search(admin, callLogFilterSchema.parse({ q: 'afterwards' }), null, 10)).rows).toHaveLength(1)
    const again = await run(many(1, 400), 'ndjson', 100, { bulk: true })
    expect(again).toMatchObject({ inserted: 0, duplicates: 400 })
  })

  it('keeps the records before a break in the file, indexes rebuilt', async () => {
    const before = callLogObjects()
    const text = `[${[1, 2, 3].map((n) => JSON.stringify(record(n))).join(',')}\n{"x": 1}]`
    const report = await run(text, 'json', 1, { bulk: true })
    expect(report).toMatchObject({ status: 'failed', inserted: 3, failure: 'line 2: expected "," or "]" after an element' })
    expect(await count()).toBe(3)
    expect(callLogObjects()).toEqual(before)
  })

  it.each([true, false])('leaves the CHECK constraints on for every other writer (bulk: %s)', async (bulk) => {
    await run(many(1, 3), 'ndjson', 2, { bulk })
    expect(handle.sqlite.pragma('ignore_check_constraints', { simple: true })).toBe(0)
    const bad = handle.sqlite.prepare("insert into call_logs (id, tenant_id, log_type, log_level, message, timestamp) values ('x', 't', 'llm', 'fatal', 'm', '2026-11-01T00:00:00.000Z')")
    expect(() => bad.run()).toThrow(/CHECK constraint failed/)
  })

  it('is chosen for a file of 50,000+ records about as large as the store, not for less', () => {
    expect(bulkPays(60_000_000, 0)).toBe(true)
    expect(bulkPays(60_000_000, 59_000)).toBe(true)
    expect(bulkPays(60_000_000, 70_000)).toBe(false)
    expect(bulkPays(40_000_000, 0)).toBe(false)
    expect(bulkPays(null, 0)).toBe(false)
  })
})
