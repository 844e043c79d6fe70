import { randomBytes } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { introducedNames, namesInJson, notPeopleFrom, userIdsInJson } from './person-names'
import { createPseudonyms } from './pseudonyms'
import { createKnownValues, createScrubber, scrubJsonText } from './text-scrubber'

function setup() {
  const p = createPseudonyms(randomBytes(32))
  const known = createKnownValues()
  return { p, known, scrub: createScrubber(p, known) }
}

describe('text scrubber', () => {
  it('replaces e-mail addresses and phone numbers in the forms people write them', () => {
    const { p, scrub } = setup()
    expect(scrub('Mail maria.lopez@example.com or call +1 (555) 867-5309.')).toBe(
      `Mail ${p.email('maria.lopez@example.com')} or call ${p.phone('+15558675309')}.`,
    )
    expect(scrub('Inbound call from +34612345678 to +44 20 7946 0958')).toBe(`Inbound call from ${p.phone('+34612345678')} to ${p.phone('+442079460958')}`)
    expect(scrub('or (555) 867-5309, or 555.867.5309')).toBe(`or ${p.phone('5558675309')}, or ${p.phone('5558675309')}`)
  })

  it('leaves dates, times, amounts, order numbers, ids and addresses alone', () => {
    const { scrub } = setup()
    const text = 'Order 8742891 on 2026-11-20 at 13:15, ref OXL-940896, €42.50, trace 4f1c2a, host 198.51.100.15:5060, v1.2.3'
    expect(scrub(text)).toBe(text)
  })

  it('replaces known values as whole words only, the longest first', () => {
    const { p, known, scrub } = setup()
    known.add('Maria', 'name')
    known.add('Maria Lopez', 'name')
    known.add('usr_k3J9aPq0Zx', 'user')
    known.add('15558675309', 'phone')
    expect(scrub("Thanks, Maria Lopez! Maria's fine; Mariana and maria are not.")).toBe(
      `Thanks, ${p.name('Maria Lopez')}! ${p.name('Maria')}'s fine; Mariana and maria are not.`,
    )
    expect(scrub('webrtc:usr_k3J9aPq0Zx, usr_k3J9aPq0Zx2')).toBe(`webrtc:${p.userId('usr_k3J9aPq0Zx')}, usr_k3J9aPq0Zx2`)
    expect(scrub('sip:15558675309@trunk')).toBe(`sip:${p.phone('+15558675309')}@trunk`)
  })

  it('scrubs the strings of JSON and keeps everything else byte for byte', () => {
    const { p, known, scrub } = setup()
    known.add('Carmen Jiménez', 'name')
    const json = '{"patient_name":"Carmen Jim\\u00e9nez","phone":"+34612345678","n":12345678901234567890,"x":1.50,"list":["a\\"b"]}'
    const out = scrubJsonText(json, scrub)
    expect(out).toBe(`{"patient_name":"${p.name('Carmen Jiménez')}","phone":"${p.phone('+34612345678')}","n":12345678901234567890,"x":1.50,"list":["a\\"b"]}`)
    expect(() => JSON.parse(out)).not.toThrow()
  })
})

describe('person names', () => {
  it('finds names under person-naming JSON keys, not under others', () => {
    expect(namesInJson('{"patient_name":"Carmen Jiménez","name":"lookup_order","account_manager":"Daniel Moore","customer_name":"+15558675309"}')).toEqual([
      'Carmen Jiménez',
      'Daniel Moore',
    ])
    expect(userIdsInJson('{"user_id":"usr_1","userId":"u-2","other":"x"}')).toEqual(['usr_1', 'u-2'])
  })

  it('finds names people introduce, in the languages of the demo corpus, and skips agents and tenants', () => {
    const notPeople = notPeopleFrom(['Aria · Reception', 'Northwind Health'])
    expect(introducedNames('Hi, this is Aria from Northwind Health. Hello, my name is Maria Lopez and I need help.', notPeople)).toEqual(['Maria Lopez'])
    expect(introducedNames('Bonjour, je m’appelle Élodie Martin. Hola, me llamo Carmen. Ich heiße Jürgen.', notPeople)).toEqual(['Élodie Martin', 'Carmen', 'Jürgen'])
    expect(introducedNames('this is Northwind Health calling; this is great', notPeople)).toEqual([])
  })
})
