/*
 * Words as the word index reads them on SQLite (unicode61, remove_diacritics 2): runs of letters
 * and digits, lower case, diacritics removed, with their offsets in the text. The console's marks
 * of word and phrase terms are found with these on both stores (log-query.highlight.ts, and the
 * `q` search's marks on PostgreSQL), so they are the same whatever store answered.
 */

interface Token {
  text: string
  start: number
  end: number
}

/** The words of a text with their [start, end) UTF-16 offsets. */
export function words(text: string): Token[] {
  const out: Token[] = []
  let current: Token | null = null
  let at = 0
  for (const ch of text) {
    if (/[\p{L}\p{N}]/u.test(ch)) {
      const folded = ch.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase()
      if (current) {
        current.text += folded
        current.end = at + ch.length
      } else current = { text: folded, start: at, end: at + ch.length }
    } else if (current) {
      out.push(current)
      current = null
    }
    at += ch.length
  }
  if (current) out.push(current)
  return out
}

/** [start, end) ranges of a word or phrase in the message (its last word a prefix when `prefix`). */
export function phraseRanges(message: string, term: string, prefix: boolean, tokens = words(message)): Array<[number, number]> {
  const ranges: Array<[number, number]> = []
  const wanted = words(term).map((t) => t.text)
  if (wanted.length === 0) return ranges
  for (let i = 0; i + wanted.length <= tokens.length; i++) {
    const matches = wanted.every((w, j) => {
      const token = tokens[i + j]!.text
      return prefix && j === wanted.length - 1 ? token.startsWith(w) : token === w
    })
    if (matches) ranges.push([tokens[i]!.start, tokens[i + wanted.length - 1]!.end])
  }
  return ranges
}
