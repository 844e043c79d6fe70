import { randomBytes } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { createPseudonyms, isPhoneLike } from './pseudonyms'

describe('pseudonyms', () => {
  it('gives the same original the same stand-in, and different originals different ones', () => {
    const p = createPseudonyms(randomBytes(32))
    expect(p.phone('+34 612 345 678')).toBe(p.phone('+34612345678'))
    expect(p.email('Maria.Lopez@Example.com')).toBe(p.email('maria.lopez@example.com'))
    expect(p.name('Maria Lopez')).toBe(p.name('Maria Lopez'))
    expect(p.name('Maria Lopez')).not.toBe(p.name('Mario Lopez'))
    expect(p.counts()).toEqual({ phone: 1, email: 1, name: 2, user: 0, origin: 0 })
  })

  it('keeps each kind in its shape', () => {
    const p = createPseudonyms(randomBytes(32))
    expect(p.phone('+15558675309')).toMatch(/^\+1555\d{7}$/)
    expect(p.phone('+491701234567')).toMatch(/^\+1555\d{8}$/)
    expect(p.email('a@b.example')).toMatch(/^user-[0-9a-f]{8}@example\.invalid$/)
    expect(p.name('Carmen Jiménez')).toMatch(/^Person [0-9a-f]{4}$/)
    expect(p.userId('usr_k3J9aPq0Zx')).toMatch(/^usr_[0-9a-f]{10}$/)
    expect(p.userId('+15558675309')).toBe(p.phone('+1 555 867 5309'))
    expect(p.userId('someone@mail.example')).toBe(p.email('someone@mail.example'))
    expect(p.origin('https://backend.internal:8443')).toMatch(/^https:\/\/origin-[0-9a-f]{8}\.invalid$/)
  })

  it('differs from one pack key to another, so stand-ins cannot be looked up across packs', () => {
    const a = createPseudonyms(randomBytes(32))
    const b = createPseudonyms(randomBytes(32))
    const originals = ['Ann Smith', 'Bob Jones', 'Cy Young']
    expect(originals.map((o) => a.name(o))).not.toEqual(originals.map((o) => b.name(o)))
  })

  it('never gives two originals one stand-in, even when the short forms run out', () => {
    const p = createPseudonyms(randomBytes(32))
    // 12,000 eight-digit numbers and 10,000 stand-ins of eight digits (+1555 and four): collisions
    // are certain, and past 10,000 the stand-ins must grow a digit.
    const phones = Array.from({ length: 12_000 }, (_, i) => p.phone(`+${String(20_000_000 + i)}`))
    expect(new Set(phones).size).toBe(12_000)
    expect(phones.some((s) => s.length > '+15550000'.length)).toBe(true)
  })

  it('tells phone numbers from other digit strings', () => {
    expect(isPhoneLike('+1 (555) 867-5309')).toBe(true)
    expect(isPhoneLike('5558675309')).toBe(true)
    expect(isPhoneLike('12345')).toBe(false)
    expect(isPhoneLike('webrtc:usr_1')).toBe(false)
    expect(isPhoneLike('+1234567890123456')).toBe(false)
  })
})
