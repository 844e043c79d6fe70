/**
 * UUID text read as pydantic v2 reads it: pydantic-core's uuid validator hands the string to the
 * Rust uuid crate's `Uuid::parse_str` (1.18) and accepts any version and variant. Accepted: 32 hex
 * digits ("simple"), or 8-4-4-4-12 hyphenated, bare, in braces `{…}` or after a lower-case
 * `urn:uuid:`; hex digits in any case. Nothing is trimmed. Failures carry the crate's own wording.
 */

const SIMPLE = /^[0-9a-fA-F]{32}$/
const HYPHENATED = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/
const URN_PREFIX = 'urn:uuid:'

/** The 32 hex digits of the shapes `Uuid::parse_str` takes (chosen by length, as the crate does). */
function hexDigits(text: string): string | null {
  if (text.length === 32) return SIMPLE.test(text) ? text : null
  let hyphenated: string | null = null
  if (text.length === 36) hyphenated = text
  else if (text.length === 38 && text.startsWith('{') && text.endsWith('}')) hyphenated = text.slice(1, -1)
  else if (text.length === 45 && text.startsWith(URN_PREFIX)) hyphenated = text.slice(URN_PREFIX.length)
  return hyphenated !== null && HYPHENATED.test(hyphenated) ? hyphenated.replaceAll('-', '') : null
}

/** The canonical form (lower case, hyphenated) of a UUID text pydantic accepts; null otherwise. */
export function canonicalUuid(text: string): string | null {
  const hex = hexDigits(text)?.toLowerCase()
  if (hex === undefined) return null
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
}

const GROUP_STARTS = [0, 9, 14, 19, 24]
const GROUP_LENGTHS = [8, 4, 4, 4, 12]

/**
 * Why a text is no UUID, worded as the uuid crate's `InvalidUuid::into_err` (1.18) words it,
 * which pydantic puts after "Input should be a valid UUID, ". Only meaningful for refused text.
 */
export function uuidProblem(text: string): string {
  const braced = text.length >= 2 && text.startsWith('{') && text.endsWith('}')
  const urn = !braced && text.startsWith(URN_PREFIX)
  const offset = braced ? 1 : urn ? URN_PREFIX.length : 0
  const body = braced ? text.slice(1, -1) : text.slice(offset)
  const hyphens: number[] = []
  for (let index = 0; index < body.length; index++) {
    const char = String.fromCodePoint(body.codePointAt(index)!)
    if (char === '-') hyphens.push(index)
    // Characters before this one are all ASCII, so this index is the crate's byte index too.
    else if (!/^[0-9a-fA-F]$/.test(char)) {
      return `invalid character: expected an optional prefix of \`urn:uuid:\` followed by [0-9a-fA-F-], found \`${char}\` at ${index + offset + 1}`
    }
  }
  if (hyphens.length === 0 && !braced && !urn) return `invalid length: expected length 32 for simple format, found ${text.length}`
  if (hyphens.length !== 4) return `invalid group count: expected 5, found ${hyphens.length + 1}`
  for (let group = 0; group < 4; group++) {
    if (hyphens[group] !== GROUP_STARTS[group + 1]! - 1) {
      return `invalid group length in group ${group}: expected ${GROUP_LENGTHS[group]}, found ${hyphens[group]! - GROUP_STARTS[group]!}`
    }
  }
  // The crate measures the last group against the whole input, braces or prefix included.
  return `invalid group length in group 4: expected 12, found ${text.length - GROUP_STARTS[4]!}`
}
