/**
 * The console's source (issue 15 pt 4): which backend's rows it shows, `local` for Callscope's own,
 * or null for every source. Per tab (sessionStorage), so two tabs can show staging and production
 * side by side; a new tab starts from the last choice made (localStorage). Sent with every tRPC
 * call: the X-Callscope-Source header over HTTP, the request's `source` over IPC.
 */
import { SOURCE_HEADER } from '../../src-shared/schemas/sources'

const KEY = 'callscope.source'

export function getSource(): string | null {
  return sessionStorage.getItem(KEY) ?? localStorage.getItem(KEY)
}

export function setSource(source: string | null): void {
  for (const storage of [sessionStorage, localStorage]) {
    if (source === null) storage.removeItem(KEY)
    else storage.setItem(KEY, source)
  }
}

/** The header of the chosen source, none for every source. */
export function sourceHeaders(): Record<string, string> {
  const source = getSource()
  return source === null ? {} : { [SOURCE_HEADER]: source }
}
