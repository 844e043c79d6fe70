import { describe, expect, it } from 'vitest'
import { splitDays } from './call-logs.day-combos'

describe('splitDays: a range as whole UTC days and the parts of days at its ends', () => {
  it('cuts both ends inside days', () => {
    expect(splitDays('2026-11-01T06:30:00.000Z', '2026-11-04T12:00:00.000Z')).toEqual({
      days: { first: '2026-11-02', last: '2026-11-03' },
      edges: [
        { from: '2026-11-01T06:30:00.000Z', to: '2026-11-01T23:59:59.999Z' },
        { from: '2026-11-04T00:00:00.000Z', to: '2026-11-04T12:00:00.000Z' },
      ],
    })
  })

  it('has no edge at a midnight start or a 23:59:59.999 end, and one at a midnight end (its first millisecond)', () => {
    expect(splitDays('2026-11-01T00:00:00.000Z', '2026-11-03T23:59:59.999Z')).toEqual({ days: { first: '2026-11-01', last: '2026-11-03' }, edges: [] })
    expect(splitDays('2026-11-01T00:00:00.000Z', '2026-11-03T00:00:00.000Z')).toEqual({
      days: { first: '2026-11-01', last: '2026-11-02' },
      edges: [{ from: '2026-11-03T00:00:00.000Z', to: '2026-11-03T00:00:00.000Z' }],
    })
  })

  it('leaves an open end open, and reads the whole store as days alone', () => {
    expect(splitDays('2026-11-01T00:00:00.001Z')).toEqual({ days: { first: '2026-11-02', last: undefined }, edges: [{ from: '2026-11-01T00:00:00.001Z', to: '2026-11-01T23:59:59.999Z' }] })
    expect(splitDays(undefined, '2026-11-01T10:00:00.000Z')).toEqual({ days: { first: undefined, last: '2026-10-31' }, edges: [{ from: '2026-11-01T00:00:00.000Z', to: '2026-11-01T10:00:00.000Z' }] })
    expect(splitDays()).toEqual({ days: { first: undefined, last: undefined }, edges: [] })
  })

  it('is null when no day is whole: inside one day, across one midnight, or reversed', () => {
    expect(splitDays('2026-11-01T01:00:00.000Z', '2026-11-01T02:00:00.000Z')).toBeNull()
    expect(splitDays('2026-11-01T12:00:00.000Z', '2026-11-02T12:00:00.000Z')).toBeNull()
    expect(splitDays('2026-11-05T00:00:00.000Z', '2026-11-01T00:00:00.000Z')).toBeNull()
  })
})
