/** One term of a text search: a word or a phrase (its words adjacent, in order), its last word a prefix when `prefix`. */
export interface SearchTerm {
  text: string
  prefix: boolean
}

/**
 * Reads what a person types into a search box as search terms. Every term is searched for as
 * text, so FTS5 syntax in the input — AND, OR, NOT, NEAR, column filters, parentheses, `^`, stray
 * quotes — can never be a syntax error on either store.
 *
 * - `word word` — both must appear (an implicit AND);
 * - `"a phrase"` — the words adjacent, in order;
 * - `pref*` — a trailing `*` makes the term a prefix query.
 *
 * Returns null when nothing searchable is left (no letter or digit in any term).
 */
export function searchTerms(input: string): SearchTerm[] | null {
  const terms: SearchTerm[] = []
  // A quoted phrase (closing quote optional), or a run of non-space characters.
  const pattern = /"([^"]*)"?(\*?)|(\S+)/g
  for (const match of input.matchAll(pattern)) {
    let text: string
    let prefix: boolean
    if (match[3] !== undefined) {
      const word = match[3]
      prefix = word.endsWith('*')
      text = word.replace(/\*+$/, '')
    } else {
      text = match[1] ?? ''
      prefix = match[2] === '*'
    }
    // The tokenizer drops punctuation; a term with nothing else would be an empty phrase.
    if (!/[\p{L}\p{N}]/u.test(text)) continue
    terms.push({ text, prefix })
  }
  return terms.length > 0 ? terms : null
}

/**
 * One term in FTS5 string syntax: quoted, inner quotes doubled, `*` for a prefix. SQLite reads the
 * query as a C string: a NUL would end it inside a quoted term ("unterminated string", found by the
 * fuzzer). The tokenizer splits text on it anyway, so a space means the same.
 */
// SQLite-only: FTS5 query syntax.
export const ftsString = (text: string, star = false): string => `"${text.replace(/\u0000/g, ' ').replace(/"/g, '""')}"${star ? '*' : ''}`

/** Search terms as an FTS5 query: each term a quoted string, the terms ANDed. */
// SQLite-only: writes FTS5 query syntax (quoted strings, a trailing * for prefixes) for the word index's MATCH and highlight().
export const ftsQuery = (terms: readonly SearchTerm[]): string => terms.map((t) => ftsString(t.text, t.prefix)).join(' ')

/** What a person types as a safe FTS5 query (searchTerms, then ftsQuery); null when nothing is searchable. */
export function toFtsQuery(input: string): string | null {
  const terms = searchTerms(input)
  return terms === null ? null : ftsQuery(terms)
}

/** Marks the FTS5 highlight() function puts around matches; control characters no message carries. */
export const HIGHLIGHT_OPEN = '\u0002'
export const HIGHLIGHT_CLOSE = '\u0003'

/**
 * Reads highlight() output back into [start, end) ranges of the original message, so the console
 * can mark matches with React elements instead of HTML. If the message itself contains a mark
 * character the ranges would be ambiguous: then no ranges.
 */
export function highlightRanges(message: string, highlighted: string): Array<[number, number]> {
  const ranges: Array<[number, number]> = []
  let plain = ''
  let start = -1
  for (const ch of highlighted) {
    if (ch === HIGHLIGHT_OPEN) start = plain.length
    else if (ch === HIGHLIGHT_CLOSE) {
      if (start >= 0 && plain.length > start) ranges.push([start, plain.length])
      start = -1
    } else plain += ch
  }
  return plain === message ? ranges : []
}
