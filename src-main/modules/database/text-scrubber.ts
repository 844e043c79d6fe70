import { type Pseudonyms, phoneDigits } from './pseudonyms'

/**
 * Finds personal data in free text and swaps it for stand-ins, in one left-to-right pass (so a
 * stand-in is never scanned again): e-mail addresses and phone numbers by their shape, and values
 * the pack holds in structured fields (names, end-user ids, phone numbers written without `+`)
 * wherever they occur as whole words.
 */

export type KnownKind = 'name' | 'user' | 'phone'

const WORD = String.raw`[\p{L}\p{N}\p{M}_]`
const EMAIL = String.raw`[\p{L}\p{N}._%+-]+@[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)*\.\p{L}{2,}`
// International numbers: compact (+15551234567) or grouped (+44 20 7946 0958, +1 (555) 123-4567).
const PHONE_COMPACT = String.raw`(?<![\p{L}\p{N}_+])\+\d{7,15}(?!\d)`
const PHONE_GROUPED = String.raw`(?<![\p{L}\p{N}_+])\+\d{1,4}(?:[ .-]?\(\d{1,4}\)|[ .-]\d{1,5}){2,6}(?!\d)`
// North American numbers without a country code: (555) 123-4567, 555-123-4567, 555.123.4567.
const PHONE_LOCAL = String.raw`(?<![\p{L}\p{N}_.+-])(?:\(\d{3}\) ?|\d{3}[ .-])\d{3}[ .-]\d{4}(?!\d)`
const SCAN = new RegExp(`(${EMAIL})|(${PHONE_COMPACT}|${PHONE_GROUPED}|${PHONE_LOCAL})|(${WORD}+)`, 'gu')
const FIRST_WORD = new RegExp(`^${WORD}+`, 'u')
const WORD_AT = new RegExp(WORD, 'uy')
/** A JSON string literal, keys included; valid JSON has no other place for quotes. */
const JSON_STRING = /"(?:[^"\\]|\\.)*"/g

export interface KnownValues {
  /** Remembers a value found in a structured field; false when it cannot be matched as whole words. */
  add(literal: string, kind: KnownKind): boolean
  /** The known value that starts with the word at `index` and ends at a word boundary, if any. */
  at(text: string, index: number, word: string): { literal: string; kind: KnownKind } | null
  size(): number
}

export function createKnownValues(): KnownValues {
  const byFirstWord = new Map<string, Array<{ literal: string; kind: KnownKind }>>()
  let size = 0
  return {
    add(literal, kind) {
      const first = FIRST_WORD.exec(literal)?.[0]
      if (!first) return false
      const entries = byFirstWord.get(first) ?? []
      if (entries.some((e) => e.literal === literal)) return true
      entries.push({ literal, kind })
      // Longest first: "Maria Lopez" wins over "Maria".
      entries.sort((a, b) => b.literal.length - a.literal.length)
      byFirstWord.set(first, entries)
      size++
      return true
    },
    at(text, index, word) {
      for (const entry of byFirstWord.get(word) ?? []) {
        if (!text.startsWith(entry.literal, index)) continue
        WORD_AT.lastIndex = index + entry.literal.length
        if (entry.literal.length === word.length || !WORD_AT.test(text)) return entry
      }
      return null
    },
    size: () => size,
  }
}

function standInFor(p: Pseudonyms, kind: KnownKind, literal: string): string {
  if (kind === 'name') return p.name(literal)
  if (kind === 'user') return p.userId(literal)
  return p.phone(literal)
}

export type Scrub = (text: string) => string

export function createScrubber(p: Pseudonyms, known: KnownValues): Scrub {
  return (text) => {
    // One shared expression: scrubbing is synchronous and never re-entered.
    const scan = SCAN
    scan.lastIndex = 0
    let out = ''
    let last = 0
    for (let m = scan.exec(text); m; m = scan.exec(text)) {
      const [whole, email, phone] = m
      let replacement: string | null = null
      let end = m.index + whole.length
      if (email) replacement = p.email(email)
      else if (phone) {
        const digits = phoneDigits(phone).length
        if (digits >= 7 && digits <= 15) replacement = p.phone(phone)
      } else {
        const hit = known.at(text, m.index, whole)
        if (hit) {
          replacement = standInFor(p, hit.kind, hit.literal)
          end = m.index + hit.literal.length
          scan.lastIndex = end
        }
      }
      if (replacement === null) continue
      out += text.slice(last, m.index) + replacement
      last = end
    }
    return last === 0 ? text : out + text.slice(last)
  }
}

/**
 * Scrubs the strings of a JSON text (values and keys) and leaves every other byte as it was, so
 * numbers keep their exact digits and the text stays valid JSON. Unchanged strings keep their
 * original escapes; a changed one is written by JSON.stringify.
 */
export function scrubJsonText(json: string, scrub: Scrub): string {
  return json.replace(JSON_STRING, (literal) => {
    let value: string
    try {
      value = JSON.parse(literal) as string
    } catch {
      // Not a valid literal (the column is not JSON after all): scrub its text as it stands.
      return scrub(literal)
    }
    const scrubbed = scrub(value)
    return scrubbed === value ? literal : JSON.stringify(scrubbed)
  })
}

/** The string values of a JSON text whose key matches `keys` (a cheap scan, no parse of the whole). */
export function jsonValuesOf(json: string, keys: RegExp): string[] {
  const found: string[] = []
  const pattern = new RegExp(String.raw`"(${keys.source})"\s*:\s*("(?:[^"\\]|\\.)*")`, 'gi')
  for (const m of json.matchAll(pattern)) found.push(JSON.parse(m[2]!) as string)
  return found
}
