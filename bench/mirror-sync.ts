/**
 * A mirror's "Keep in sync" switched on and off as the console does (tRPC `pulls.syncStart`,
 * `pulls.syncStop`): every call log of the remote from 2000 on, then what is new every interval.
 * Used by bench/pull.ts and the responsiveness bench's sync row.
 */
import { trpcHttp } from '../test/helpers/trpc-http'

export const consoleOf = (mirrorUrl: string, token: string) => trpcHttp(() => mirrorUrl, () => token)

export async function startSync(mirrorUrl: string, remoteUrl: string, token: string): Promise<void> {
  await consoleOf(mirrorUrl, token).mutation('pulls.syncStart', { baseUrl: remoteUrl, token, since: '2000-01-01', rate: 1000, intervalSeconds: 30 })
}

/** Switches the sync off; resolves once the cycle under way has stopped. */
export async function stopSync(mirrorUrl: string, remoteUrl: string, token: string): Promise<void> {
  await consoleOf(mirrorUrl, token).mutation('pulls.syncStop', { source: remoteUrl })
}

/** The sync's state as the console shows it (`pulling`, `waiting`, `retrying`, `failed`, `stopped`), with its last error. */
export async function syncState(mirrorUrl: string, token: string): Promise<{ state: string; lastError: string | null }> {
  const [sync] = await consoleOf(mirrorUrl, token).query<Array<{ state: string; lastError: string | null }>>('pulls.syncs')
  return sync ?? { state: 'pulling', lastError: null }
}
