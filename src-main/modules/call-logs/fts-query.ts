/**
 * Turns what a person types into a search box into a safe FTS5 query. Every term becomes a quoted
 * FTS5 string (inner quotes doubled), so FTS5 syntax in the input — AND, OR, NOT, NEAR, column
 * filters, parentheses, `^`, stray quotes — is searched for as text and can never be a syntax error.
 *
 * - `word word` — both must appear (FTS5's implicit AND);
 * - `"a phrase"` — the words adjacent, in order;
 * - `pref*` — a trailing `*` makes the term a prefix query.
 *
 * Returns null when nothing searchable is left (no letter or digit in any term).
 */
// SQLite-only: writes FTS5 query syntax (quoted strings, a trailing * for prefixes) for ftsMatchingSeqs and highlights.
export function toFtsQuery(input: string): string | null {
  const terms: string[] = []
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
    // SQLite reads the query as a C string: a NUL would end it inside a quoted term ("unterminated
    // string", found by the fuzzer). The tokenizer splits text on it anyway, so a space means the same.
    terms.push(`"${text.replace(/\u0000/g, ' ').replace(/"/g, '""')}"${prefix ? '*' : ''}`)
  }
  return terms.length > 0 ? terms.join(' ') : null
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
