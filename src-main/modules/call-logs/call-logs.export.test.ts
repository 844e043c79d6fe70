import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { callLogFilterSchema } from '../../../src-shared/schemas/call-log-search'
import type { DatabaseHandle } from '../../db/connection'
import { migratedDb } from '../../../test/helpers/migrated-db'
import { IDS, insert, rows } from '../../../test/helpers/rows'
import type { Principal } from '../../kit/access'
import { exportStream } from './call-logs.export'
import { toCallLog } from './call-log-row'
import { csvField, csvFieldValue, csvHeader, csvLine, EXPORT_COLUMNS } from './call-logs.lines'
import { toFtsQuery } from './fts-query'

const admin: Principal = { role: 'admin', tenantId: null, tokenId: null }
const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`
let handle: DatabaseHandle

/** A minimal RFC 4180 reader, to prove the file round-trips. */
function parseCsv(text: string): string[][] {
  const out: string[][] = []
  let row: string[] = []
  let field = ''
  let quoted = false
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') (field += '"'), i++
      else if (ch === '"') quoted = false
      else field += ch
    } else if (ch === '"') quoted = true
    else if (ch === ',') row.push(field), (field = '')
    else if (ch === '\r' && text[i + 1] === '\n') row.push(field), out.push(row), (row = []), (field = ''), i++
    else field += ch
  }
  return out
}

const read = (stream: ReadableStream<Uint8Array>) => new Response(stream).text()
const exportAs = (format: 'csv' | 'ndjson', f = {}, p: Principal = admin) =>
  read(exportStream(handle.db, handle.json, p, callLogFilterSchema.parse(f), format))

const TRICKY = 'a, "quoted" value\nsecond line\r\nthird — 日本語 مرحبا 🎧'

beforeEach(async () => {
  handle = await migratedDb()
  insert(handle, 'call_logs', rows.callLog({ id: uuid(1), message: TRICKY, details: '{"k":"v, \\"x\\""}', trace_id: 'tr', timestamp: '2026-11-01T10:00:00.000Z' }))
  insert(handle, 'call_logs', rows.callLog({ id: uuid(2), message: '=cmd|x', log_level: 'error', timestamp: '2026-11-01T10:01:00.000Z' }))
  insert(handle, 'call_logs', rows.callLog({ id: uuid(3), message: 'other tenant', tenant_id: IDS.otherTenant, timestamp: '2026-11-01T10:02:00.000Z' }))
})
afterEach(() => handle.close())

describe('CSV export', () => {
  it('quotes commas, quotes and newlines and keeps unicode', async () => {
    expect(csvField('plain')).toBe('plain')
    expect(csvField('a,b')).toBe('"a,b"')
    expect(csvField('say "hi"')).toBe('"say ""hi"""')
    expect(csvField('a\nb')).toBe('"a\nb"')
    expect(csvField(null)).toBe('')
    const text = await exportAs('csv')
    const table = parseCsv(text)
    expect(table[0]).toEqual([...EXPORT_COLUMNS])
    expect(table).toHaveLength(4)
    const tricky = table.find((r) => r[0] === uuid(1))!
    expect(tricky[4]).toBe(TRICKY)
    expect(JSON.parse(tricky[9]!)).toEqual({ k: 'v, "x"' })
    expect(tricky[6]).toBe('') // null agent_id
  })

  it('neutralises each formula trigger with an apostrophe, always quoted', () => {
    expect(csvField('=1+1')).toBe(`"'=1+1"`)
    expect(csvField('+1')).toBe(`"'+1"`)
    expect(csvField('-2')).toBe(`"'-2"`)
    expect(csvField('-5 degrees')).toBe(`"'-5 degrees"`)
    expect(csvField('@SUM(A1)')).toBe(`"'@SUM(A1)"`)
    expect(csvField('\tTab')).toBe(`"'\tTab"`)
    expect(csvField('\rCR')).toBe(`"'\rCR"`)
    expect(csvField('=HYPERLINK("http://x","click")')).toBe(`"'=HYPERLINK(""http://x"",""click"")"`)
    expect(csvField('=a,b\nc')).toBe(`"'=a,b\nc"`)
  })

  it('escapes a value that already starts with apostrophes and a trigger once more', () => {
    expect(csvField("'=already")).toBe(`"''=already"`)
    expect(csvField("''-1")).toBe(`"'''-1"`)
  })

  it('leaves ordinary values as RFC 4180 has them, a trigger inside or an apostrophe first included', () => {
    for (const plain of ['plain', 'a=b', 'x+1', "it's", "'quoted'", "'", "'a=b", 'e-mail', ' =not first', '']) expect(csvField(plain)).toBe(plain)
    expect(csvField("'x, y")).toBe(`"'x, y"`)
    expect(csvField({ note: '=x' })).toBe('"{""note"":""=x""}"')
    expect(csvField(-3)).toBe(`"'-3"`)
  })

  it('reads back every encoded value as itself (csvFieldValue after an RFC 4180 reader)', () => {
    const values = [
      '=HYPERLINK("http://x","click")', '+1', '-2', '@SUM(A1)', '\tTab', '\rCR', "'=already", "''=twice", "'''+thrice",
      "'", "''", "'hello", "it's", 'plain', 'a,b', 'say "hi"', 'a\nb', '', '=', "'=",
    ]
    for (const value of values) {
      const [[field]] = parseCsv(`${csvField(value)}\r\n`) as [[string]]
      expect(csvFieldValue(field)).toBe(value)
    }
  })

  it('removes exactly one apostrophe, and only before a trigger', () => {
    expect(csvFieldValue("'=x")).toBe('=x')
    expect(csvFieldValue("'+1")).toBe('+1')
    expect(csvFieldValue("'-2")).toBe('-2')
    expect(csvFieldValue("'@a")).toBe('@a')
    expect(csvFieldValue("'\tTab")).toBe('\tTab')
    expect(csvFieldValue("'\rCR")).toBe('\rCR')
    expect(csvFieldValue("''=x")).toBe("'=x")
    expect(csvFieldValue("'''=x")).toBe("''=x")
    for (const same of ["'hello", "'", "''", "'a=b", '=x', 'plain', '']) expect(csvFieldValue(same)).toBe(same)
  })

  it('writes a stored formula-like message neutralised', async () => {
    const table = parseCsv(await exportAs('csv', { levels: ['error'] }))
    expect(table[1]![4]).toBe("'=cmd|x")
    expect(await exportAs('csv', { levels: ['error'] })).toContain(`,"'=cmd|x",`)
  })

  it('writes each stored line as csvField does, every rule and every column (the lines are built in SQL)', async () => {
    const values = ['=1+1', '+1', '-2', '@SUM(A1)', '\tTab', '\rCR', '=HYPERLINK("http://x","click")', '=a,b\nc', "'=already", "''-1",
      'plain', 'a=b', "it's", "'", "''", "'a=b", 'e-mail', ' =not first', '', "'x, y", 'say "hi"', 'a\nb', 'a\rb', TRICKY, '🎧 = مرحبا']
    values.forEach((value, i) =>
      insert(handle, 'call_logs', rows.callLog({
        id: uuid(100 + i), message: value, trace_id: value, user_id: i % 2 ? null : value, request_id: `r${i}`,
        details: JSON.stringify({ value, n: -i }), timestamp: `2026-10-01T10:${String(i).padStart(2, '0')}:00.000Z`,
      })),
    )
    const stored = await handle.db.selectFrom('call_logs').selectAll().orderBy('timestamp', 'desc').orderBy('seq', 'desc').execute()
    const expected = csvHeader() + stored.map((row) => csvLine(toCallLog(row))).join('')
    expect(await exportAs('csv')).toBe(expected)
  })

  it('applies the filter and the tenant scope', async () => {
    expect(parseCsv(await exportAs('csv', { levels: ['error'] })).map((r) => r[0])).toEqual(['id', uuid(2)])
    const tenant: Principal = { role: 'tenant', tenantId: IDS.otherTenant, tokenId: 'k' }
    expect(parseCsv(await exportAs('csv', {}, tenant)).map((r) => r[0])).toEqual(['id', uuid(3)])
  })
})

describe('NDJSON export', () => {
  it('writes one API record per line', async () => {
    const lines = (await exportAs('ndjson')).split('\n')
    expect(lines.pop()).toBe('')
    const records = lines.map((l) => JSON.parse(l) as Record<string, unknown>)
    expect(records.map((r) => r.id)).toEqual([uuid(3), uuid(2), uuid(1)])
    expect(records[2]).toMatchObject({ message: TRICKY, details: { k: 'v, "x"' }, agent_id: null, trace_id: 'tr' })
    expect(Object.keys(records[0]!)).toEqual([...EXPORT_COLUMNS])
  })

  it('streams past one chunk without loss or repeats', async () => {
    const insertMany = handle.sqlite.transaction(() => {
      for (let i = 10; i < 4510; i++) {
        insert(handle, 'call_logs', rows.callLog({ id: uuid(i), message: `bulk ${i}`, timestamp: `2026-11-02T00:00:${String(i % 60).padStart(2, '0')}.000Z` }))
      }
    })
    insertMany()
    const ids = (await exportAs('ndjson', { q: 'bulk' })).trim().split('\n').map((l) => (JSON.parse(l) as { id: string }).id)
    expect(ids).toHaveLength(4500)
    expect(new Set(ids).size).toBe(4500)
  })

  it('is empty for a search with nothing searchable', async () => {
    expect(await exportAs('ndjson', { q: '""' })).toBe('')
    expect(await exportAs('csv', { q: '""' })).toBe(`${EXPORT_COLUMNS.join(',')}\r\n`)
  })
})

describe('toFtsQuery', () => {
  it('quotes every term and keeps phrases and prefixes', () => {
    expect(toFtsQuery('llm timeout')).toBe('"llm" "timeout"')
    expect(toFtsQuery('trans*')).toBe('"trans"*')
    expect(toFtsQuery('"caller hung" up')).toBe('"caller hung" "up"')
    expect(toFtsQuery('a OR b NOT c')).toBe('"a" "OR" "b" "NOT" "c"')
    expect(toFtsQuery('say"hi"')).toBe('"say""hi"""')
    expect(toFtsQuery('"open')).toBe('"open"')
    expect(toFtsQuery('* - ( )')).toBeNull()
    // SQLite would stop reading the query at a NUL; the tokenizer splits on it, as on a space.
    expect(toFtsQuery('a\u0000b')).toBe('"a b"')
  })
})
