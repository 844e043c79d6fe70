import { afterEach, describe, expect, it } from 'vitest'
import { migratedDb } from '../../test/helpers/migrated-db'
import { IDS } from '../../test/helpers/rows'
import { callLogValues } from '../modules/call-logs/call-log-values'
import { beginBulkLoad, storeCallLogs } from '../modules/call-logs/call-logs.write.repo'
import { withSearchIndexRebuilt } from '../modules/database/pack.repo'
import type { DatabaseHandle } from './connection'
import { messageIndexTriggers } from './message-indexes'

/*
 * Both message indexes (words: call_logs_fts; substrings: call_logs_trigram) stay in step with the
 * messages on every path that writes them around the triggers.
 */

let handle: DatabaseHandle
afterEach(() => handle?.close())

const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`
const row = (n: number, message: string) => ({ id: uuid(n), tenant_id: IDS.tenant, log_type: 'llm', log_level: 'error', message, timestamp: `2026-11-01T10:00:0${n}.000Z` })

function insertRaw(h: DatabaseHandle) {
  const statement = h.sqlite.prepare('insert into call_logs (id, tenant_id, log_type, log_level, message, timestamp) values (?, ?, ?, ?, ?, ?)')
  return (r: ReturnType<typeof row>) => statement.run(r.id, r.tenant_id, r.log_type, r.log_level, r.message, r.timestamp).changes === 1
}

function check(h: DatabaseHandle) {
  for (const index of ['call_logs_fts', 'call_logs_trigram']) {
    h.sqlite.prepare(`insert into ${index}(${index}, rank) values ('integrity-check', 1)`).run()
  }
  const substring = (text: string) => h.sqlite.prepare("select rowid from call_logs_trigram where call_logs_trigram match ? order by rowid").pluck().all(`"${text}"`)
  const word = (text: string) => h.sqlite.prepare("select rowid from call_logs_fts where call_logs_fts match ? order by rowid").pluck().all(`"${text}"`)
  return { substring, word }
}

describe('message indexes', () => {
  it('are both fed by the triggers, batched imports and bulk loads', async () => {
    handle = await migratedDb()
    expect(messageIndexTriggers(handle.sqlite).map((t) => t.name).sort()).toEqual([
      'call_logs_fts_delete', 'call_logs_fts_insert', 'call_logs_fts_update',
      'call_logs_trigram_delete', 'call_logs_trigram_insert', 'call_logs_trigram_update',
    ])
    const insert = insertRaw(handle)
    insert(row(1, 'groq timeout after 2 attempts'))
    storeCallLogs(handle.sqlite, (values) => handle.sqlite.prepare('insert into call_logs (id, tenant_id, log_type, log_level, message, timestamp) values (?, ?, ?, ?, ?, ?)').run(...values.slice(0, 6)).changes === 1, [callLogValues(row(2, 'Rate limit reached'))])
    const bulk = beginBulkLoad(handle.sqlite)
    insert(row(3, 'webhook timed out'))
    bulk.indexMessages()
    insert(row(4, 'second timeout in bulk'))
    bulk.finish()
    // The triggers are back after both.
    expect(messageIndexTriggers(handle.sqlite, 'insert')).toHaveLength(2)
    const { substring, word } = check(handle)
    expect(substring('imeout')).toEqual([1, 4])
    expect(substring('imit rea')).toEqual([2])
    expect(word('timed')).toEqual([3])
    handle.sqlite.prepare('update call_logs set message = ? where seq = 1').run('all good')
    handle.sqlite.prepare('delete from call_logs where seq = 4').run()
    expect(check(handle).substring('imeout')).toEqual([])
  })

  it('forget a redacted pack\'s original words: both are rebuilt after the rewrite', async () => {
    handle = await migratedDb()
    insertRaw(handle)(row(1, 'call from Jonathan Smithers failed'))
    withSearchIndexRebuilt(handle.sqlite, () => handle.sqlite.prepare("update call_logs set message = 'call from Person 1a2b failed'").run())
    const { substring, word } = check(handle)
    expect(substring('Smither')).toEqual([])
    expect(word('Jonathan')).toEqual([])
    expect(substring('Person 1a2')).toEqual([1])
    expect(messageIndexTriggers(handle.sqlite)).toHaveLength(6)
  })
})
