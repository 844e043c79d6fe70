import { initTRPC, TRPCError } from '@trpc/server'
import { assertAdmin, type Principal } from './access'
import { asStoreFault, errorStatus } from './errors'
import { storeFaultsEndSubscription } from './subscription-faults'
import { isAsyncIterable, untilAborted } from './until-aborted'
import type { DesktopControls, RuntimeInfo } from './runtime'

/**
 * What every procedure sees: the caller, authenticated by the transport, and the process it runs
 * in. Services are not in the context: each module's router is built over its own services
 * (server/app-router.ts), so a module depends on nothing above it.
 */
export interface TrpcContext {
  principal: Principal
  /** Optional so in-process callers (tests) need not invent one; absent reads as headless, not listening. */
  runtime?: RuntimeInfo
  /** What only the desktop app can do (over IPC); absent in a browser. */
  desktop?: DesktopControls
}

/** Procedures that need the desktop app; a clear refusal elsewhere. */
export const requireDesktop = (ctx: TrpcContext): DesktopControls => {
  if (!ctx.desktop) throw new TRPCError({ code: 'BAD_REQUEST', message: 'Only the desktop app can do this; `callscope serve` is configured from its command line' })
  return ctx.desktop
}

// Stack traces stay in the main process, never in responses.
// Subscriptions (the live tail) ping every 10 s over SSE so that a dead connection is noticed and
// the client reconnects, resuming from the last batch it got.
const t = initTRPC.context<TrpcContext>().create({
  isDev: false,
  sse: { ping: { enabled: true, intervalMs: 10_000 }, client: { reconnectAfterInactivityMs: 25_000 } },
})

/** Service errors become tRPC codes through the same table REST uses (kit/errors.ts). */
const mapServiceErrors = t.middleware(async ({ next }) => {
  const result = await next()
  if (!result.ok) {
    const cause = asStoreFault(result.error.cause)
    const status = errorStatus(cause)
    if (status) throw new TRPCError({ code: status.trpc, message: (cause as Error).message, cause })
  }
  return result
})

/**
 * A subscription whose client hung up ends instead of throwing into a pending read nobody awaits
 * (kit/until-aborted.ts): that rejection took `serve` down when a console tab closed mid-count.
 */
const endSubscriptionsOnAbort = t.middleware(async ({ type, signal, next }) => {
  const result = await next()
  if (type !== 'subscription' || !signal || !result.ok || !isAsyncIterable(result.data)) return result
  return { ...result, data: untilAborted(storeFaultsEndSubscription(result.data), signal) }
})

export const router = t.router
export const createCallerFactory = t.createCallerFactory
export const procedure = t.procedure.use(mapServiceErrors).use(endSubscriptionsOnAbort)
/** The `/admin/*` operations and everything that writes the store: admin tokens only, as on REST. */
export const adminProcedure = procedure.use(({ ctx, next }) => {
  assertAdmin(ctx.principal)
  return next()
})
