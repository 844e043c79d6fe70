import { describe, expect, it } from 'vitest'
import { keyHint, redact } from './key-hint'

describe('keyHint', () => {
  it.each([
    ['sk-proj-abcdefghijklmnopqrstuvwxyza1b2', 'sk-…a1b2'],
    ['0123456789abcdef0123456789abcdef01234567', '012…4567'],
    ['abcdefghijklmnopqrst', '…qrst'],
    ['abcdefghij', '…ij'],
    ['abc1234', '…'],
    ['', '…'],
  ])('masks %j as %j', (key, hint) => {
    expect(keyHint(key)).toBe(hint)
  })

  it('never reveals more than 7 characters, nor more than a third of any key', () => {
    for (let n = 0; n <= 80; n++) {
      const key = 'x'.repeat(n)
      const shown = keyHint(key).replace('…', '').length
      expect(shown).toBeLessThanOrEqual(7)
      expect(shown).toBeLessThanOrEqual(Math.floor(n / 3))
    }
  })
})

describe('redact', () => {
  it('replaces the key and its URL-encoded form with the hint', () => {
    const key = 'AIzaSyA+bcdefghijklmnopqrstuvwxyz012345/'
    const text = `failed https://x.test/v1?key=${encodeURIComponent(key)} and ${key}`
    const out = redact(text, key)
    expect(out).not.toContain(key)
    expect(out).not.toContain(encodeURIComponent(key))
    expect(out).toContain(keyHint(key))
  })
})
