import type { QueryNode, TextNode } from '../../../src-shared/log-query/ast'
import { textIndexOf } from './log-query'

/*
 * What to mark in a matching message: the text terms a line matched for, not those under NOT.
 * Words and phrases are marked by FTS5's highlight() on the word index (as `q` always was);
 * substrings here, by a case-insensitive search of the message.
 */

export function positiveTextTerms(node: QueryNode | null | undefined): TextNode[] {
  if (!node) return []
  if (node.kind === 'text') return [node]
  if (node.kind === 'and' || node.kind === 'or') return node.children.flatMap(positiveTextTerms)
  return []
}

/** The word index's FTS5 query that marks the word and phrase terms, or null when there are none. */
export function wordHighlightMatch(terms: TextNode[]): string | null {
  const words = terms
    .filter((t) => textIndexOf(t) === 'words')
    .map((t) => `"${t.value.replace(/\u0000/g, ' ').replace(/"/g, '""')}"${t.mode === 'phrase' ? '' : '*'}`)
  return words.length > 0 ? words.join(' OR ') : null
}

/** [start, end) ranges of each substring term in the message, any case. */
export function substringRanges(message: string, terms: TextNode[]): Array<[number, number]> {
  const ranges: Array<[number, number]> = []
  const lower = message.toLowerCase()
  // Lower-casing keeps UTF-16 lengths for almost all text; where it does not, offsets would drift: mark nothing.
  if (lower.length !== message.length) return ranges
  for (const term of terms) {
    if (textIndexOf(term) === 'words') continue
    const needle = term.value.toLowerCase()
    if (needle.length === 0) continue
    for (let at = lower.indexOf(needle); at >= 0; at = lower.indexOf(needle, at + needle.length)) ranges.push([at, at + needle.length])
  }
  return ranges
}

/** Sorted, overlapping or touching ranges merged. */
export function mergeRanges(ranges: Array<[number, number]>): Array<[number, number]> {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0] || a[1] - b[1])
  const out: Array<[number, number]> = []
  for (const [start, end] of sorted) {
    const last = out.at(-1)
    if (last && start <= last[1]) last[1] = Math.max(last[1], end)
    else out.push([start, end])
  }
  return out
}
