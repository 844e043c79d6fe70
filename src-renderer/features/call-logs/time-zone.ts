import { createContext, useContext, useSyncExternalStore } from 'react'
import { UTC } from './format'

/*
 * Whether the explorer shows times in UTC (as stored, the default: what logs and colleagues quote)
 * or in the viewer's own zone. The person's choice is remembered in localStorage across sessions;
 * the view's link may name a zone too (`tz=Europe/Paris`, issue 17 pt 5), which wins while that
 * link is open, so a colleague reads "09:30" where the sender read it. A link without `tz` opens in
 * the reader's remembered choice. Choosing a zone on the page does both.
 */

/** `zone`: the link's zone, neither UTC nor the viewer's. */
export type TimeZoneMode = 'utc' | 'local' | 'zone'
const KEY = 'callscope.logs.timeZone'
const listeners = new Set<() => void>()

function read(): 'utc' | 'local' {
  try {
    return globalThis.localStorage?.getItem(KEY) === 'local' ? 'local' : 'utc'
  } catch {
    return 'utc' // storage refused (a locked-down profile): UTC, as before
  }
}

export function setTimeZoneMode(mode: 'utc' | 'local'): void {
  try {
    globalThis.localStorage?.setItem(KEY, mode)
  } catch {
    // Not remembered; still applied to this page below.
  }
  current = mode
  for (const listener of listeners) listener()
}

let current: 'utc' | 'local' | null = null

function subscribe(listener: () => void): () => void {
  listeners.add(listener)
  // Another window of the console changed it.
  const onStorage = (e: StorageEvent) => {
    if (e.key !== KEY) return
    current = read()
    listener()
  }
  window.addEventListener('storage', onStorage)
  return () => {
    listeners.delete(listener)
    window.removeEventListener('storage', onStorage)
  }
}

const snapshot = (): 'utc' | 'local' => (current ??= read())

/** The viewer's zone, as the system names it (Europe/Paris); UTC when it has none. */
export const localTimeZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone || UTC

/** The zone of the view's link (`tz`), and how to write one there; absent outside the explorer. */
export const LinkTimeZone = createContext<{ zone: string | undefined; setZone: (zone: string) => void } | null>(null)

/** The chosen mode and the IANA zone the explorer's times are shown in: the link's, else the remembered one. */
export function useTimeZone(): { mode: TimeZoneMode; timeZone: string; setMode: (mode: TimeZoneMode) => void } {
  const remembered = useSyncExternalStore(subscribe, snapshot)
  const link = useContext(LinkTimeZone)
  const local = localTimeZone()
  const timeZone = link?.zone ?? (remembered === 'local' ? local : UTC)
  // Where the viewer's zone is UTC the two choices show the same times: the remembered one names it.
  const mode: TimeZoneMode = timeZone === local && (timeZone !== UTC || remembered === 'local') ? 'local' : timeZone === UTC ? 'utc' : 'zone'
  const setMode = (next: TimeZoneMode) => {
    if (next === 'zone') return
    setTimeZoneMode(next)
    link?.setZone(next === 'local' ? local : UTC)
  }
  return { mode, timeZone, setMode }
}
