/**
 * UUID text read as pydantic v2 reads it: pydantic-core's uuid validator hands the string to the
 * Rust uuid crate's `Uuid::parse_str` and accepts any version and variant. Accepted: 32 hex digits
 * ("simple"), or 8-4-4-4-12 hyphenated, bare, in braces `{…}` or after a lower-case `urn:uuid:`;
 * hex digits in any case. Nothing is trimmed. Failures carry the crate's wording as of uuid 1.23
 * (pydantic-core 2.46, pydantic 2.13), checked against that pydantic.
 */

const SIMPLE = /^[0-9a-fA-F]{32}$/
const HYPHENATED = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/
const URN_PREFIX = 'urn:uuid:'
const encoder = new TextEncoder()

/**
 * The part of the text the crate parses, chosen as `try_parse` does by UTF-8 length: 32 bytes are
 * simple, 36 hyphenated, 38 in braces, 45 after the urn prefix; any other length fails whole.
 */
function parsedPart(text: string): { part: string; shape: 'simple' | 'hyphenated' | 'other' } {
  const bytes = encoder.encode(text).length
  if (bytes === 32) return { part: text, shape: 'simple' }
  if (bytes === 36) return { part: text, shape: 'hyphenated' }
  if (bytes === 38 && text.startsWith('{') && text.endsWith('}')) return { part: text.slice(1, -1), shape: 'hyphenated' }
  if (bytes === 45 && text.startsWith(URN_PREFIX)) return { part: text.slice(URN_PREFIX.length), shape: 'hyphenated' }
  return { part: text, shape: 'other' }
}

/** The canonical form (lower case, hyphenated) of a UUID text pydantic accepts; null otherwise. */
export function canonicalUuid(text: string): string | null {
  const { part, shape } = parsedPart(text)
  const valid = shape === 'simple' ? SIMPLE.test(part) : shape === 'hyphenated' && HYPHENATED.test(part)
  if (!valid) return null
  const hex = part.replaceAll('-', '').toLowerCase()
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
}

const GROUP_STARTS = [0, 9, 14, 19, 24]
const GROUP_LENGTHS = [8, 4, 4, 4, 12]

/**
 * Why a text is no UUID, worded as the uuid crate's `InvalidUuid::into_err` words it, which
 * pydantic puts after "Input should be a valid UUID, ". The crate explains the part it failed
 * to parse: the inside of braces or of a urn of the right length, else the whole text.
 */
export function uuidProblem(text: string): string {
  const analysed = parsedPart(text).part
  const braced = analysed.length >= 2 && analysed.startsWith('{') && analysed.endsWith('}')
  const urn = !braced && analysed.startsWith(URN_PREFIX)
  const offset = braced ? 1 : urn ? URN_PREFIX.length : 0
  const body = braced ? analysed.slice(1, -1) : analysed.slice(offset)
  const hyphens: number[] = []
  for (let index = 0; index < body.length; index++) {
    const char = String.fromCodePoint(body.codePointAt(index)!)
    if (char === '-') hyphens.push(index)
    // Characters before this one are all ASCII, so this index is the crate's byte index too.
    else if (!/^[0-9a-fA-F]$/.test(char)) return `invalid character: found \`${char}\` at ${index + offset + 1}`
  }
  if (hyphens.length === 0 && !braced && !urn) return `invalid length: expected length 32 for simple format, found ${analysed.length}`
  if (hyphens.length !== 4) return `invalid group count: expected 5, found ${hyphens.length + 1}`
  for (let group = 0; group < 4; group++) {
    if (hyphens[group] !== GROUP_STARTS[group + 1]! - 1) {
      return `invalid group length in group ${group}: expected ${GROUP_LENGTHS[group]}, found ${hyphens[group]! - GROUP_STARTS[group]!}`
    }
  }
  // The crate measures the last group against the whole analysed text, braces or prefix included.
  return `invalid group length in group 4: expected 12, found ${analysed.length - GROUP_STARTS[4]!}`
}
