import { describe, expect, it } from 'vitest'
import { resolveTokenExpiry } from './token-lifetime'

const NOW = Date.parse('2026-11-22T10:00:00.000Z')
const at = (text: string) => resolveTokenExpiry(text, NOW)

describe('token lifetimes', () => {
  it.each([
    ['never', null],
    [' Never ', null],
    ['12h', '2026-11-22T22:00:00.000Z'],
    ['30d', '2026-12-22T10:00:00.000Z'],
    ['30D', '2026-12-22T10:00:00.000Z'],
    ['2w', '2026-12-06T10:00:00.000Z'],
    ['1y', '2027-11-22T10:00:00.000Z'],
    ['2027-01-31', '2027-01-31T00:00:00.000Z'],
    ['2027-01-31T09:30:00Z', '2027-01-31T09:30:00.000Z'],
    ['2027-01-31T09:30:00+02:00', '2027-01-31T07:30:00.000Z'],
    ['2027-01-31T09:30', '2027-01-31T09:30:00.000Z'],
    ['2027-01-31 09:30:15.5z', '2027-01-31T09:30:15.500Z'],
    ['2027-01-31T09:30:00-05:30', '2027-01-31T15:00:00.000Z'],
    ['2028-02-29', '2028-02-29T00:00:00.000Z'],
    ['9999-12-31', '9999-12-31T00:00:00.000Z'],
  ])('reads %j as expiring at %s', (text, expiresAt) => {
    expect(at(text)).toEqual({ expiresAt })
  })

  it.each([
    ['30', /Expected "never", a duration such as 12h/],
    ['30 days', /Expected "never"/],
    ['1.5d', /Expected "never"/],
    ['-1d', /Expected "never"/],
    ['1m', /Expected "never"/],
    ['', /Expected "never"/],
    ['2027-02-30', /Expected "never"/],
    ['2027-02-29', /Expected "never"/],
    ['2027-13-01', /Expected "never"/],
    ['2027-01-31T24:00', /Expected "never"/],
    ['2027-01-31T09:60', /Expected "never"/],
    ['2027-01-31T09:30+0200', /Expected "never"/],
    ['1700000000', /Expected "never"/],
    ['tomorrow', /Expected "never"/],
    ['0d', /at least 1d/],
    ['2026-11-22T10:00:00Z', /must be in the future/],
    ['2020-01-01', /must be in the future/],
    ['999999y', /latest possible expiry is 9999-12-31/],
  ])('refuses %j', (text, problem) => {
    const result = at(text)
    expect('problem' in result && result.problem).toMatch(problem)
  })

  it('counts a duration from the clock it is given', () => {
    expect(resolveTokenExpiry('1h', NOW + 1)).toEqual({ expiresAt: '2026-11-22T11:00:00.001Z' })
  })
})
