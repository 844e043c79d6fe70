import type { IpcTrpcRequest, IpcTrpcResponse } from '../../src-shared/ipc'
import { SOURCE_HEADER } from '../../src-shared/schemas/sources'
import { describeTeamError, type TeamTarget, teamFetch } from './team-fetch'

/** Reads the connection when a request needs it: null while the console reads the local store. */
export type TeamTargetOf = () => Promise<TeamTarget | null>

/**
 * The desktop app's own settings: answered by the app itself even while connected, or the user
 * could not see the connection, change it, or go back to the local store.
 */
export const LOCAL_PROCEDURES: ReadonlySet<string> = new Set([
  'settings.listener',
  'settings.setListener',
  'settings.teamServer',
  'settings.connectTeamServer',
  'settings.disconnectTeamServer',
])

/** The procedure paths a request names (`/a.b?input=…`, or `/a.b,c.d?batch=1`). */
const pathsOf = (request: IpcTrpcRequest): string[] => request.url.slice(1).split('?')[0]!.split(',')

/** True when any procedure of the request is one the app answers itself. */
export const isLocalRequest = (request: IpcTrpcRequest): boolean => pathsOf(request).some((path) => LOCAL_PROCEDURES.has(path))

/**
 * One console request sent on to the team server as its browser console would send it (the same
 * tRPC URL and body, the connection's token, the source picker's header) and its answer handed back
 * as it came, streams included. A server that cannot be reached is a 502 in tRPC's error shape, so
 * the page shows what to do instead of a bare failure.
 */
export async function forwardToTeam(target: TeamTarget, request: IpcTrpcRequest, signal?: AbortSignal): Promise<Response | IpcTrpcResponse> {
  const headers: Record<string, string> = request.method === 'POST' ? { 'content-type': 'application/json' } : {}
  if (request.source !== undefined) headers[SOURCE_HEADER] = request.source
  try {
    return await teamFetch(target, `/trpc${request.url}`, { method: request.method, body: request.method === 'POST' ? (request.body ?? '') : undefined, headers, signal })
  } catch (error) {
    const message = `${describeTeamError(target.url, error)}. Or go back to the local store: Settings → Team server → Disconnect.`
    const body = { error: { message, code: -32603, data: { code: 'BAD_GATEWAY', httpStatus: 502, path: pathsOf(request).join(',') } } }
    return { status: 502, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }
  }
}
