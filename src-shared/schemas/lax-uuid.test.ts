import { describe, expect, it } from 'vitest'
import { canonicalUuid, uuidProblem } from './lax-uuid'

// Expected values are what pydantic 2.13.4 (pydantic-core 2.46.4) answers for TypeAdapter(UUID).
const ID = '550e8400-e29b-41d4-a716-446655440000'

describe('canonicalUuid', () => {
  it.each([
    [ID, ID],
    [ID.toUpperCase(), ID],
    ['550E8400-e29b-41D4-A716-446655440000', ID],
    [ID.replaceAll('-', ''), ID],
    [ID.replaceAll('-', '').toUpperCase(), ID],
    [`{${ID}}`, ID],
    [`{${ID.toUpperCase()}}`, ID],
    [`urn:uuid:${ID}`, ID],
    ['11111111-1111-1111-1111-111111111111', '11111111-1111-1111-1111-111111111111'],
    ['00000000-0000-0000-0000-000000000000', '00000000-0000-0000-0000-000000000000'],
  ])('reads %s as %s', (text, canonical) => {
    expect(canonicalUuid(text)).toBe(canonical)
  })

  it.each([`URN:UUID:${ID}`, `{${ID.replaceAll('-', '')}}`, `urn:uuid:${ID.replaceAll('-', '')}`, ` ${ID}`, `${ID} `, `{${ID}`, '', 'g'.repeat(32)])(
    'refuses %j',
    (text) => {
      expect(canonicalUuid(text)).toBeNull()
    },
  )
})

describe('uuidProblem words refusals as the uuid crate does', () => {
  it.each([
    ['', 'invalid length: expected length 32 for simple format, found 0'],
    ['1234', 'invalid length: expected length 32 for simple format, found 4'],
    ['not-a-uuid', 'invalid character: found `n` at 1'],
    [`URN:UUID:${ID}`, 'invalid character: found `U` at 1'],
    [` ${ID}`, 'invalid character: found ` ` at 1'],
    [`${ID}}`, 'invalid character: found `}` at 37'],
    [`urn:uuid:{${ID}}`, 'invalid character: found `{` at 10'],
    ['é', 'invalid character: found `é` at 1'],
    [`${ID.slice(0, 35)}€`, 'invalid character: found `€` at 36'],
    [`{${ID.replaceAll('-', '')}}`, 'invalid group count: expected 5, found 1'],
    ['550e8400-e29b41d4-a716-446655440000', 'invalid group count: expected 5, found 4'],
    ['550e840-0e29b-41d4-a716-446655440000', 'invalid group length in group 0: expected 8, found 7'],
    ['550e8400-e29b-41d4-a716-44665544000', 'invalid group length in group 4: expected 12, found 11'],
    // 38 bytes in braces: the crate parses, and explains, only what is inside them.
    ['{550e8400-e29b-41dg-a716-446655440000}', 'invalid character: found `g` at 18'],
    // Any other length: the whole text, braces counted in positions and in the last group.
    ['{550e8400-e29b-41d4-a716-4466554400}', 'invalid group length in group 4: expected 12, found 12'],
    ['{5€0e8400-e29b-41d4-a716-446655440000}', 'invalid character: found `€` at 3'],
  ])('%j: %s', (text, problem) => {
    expect(uuidProblem(text)).toBe(problem)
  })
})
