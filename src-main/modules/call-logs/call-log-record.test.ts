import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { migratedDb } from '../../../test/helpers/migrated-db'
import type { DatabaseHandle } from '../../db/connection'
import { checkCallLog } from './call-log-record'
import { callLogValues } from './call-log-values'
import { prepareCallLogInsert } from './call-logs.write.repo'

/*
 * Imports write with the table's CHECK constraints off (withCheckConstraintsOff): that is only
 * sound while every row checkCallLog accepts passes them and every row they refuse, it refuses.
 */
const base = {
  id: '00000000-0000-4000-8000-000000000001',
  tenant_id: '11111111-1111-4111-8111-111111111111',
  log_type: 'llm',
  log_level: 'error',
  message: 'LLM timeout',
  timestamp: '2026-11-01T10:00:00.000Z',
  details: { attempt: 1 },
}

let handle: DatabaseHandle
beforeEach(async () => {
  handle = await migratedDb()
})
afterEach(() => handle.close())

let n = 0
const withId = (o: Record<string, unknown>) => ({ ...base, ...o, id: `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}` })

describe('checkCallLog and the call_logs CHECK constraints', () => {
  it('accepts only rows the constraints accept, at their edges too', () => {
    const insert = prepareCallLogInsert(handle.db, handle.sqlite, { import_id: 'test' })
    const accepted = [
      { log_type: 'a' },
      { log_type: `a${'b'.repeat(49)}` },
      { log_type: 'stt.provider_error2' },
      ...['DEBUG', 'Info', 'warning', 'ERROR', 'critical'].map((log_level) => ({ log_level })),
      { details: {} },
      { details: { nested: { list: [1, 'two', null], deep: { x: true } }, quote: '"{' } },
      { message: '' },
      { timestamp: '2026-11-01T12:00:00+02:00' },
    ]
    for (const o of accepted) {
      const checked = checkCallLog(withId(o))
      if (!('row' in checked)) throw new Error(`refused ${JSON.stringify(o)}: ${checked.reason}`)
      // The checks are on here: a row the importer accepts must pass them.
      expect(insert(callLogValues(checked.row))).toBe(true)
    }
  })

  it('refuses every row a constraint would refuse', () => {
    const refused = [
      { log_type: '' },
      { log_type: `a${'b'.repeat(50)}` },
      { log_type: '1llm' },
      { log_type: 'llm-error' },
      { log_type: 'LLM' },
      { log_level: 'fatal' },
      { log_level: '' },
      { details: [1, 2] },
      { details: 'text' },
      { details: 7 },
    ]
    for (const o of refused) expect(checkCallLog(withId(o)), JSON.stringify(o)).toHaveProperty('reason')
    for (const o of refused.filter((r) => !('details' in r))) {
      const values = callLogValues({ ...withId(o), details: '{}' } as never)
      expect(() => prepareCallLogInsert(handle.db, handle.sqlite, { import_id: 'test' })(values), JSON.stringify(o)).toThrow(/CHECK constraint failed/)
    }
  })
})
