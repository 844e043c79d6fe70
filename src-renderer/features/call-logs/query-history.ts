import { useEffect, useSyncExternalStore } from 'react'

/*
 * Recent queries of the explorer (issue 17 pt 5), newest first, each once, at most HISTORY_MAX.
 * Kept in this console's localStorage, not in the store: a history is one person's trail (the
 * store may be shared by everyone signed in to a `serve`, and a snapshot handed to a colleague
 * should not carry it), and reads must not write the store (viewers may not write at all).
 */

export const HISTORY_MAX = 50
const KEY = 'callscope.logs.queryHistory'
/** A query that stays the view's query this long was run, not passed through while typing. */
export const SETTLE_MS = 1500

export interface HistoryEntry {
  query: string
  /** When it was last run (ISO). */
  at: string
}

const listeners = new Set<() => void>()
let cache: HistoryEntry[] | null = null

function read(): HistoryEntry[] {
  try {
    const parsed: unknown = JSON.parse(globalThis.localStorage?.getItem(KEY) ?? '[]')
    if (!Array.isArray(parsed)) return []
    // What another version (or a hand) left there: only well-formed entries count.
    return parsed.filter((e): e is HistoryEntry => typeof e?.query === 'string' && e.query.trim() !== '' && typeof e.at === 'string').slice(0, HISTORY_MAX)
  } catch {
    return []
  }
}

function write(entries: HistoryEntry[]): void {
  cache = entries
  try {
    globalThis.localStorage?.setItem(KEY, JSON.stringify(entries))
  } catch {
    // Storage refused or full: the history lasts as long as the page.
  }
  for (const listener of listeners) listener()
}

export const queryHistory = (): HistoryEntry[] => (cache ??= read())

/** Puts a query on top (moving it up if it was there already). */
export function recordQuery(query: string, now = new Date()): void {
  const text = query.trim()
  if (!text) return
  const current = queryHistory()
  if (current[0]?.query === text) return
  write([{ query: text, at: now.toISOString() }, ...current.filter((e) => e.query !== text)].slice(0, HISTORY_MAX))
}

/** Bumped by a clear: a query that was settling then is not recorded after it (see useRecordSettledQuery). */
let clears = 0

export const clearQueryHistory = (): void => {
  clears++
  write([])
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener)
  // Another tab of the console ran a query.
  const onStorage = (e: StorageEvent) => {
    if (e.key !== KEY) return
    cache = read()
    listener()
  }
  window.addEventListener('storage', onStorage)
  return () => {
    listeners.delete(listener)
    window.removeEventListener('storage', onStorage)
  }
}

export const useQueryHistory = (): HistoryEntry[] => useSyncExternalStore(subscribe, queryHistory)

/**
 * Records the view's query once it has stayed for SETTLE_MS, wherever it came from (typed, a facet,
 * a link, a saved view, the history itself); the query box records at once on Enter.
 */
export function useRecordSettledQuery(query: string | undefined, parses: boolean): void {
  useEffect(() => {
    if (!query || !parses) return
    // Cleared while this query was settling (the page had just opened on it): the person asked for
    // an empty list, so the view's query does not come back a moment later on its own.
    const since = clears
    const timer = setTimeout(() => {
      if (clears === since) recordQuery(query)
    }, SETTLE_MS)
    return () => clearTimeout(timer)
  }, [query, parses])
}
