import { fetchRequestHandler } from '@trpc/server/adapters/fetch'
import type { IpcTrpcRequest, IpcTrpcResponse } from '../../src-shared/ipc'
import { SOURCE_HEADER } from '../../src-shared/schemas/sources'
import { OWNER, type Principal } from '../kit/access'
import type { DesktopControls, RuntimeInfo } from '../kit/runtime'
import type { Service } from '../service'
import { type AppRouter, createAppRouter } from './app-router'
import type { TrpcContext } from '../kit/trpc'
import { forwardToTeam, isLocalRequest, type TeamTargetOf } from './team-forward'

export { TRPC_IPC_CHANNEL } from '../../src-shared/ipc'

/** The parts of Electron's IpcMainInvokeEvent the handler looks at, so it can be tested under Node. */
export interface IpcSenderInfo {
  senderFrame: { url: string } | null
  sender: { id: number }
}

export const isRequest = (value: unknown): value is IpcTrpcRequest => {
  const r = value as IpcTrpcRequest
  return (
    typeof r === 'object' && r !== null && typeof r.url === 'string' && r.url.startsWith('/') &&
    (r.method === 'GET' || r.method === 'POST') && (r.body === undefined || typeof r.body === 'string') &&
    (r.source === undefined || (typeof r.source === 'string' && r.source.length <= 2048))
  )
}

/**
 * The desktop user's principal for a request: the store's owner, limited to the source the
 * console's picker names (issue 15 pt 4); an answer in the REST's 422 shape when it names none.
 */
export async function ipcPrincipal(service: Service, request: IpcTrpcRequest): Promise<{ principal: Principal } | { refusal: IpcTrpcResponse }> {
  if (request.source === undefined) return { principal: OWNER }
  const resolved = await service.sources.resolve(request.source)
  if ('problem' in resolved) {
    const detail = [{ type: 'value_error', loc: ['header', SOURCE_HEADER], msg: resolved.problem, input: request.source }]
    return { refusal: { status: 422, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ detail }) } }
  }
  return { principal: { ...OWNER, source: resolved.key } }
}

/**
 * One tRPC exchange carried over IPC, answered by the fetch handler the HTTP listener uses, so both
 * channels share batching, error shapes, serialisation and subscriptions (SSE). The desktop user
 * owns the store: over IPC the console acts as admin. `signal` ends a subscription.
 */
export function answerOverIpc(appRouter: AppRouter, ctx: TrpcContext, request: IpcTrpcRequest, signal?: AbortSignal): Promise<Response> {
  return fetchRequestHandler({
    endpoint: '/trpc',
    req: new Request(`http://callscope.ipc/trpc${request.url}`, {
      method: request.method,
      body: request.method === 'POST' ? (request.body ?? '') : undefined,
      headers: request.method === 'POST' ? { 'content-type': 'application/json' } : {},
      signal,
    }),
    router: appRouter,
    createContext: () => ctx,
  })
}

export const FORBIDDEN_SENDER = { status: 403, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ detail: 'IPC sender refused' }) }
export const MALFORMED_REQUEST = { status: 400, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ detail: 'Malformed IPC request' }) }

export interface IpcHandlerOptions {
  service: Service
  runtime: RuntimeInfo
  /** True only for the app's own window showing the app's own page. */
  isTrustedSender: (event: IpcSenderInfo) => boolean
  desktop?: DesktopControls
  /** The team server the console reads while connected (Settings → Team server); absent or null: the local store. */
  team?: TeamTargetOf
}

/**
 * Where one console request is answered: by the team server while connected (its own settings
 * aside), else by this process's router over the local store, as the desktop's owner.
 */
export async function answerIpcRequest(
  options: IpcHandlerOptions,
  appRouter: AppRouter,
  request: IpcTrpcRequest,
  signal?: AbortSignal,
): Promise<Response | IpcTrpcResponse> {
  const target = isLocalRequest(request) ? null : await options.team?.()
  if (target) return forwardToTeam(target, request, signal)
  const who = await ipcPrincipal(options.service, request)
  if ('refusal' in who) return who.refusal
  return answerOverIpc(appRouter, { principal: who.principal, runtime: options.runtime, desktop: options.desktop }, request, signal)
}

/**
 * Answers tRPC requests from the renderer (answerOverIpc). Pure: Electron's ipcMain is wired to it
 * in index.ts, and tests call it with fake events.
 */
export function createIpcTrpcHandler(options: IpcHandlerOptions) {
  const appRouter = createAppRouter(options.service)
  return async (event: IpcSenderInfo, request: unknown): Promise<IpcTrpcResponse> => {
    if (!options.isTrustedSender(event)) return FORBIDDEN_SENDER
    if (!isRequest(request)) return MALFORMED_REQUEST
    const response = await answerIpcRequest(options, appRouter, request)
    if (!(response instanceof Response)) return response
    return { status: response.status, headers: Object.fromEntries(response.headers), body: await response.text() }
  }
}

/**
 * The sender check: the request must come from the main frame of the app's window, showing the
 * app's own page (file:// build or the dev server), never from another window or a navigated frame.
 */
export function trustedSenderCheck(windowId: () => number | null, appUrlPrefix: string) {
  return (event: IpcSenderInfo): boolean =>
    event.sender.id === windowId() && event.senderFrame !== null && event.senderFrame.url.startsWith(appUrlPrefix)
}
