/**
 * Integer text read as pydantic v2's lax mode reads it (pydantic-core `str_as_int`, 2.41): first as
 * a JSON integer, then once more after `clean_int_str` has trimmed whitespace, dropped one leading
 * `+`, leading zeros, a fraction made only of zeros (`42.0`) and underscores between digits
 * (`1_000`). Anything else (`4.5`, `1e3`, `0x10`, `4__2`, `42.`) is refused.
 */

export type IntProblem = 'int_parsing' | 'int_parsing_size'

/** Longer digit runs are refused before parsing, as CPython limits int() (jiter's NumberOutOfRange). */
const MAX_DIGITS = 4300
const JSON_INT = /^-?(?:0|[1-9]\d*)$/
const DIGIT_RUN = /^-?[1-9]\d*/

/** Rust's `str::trim`: Unicode White_Space (JS `trim` also drops U+FEFF and keeps U+0085). */
const RUST_TRIM = /^[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+|[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+$/g

function jsonInt(text: string): bigint | 'invalid' | 'out_of_range' {
  if ((DIGIT_RUN.exec(text)?.[0].length ?? 0) > MAX_DIGITS) return 'out_of_range'
  return JSON_INT.test(text) ? BigInt(text) : 'invalid'
}

/** pydantic-core's `strip_leading_zeros`: keeps one zero before a `.` or when only zeros remain. */
function stripLeadingZeros(s: string): string | null {
  const first = s[0]
  if (first === undefined) return null
  if (first !== '0') return (first >= '1' && first <= '9') || first === '-' ? s : null
  for (let i = 1; i < s.length; i++) {
    const c = s[i]!
    if (c === '0' || c === '_') continue
    if ((c >= '1' && c <= '9') || c === '-') return s.slice(i)
    if (c === '.') return s.slice(i - 1)
    return null
  }
  return s.slice(-1)
}

/** Underscores only between digits, never doubled, as Python's int() allows them. */
function stripUnderscores(s: string): string | null {
  if (s.startsWith('_') || s.endsWith('_') || !s.includes('_') || s.includes('__')) return null
  return s.replaceAll('_', '')
}

/** pydantic-core's `clean_int_str`: null when nothing could be cleaned. */
function cleanIntText(text: string): string | null {
  let s = text.replace(RUST_TRIM, '')
  if (s.startsWith('+')) {
    if (s[1] === '-') return null
    s = s.slice(1)
  }
  const negative = s.startsWith('-')
  if (negative) {
    if (s[1] === '-' || s[1] === '+') return null
    s = s.slice(1)
  }
  const unpadded = stripLeadingZeros(s)
  if (unpadded === null) return null
  s = unpadded
  const dot = s.indexOf('.')
  if (dot >= 0 && /^0+$/.test(s.slice(dot + 1))) s = s.slice(0, dot)
  const joined = stripUnderscores(s)
  if (joined !== null) return negative ? `-${joined}` : joined
  if (s.length === text.length) return null
  return negative ? `-${s}` : s
}

/** The integer a text stands for, or the pydantic error type refusing it. */
export function parseLaxInt(text: string): bigint | IntProblem {
  const direct = jsonInt(text)
  if (typeof direct === 'bigint') return direct
  if (direct === 'out_of_range') return 'int_parsing_size'
  const cleaned = cleanIntText(text)
  const retried = cleaned === null ? 'invalid' : jsonInt(cleaned)
  return typeof retried === 'bigint' ? retried : 'int_parsing'
}

export const INT_PROBLEM_MESSAGES: Record<IntProblem, string> = {
  int_parsing: 'Input should be a valid integer, unable to parse string as an integer',
  int_parsing_size: 'Unable to parse input string as an integer, exceeded maximum size',
}
