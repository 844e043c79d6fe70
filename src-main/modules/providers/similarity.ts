/** Levenshtein edit distance (insertions, deletions, substitutions), two rows of memory. */
export function editDistance(a: string, b: string): number {
  if (a === b) return 0
  if (a.length === 0) return b.length
  if (b.length === 0) return a.length
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j)
  let current = new Array<number>(b.length + 1)
  for (let i = 1; i <= a.length; i++) {
    current[0] = i
    for (let j = 1; j <= b.length; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost)
    }
    ;[previous, current] = [current, previous]
  }
  return previous[b.length]!
}

/** Inputs longer than this get no suggestions: nothing in a catalog is that long. */
const MAX_INPUT = 100

/**
 * Candidates close to `input`, best first: case-insensitive edit distance within about a third of
 * the length (at least 2), or one containing the other (`nova` → `nova-3`, `nova-2`).
 */
export function closeMatches(input: string, candidates: readonly string[], limit = 3): string[] {
  const needle = input.trim().toLowerCase()
  if (needle.length === 0 || needle.length > MAX_INPUT) return []
  const scored: Array<{ candidate: string; score: number }> = []
  for (const candidate of candidates) {
    const hay = candidate.toLowerCase()
    const distance = editDistance(needle, hay)
    const allowed = Math.max(2, Math.floor(Math.max(needle.length, hay.length) / 3))
    const contains = needle.length >= 3 && (hay.includes(needle) || needle.includes(hay))
    if (distance <= allowed || contains) scored.push({ candidate, score: contains ? Math.min(distance, allowed) : distance })
  }
  return scored
    .sort((x, y) => x.score - y.score || x.candidate.localeCompare(y.candidate))
    .slice(0, limit)
    .map((s) => s.candidate)
}
