import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { DatabaseHandle } from '../../db/connection'
import { migratedDb } from '../../../test/helpers/migrated-db'
import { insert, rows } from '../../../test/helpers/rows'
import { checkCallLog } from '../call-logs/call-log-record'
import { pushedLine } from './push-record'
import { callLogCountsBySource, callLogPage, callLogPageQuery } from './push.repo'

const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`
const STAGING = 'http://staging.example.com:8000'

let handle: DatabaseHandle
beforeEach(async () => {
  handle = await migratedDb()
  // Interleaved sources, timestamps out of insertion order: a page follows insertion (seq) only.
  for (let n = 1; n <= 9; n++) {
    insert(handle, 'call_logs', rows.callLog({ id: uuid(n), source: n % 3 === 0 ? STAGING : '', timestamp: `2026-11-01T10:00:0${9 - n}.000Z`, message: `line ${n}` }))
  }
})
afterEach(() => handle.close())

describe('what push reads of a store', () => {
  it('counts call logs per source, local first, or of one source', async () => {
    expect(await callLogCountsBySource(handle.db)).toEqual([{ source: '', count: 6 }, { source: STAGING, count: 3 }])
    expect(await callLogCountsBySource(handle.db, STAGING)).toEqual([{ source: STAGING, count: 3 }])
    expect(await callLogCountsBySource(handle.db, 'http://never.example')).toEqual([])
  })

  it('pages through one source in insertion order, from after a seq', async () => {
    const first = await callLogPage(handle.db, '', 0, 4)
    expect(first.map((r) => r.id)).toEqual([1, 2, 4, 5].map(uuid))
    const rest = await callLogPage(handle.db, '', first.at(-1)!.seq, 4)
    expect(rest.map((r) => r.id)).toEqual([7, 8].map(uuid))
    expect(await callLogPage(handle.db, '', rest.at(-1)!.seq, 4)).toEqual([])
    expect((await callLogPage(handle.db, STAGING, 0, 10)).map((r) => r.id)).toEqual([3, 6, 9].map(uuid))
  })

  it('reads a page as a range of the primary key, whatever the source (EXPLAIN QUERY PLAN)', () => {
    const compiled = callLogPageQuery(handle.db, '', 0, 1000).compile()
    const plan = handle.sqlite.prepare(`explain query plan ${compiled.sql}`).all(...(compiled.parameters as unknown[])).map((r) => (r as { detail: string }).detail).join(' | ')
    expect(plan).toMatch(/^SEARCH call_logs USING INTEGER PRIMARY KEY \(rowid>\?\)$/)
  })

  it('writes a row as the line an import reads back into the same row, the level as first spelled', async () => {
    insert(handle, 'call_logs', rows.callLog({ id: uuid(20), log_level: 'warning', log_level_original: 'WARN', details: '{\n  "a": [1, 2.5, "x\\ny"],\n  "b": null\n}', user_id: 'u1' }))
    const [row] = await handle.db.selectFrom('call_logs').selectAll().where('id', '=', uuid(20)).execute()
    const line = pushedLine(row!)
    expect(line.endsWith('\n')).toBe(true)
    expect(line.slice(0, -1)).not.toMatch(/[\r\n]/)
    const back = checkCallLog(JSON.parse(line))
    if (!('row' in back)) throw new Error(back.reason)
    expect(back.row).toMatchObject({ id: uuid(20), log_level: 'warning', log_level_original: 'WARN', user_id: 'u1', message: row!.message, timestamp: row!.timestamp })
    expect(JSON.parse(back.row.details ?? '')).toEqual({ a: [1, 2.5, 'x\ny'], b: null })
  })
})
