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
      { log_type: `a${'b'.repeat(99)}` },
      { log_type: 'stt.provider_error2' },
      // Log types are open strings (issue 15): what real backends send.
      { log_type: 'Call Started' },
      { log_type: 'LLM-Error' },
      { log_type: 'نوع' },
      ...['DEBUG', 'Info', 'warning', 'ERROR', 'critical', 'WARN', 'fatal', 'err', 'Trace', 40, '25'].map((log_level) => ({ log_level })),
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
      { log_type: `a${'b'.repeat(100)}` },
      { log_level: 'loud' },
      { log_level: '' },
      { log_level: -10 },
      { details: [1, 2] },
      { details: 'text' },
      { details: 7 },
    ]
    for (const o of refused) expect(checkCallLog(withId(o)), JSON.stringify(o)).toHaveProperty('reason')
    // The store sees the level after it was read; an unreadable one reaches it as sent.
    for (const o of refused.filter((r) => !('details' in r))) {
      const values = callLogValues({ ...withId(o), log_level: String(o.log_level ?? 'error'), details: '{}' } as never)
      expect(() => prepareCallLogInsert(handle.db, handle.sqlite, { import_id: 'test' })(values), JSON.stringify(o)).toThrow(/CHECK constraint failed/)
    }
  })
})

describe('checkCallLog on values real backends send', () => {
  it('reads levels in any spelling into the five, and keeps the spelling when it differs', () => {
    const cases: Array<[unknown, string, string | null]> = [
      ['error', 'error', null],
      ['ERROR', 'error', 'ERROR'],
      ['WARN', 'warning', 'WARN'],
      ['warn', 'warning', 'warn'],
      ['fatal', 'critical', 'fatal'],
      ['err', 'error', 'err'],
      ['notice', 'info', 'notice'],
      ['trace', 'debug', 'trace'],
      [10, 'debug', '10'],
      [20, 'info', '20'],
      [30, 'warning', '30'],
      [40, 'error', '40'],
      [50, 'critical', '50'],
      [25, 'info', '25'],
      [60, 'critical', '60'],
      ['40', 'error', '40'],
    ]
    for (const [sent, level, original] of cases) {
      const checked = checkCallLog(withId({ log_level: sent }))
      expect(checked, JSON.stringify(sent)).toMatchObject({ row: { log_level: level, log_level_original: original } })
    }
  })

  it('takes UUIDs of any version and case, stored lower-case', () => {
    const checked = checkCallLog(withId({ tenant_id: 'ABCDEF01-2345-6789-ABCD-EF0123456789', agent_id: '00000000-0000-0000-0000-00000000000A' }))
    expect(checked).toMatchObject({ row: { tenant_id: 'abcdef01-2345-6789-abcd-ef0123456789', agent_id: '00000000-0000-0000-0000-00000000000a' } })
  })

  it('says of a refused value its field, the value and the rule', () => {
    expect(checkCallLog(withId({ log_level: 'loud' }))).toEqual({ reason: expect.stringMatching(/^log_level: must be a log level: debug, info, .* \(got "loud"\)$/) })
    expect(checkCallLog(withId({ tenant_id: 'acme' }))).toEqual({ reason: 'tenant_id: must be a UUID, 8-4-4-4-12 hexadecimal digits (got "acme")' })
    expect(checkCallLog(withId({ log_type: '' }))).toEqual({ reason: 'log_type: must not be empty (got "")' })
    expect(checkCallLog(withId({ timestamp: 'yesterday' }))).toEqual({ reason: 'timestamp: must be an ISO 8601 date-time (got "yesterday")' })
  })
})
