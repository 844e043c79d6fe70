import { describe, expect, it } from 'vitest'
import { parseLaxInt } from './lax-int'

// Expected values are what pydantic 2.13.4 (pydantic-core 2.46.4) answers for TypeAdapter(int).
describe('parseLaxInt', () => {
  it.each([
    ['42', 42n],
    ['-42', -42n],
    ['+42', 42n],
    [' 42 ', 42n],
    ['\t42\n', 42n],
    ['\u00a042', 42n],
    ['\u008542', 42n],
    ['042', 42n],
    ['-042', -42n],
    ['4_2', 42n],
    ['1_000_000', 1_000_000n],
    ['42.0', 42n],
    ['42.00', 42n],
    ['4_2.0', 42n],
    ['0', 0n],
    ['-0', 0n],
    ['00', 0n],
    ['0_0', 0n],
    ['0.0', 0n],
    ['99999999999999999999999', 99_999_999_999_999_999_999_999n],
  ])('reads %j as %s', (text, value) => {
    expect(parseLaxInt(text)).toBe(value)
  })

  it.each([
    '', ' ', '42.', '42.5', '1e3', '0x10', '4__2', '_42', '42_', '+-1', '--1', '-+1', '+ 1', '.0', '0_.0',
    // U+FEFF is trimmed by JavaScript's trim but is no Unicode White_Space, so Rust keeps it.
    '\ufeff42',
    '٤٢',
  ])('refuses %j as int_parsing', (text) => {
    expect(parseLaxInt(text)).toBe('int_parsing')
  })

  it('refuses more than 4300 digits as int_parsing_size, unless whitespace came first', () => {
    expect(parseLaxInt('1'.repeat(4300))).toBe(BigInt('1'.repeat(4300)))
    expect(parseLaxInt('1'.repeat(4301))).toBe('int_parsing_size')
    expect(parseLaxInt(` ${'1'.repeat(4301)}`)).toBe('int_parsing')
  })
})
