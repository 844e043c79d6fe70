import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { callLogFilterSchema } from '../../../src-shared/schemas/call-log-search'
import type { DatabaseHandle } from '../../db/connection'
import { migratedDb } from '../../../test/helpers/migrated-db'
import { IDS, insert, rows } from '../../../test/helpers/rows'
import type { Principal } from '../../kit/access'
import { exportStream } from './call-logs.export'
import { csvField, EXPORT_COLUMNS } from './call-logs.lines'
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
  read(exportStream(handle.db, handle.sqlite, p, callLogFilterSchema.parse(f), format))

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
  })
})
