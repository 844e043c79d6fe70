import { useSyncExternalStore } from 'react'
import { UTC } from './format'

/*
 * Whether the explorer shows times in UTC (as stored, the default: what logs and colleagues quote)
 * or in the viewer's own zone. A choice of the person, not of the view: kept in localStorage
 * across sessions, not in the URL, so a shared link opens in the reader's own choice.
 */

export type TimeZoneMode = 'utc' | 'local'
const KEY = 'callscope.logs.timeZone'
const listeners = new Set<() => void>()

function read(): TimeZoneMode {
  try {
    return globalThis.localStorage?.getItem(KEY) === 'local' ? 'local' : 'utc'
  } catch {
    return 'utc' // storage refused (a locked-down profile): UTC, as before
  }
}

export function setTimeZoneMode(mode: TimeZoneMode): void {
  try {
    globalThis.localStorage?.setItem(KEY, mode)
  } catch {
    // Not remembered; still applied to this page below.
  }
  current = mode
  for (const listener of listeners) listener()
}

let current: TimeZoneMode | null = null

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

const snapshot = (): TimeZoneMode => (current ??= read())

/** The viewer's zone, as the system names it (Europe/Paris); UTC when it has none. */
export const localTimeZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone || UTC

/** The chosen mode and the IANA zone the explorer's times are shown in. */
export function useTimeZone(): { mode: TimeZoneMode; timeZone: string; setMode: (mode: TimeZoneMode) => void } {
  const mode = useSyncExternalStore(subscribe, snapshot)
  return { mode, timeZone: mode === 'local' ? localTimeZone() : UTC, setMode: setTimeZoneMode }
}
