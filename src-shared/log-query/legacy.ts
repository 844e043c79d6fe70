/**
 * The explorer's search box before the query language (`?q=`): words that must all appear, "a
 * phrase", prefix*, each as whole words. The same terms in the query language are quoted phrases,
 * which match exactly as before (the same FTS5 query), so an old link keeps its results when the
 * console moves its `q` into the query box.
 */
export function wordsToLogQuery(q: string): string {
  const terms: string[] = []
  // The old reader's pattern (fts-query.ts): a quoted phrase (closing quote optional), or a run of non-space characters.
  for (const match of q.matchAll(/"([^"]*)"?(\*?)|(\S+)/g)) {
    const word = match[3]
    const text = word !== undefined ? word.replace(/\*+$/, '') : (match[1] ?? '')
    const prefix = word !== undefined ? word.endsWith('*') : match[2] === '*'
    if (!/[\p{L}\p{N}]/u.test(text)) continue
    terms.push(`"${text.replace(/[\\"]/g, (c) => `\\${c}`)}"${prefix ? '*' : ''}`)
  }
  return terms.join(' ')
}
