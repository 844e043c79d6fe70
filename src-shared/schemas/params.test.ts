import { describe, expect, it } from 'vitest'
import { parseInstant } from './params'

/** What the store's own format means: the instant whose toISOString is the text itself. */
const isRealStoreInstant = (text: string) => {
  const ms = Date.parse(text)
  return !Number.isNaN(ms) && new Date(ms).toISOString() === text
}

describe('parseInstant on text already in the store format', () => {
  it('keeps exactly the real instants, as a round trip through Date would', () => {
    const texts = [
      '2024-02-29T12:00:00.000Z', '2023-02-29T12:00:00.000Z', '2000-02-29T00:00:00.000Z', '1900-02-29T00:00:00.000Z',
      '2026-04-30T23:59:59.999Z', '2026-04-31T00:00:00.000Z', '2026-12-31T23:59:59.999Z', '2026-13-01T00:00:00.000Z',
      '2026-00-10T00:00:00.000Z', '2026-01-00T00:00:00.000Z', '2026-01-32T00:00:00.000Z', '2026-01-01T23:60:00.000Z',
      '2026-01-01T23:59:60.000Z', '0001-01-01T00:00:00.000Z', '9999-12-31T23:59:59.999Z',
    ]
    // And a spread of random instants over the years the format can write.
    let seed = 7
    const random = () => (seed = (seed * 48271) % 2147483647) / 2147483647
    for (let i = 0; i < 2000; i++) texts.push(new Date(Date.UTC(1, 0, 1) + random() * (Date.UTC(9999, 11, 31) - Date.UTC(1, 0, 1))).toISOString())
    for (const text of texts) expect(parseInstant(text) === text, text).toBe(isRealStoreInstant(text))
  })

  it('normalises other offsets, refuses what is no instant', () => {
    expect(parseInstant('2026-01-01T24:00:00.000Z')).toBeNull()
    expect(parseInstant('2026-02-30T10:00:00.000Z')).toBeNull()
    expect(parseInstant('2026-11-01T10:00:00+02:00')).toBe('2026-11-01T08:00:00.000Z')
  })
})
