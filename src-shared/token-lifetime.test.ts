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
  ])('reads %j as expiring at %s', (text, expiresAt) => {
    expect(at(text)).toEqual({ expiresAt })
  })

  it.each([
    ['30', /expected "never", a duration such as 12h/],
    ['30 days', /expected "never"/],
    ['1.5d', /expected "never"/],
    ['-1d', /expected "never"/],
    ['1m', /expected "never"/],
    ['', /expected "never"/],
    ['2027-02-30', /expected "never"/],
    ['tomorrow', /expected "never"/],
    ['0d', /at least 1d/],
    ['2026-11-22T10:00:00Z', /not in the future/],
    ['2020-01-01', /not in the future/],
    ['999999y', /too far ahead/],
  ])('refuses %j', (text, problem) => {
    const result = at(text)
    expect('problem' in result && result.problem).toMatch(problem)
  })

  it('counts a duration from the clock it is given', () => {
    expect(resolveTokenExpiry('1h', NOW + 1)).toEqual({ expiresAt: '2026-11-22T11:00:00.001Z' })
  })
})
