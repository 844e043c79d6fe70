import type { QueryNode, TextNode } from '../../../src-shared/log-query/ast'
import { textIndexOf } from './log-query'
import { phraseRanges, words } from './word-ranges'

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

/**
 * [start, end) ranges of the word, phrase and prefix terms in the message, found as the word index
 * finds them. Computed here rather than with FTS5's highlight(), which evaluates the whole MATCH
 * again (for a prefix such as `e*`, every line's words: seconds on a million lines) to mark 200.
 */
export function wordRanges(message: string, terms: TextNode[]): Array<[number, number]> {
  const tokens = words(message)
  return terms.filter((term) => textIndexOf(term) === 'words').flatMap((term) => phraseRanges(message, term.value, term.mode !== 'phrase', tokens))
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
