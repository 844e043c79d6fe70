import { describe, expect, it } from 'vitest'
import { parseLaxDateTime } from './lax-datetime'

// Expected values are what pydantic 2.13.4 (pydantic-core 2.46.4) answers for TypeAdapter(datetime),
// a naive result read as UTC.
const read = (text: string): string => {
  const r = parseLaxDateTime(text)
  if ('problem' in r) return `${r.type}: ${r.problem}`
  return `${new Date(r.ms).toISOString()}${r.extraMicros ? ` +${r.extraMicros}µs` : ''}${r.dateOnly ? ' (date)' : ''}`
}

describe('parseLaxDateTime reads', () => {
  it.each([
    ['2026-11-01', '2026-11-01T00:00:00.000Z (date)'],
    ['2024-02-29', '2024-02-29T00:00:00.000Z (date)'],
    ['2026-11-01T10:00:00Z', '2026-11-01T10:00:00.000Z'],
    ['2026-11-01t10:00:00z', '2026-11-01T10:00:00.000Z'],
    ['2026-11-01 10:00', '2026-11-01T10:00:00.000Z'],
    ['2026-11-01_10:00:00', '2026-11-01T10:00:00.000Z'],
    ['2026-11-01T10:00Z', '2026-11-01T10:00:00.000Z'],
    ['2026-11-01T10:00:00.123456789+05:30', '2026-11-01T04:30:00.123Z +456µs'],
    ['2026-11-01T10:00:00,5-0130', '2026-11-01T11:30:00.500Z'],
    ['2026-11-01T10:00:00\u221202:00', '2026-11-01T12:00:00.000Z'],
    ['2026-11-01T10:00:00+23:59', '2026-10-31T10:01:00.000Z'],
    ['0001-01-01T00:00:00+01:00', '0000-12-31T23:00:00.000Z'],
    ['1700000000', '2023-11-14T22:13:20.000Z'],
    ['+1700000000', '2023-11-14T22:13:20.000Z'],
    ['1700000000000', '2023-11-14T22:13:20.000Z'],
    ['1700000000.5', '2023-11-14T22:13:20.500Z'],
    ['1.7e9', '2023-11-14T22:13:20.000Z'],
    ['-1.5', '1969-12-31T23:59:58.500Z'],
    ['.5', '1970-01-01T00:00:00.500Z'],
    ['20000000000', '2603-10-11T11:33:20.000Z'],
    ['20000000001', '1970-08-20T11:33:20.001Z'],
    ['2026', '1970-01-01T00:33:46.000Z'],
    ['253402300800', '1978-01-11T21:31:40.800Z'],
    ['253402300799999', '9999-12-31T23:59:59.999Z'],
    // speedate divides a decimal past 2e10 by 1000, then infers the unit of the seconds again.
    ['25000000000000.5', '1970-10-17T08:26:40.000Z +500µs'],
  ])('%j as %s', (text, expected) => {
    expect(read(text)).toBe(expected)
  })
})

describe('parseLaxDateTime refuses, with the date reading\'s reason', () => {
  it.each([
    ['', 'input is too short'],
    ['yesterday', 'input is too short'],
    ['2026/11/01', 'invalid date separator, expected `-`'],
    [' 2026-11-01', 'invalid character in year'],
    ['2026-1x-01', 'invalid character in month'],
    ['2026-13-01', 'month value is outside expected range of 1-12'],
    ['2026-02-29', 'day value is outside expected range'],
    ['2026-11-01T24:00:00', 'unexpected extra characters at the end of the input'],
    ['2026-11-01T23:59:60', 'unexpected extra characters at the end of the input'],
    ['2026-11-01T10:00:00+02', 'unexpected extra characters at the end of the input'],
    ['2026-11-01T10:00:00+24:00', 'unexpected extra characters at the end of the input'],
    ['2026-11-01T10:00:00 02:00', 'unexpected extra characters at the end of the input'],
    ['2026-11-01T10:00:00.Z', 'unexpected extra characters at the end of the input'],
    ['253402300800000', 'dates after 9999 are not supported as unix timestamps'],
    ['-62167219201000', 'dates before 0000 are not supported as unix timestamps'],
    ['-9223372036854775808', 'invalid character in year'],
    ['99999999999999999999.5', 'invalid date separator, expected `-`'],
  ])('%j: %s', (text, problem) => {
    expect(read(text)).toBe(`datetime_from_date_parsing: ${problem}`)
  })

  it.each(['0000-01-01', '0000-06-01T10:00:00Z', '-62135596801000'])('%j as datetime_parsing: Python has no year 0', (text) => {
    expect(read(text)).toBe('datetime_parsing: year 0 is out of range')
  })

  it('refuses a number that speedate wraps back into range, where pydantic reads 2^64 + 1 as 1 s', () => {
    expect(read('18446744073709551617')).toBe('datetime_from_date_parsing: invalid date separator, expected `-`')
  })
})
