import { initTRPC, TRPCError } from '@trpc/server'
import { ForbiddenError, InvalidInputError, NotFoundError } from '../modules/errors'
import { type Principal, TokenError } from '../modules/tokens/tokens.service'
import type { ListenerControl } from '../desktop/listener-control'
import type { Service } from '../service'

/** What every procedure sees: the one service and the caller, authenticated by the transport. */
export interface TrpcContext {
  service: Service
  principal: Principal
  /** Optional so in-process callers (tests) need not invent one; absent reads as headless, not listening. */
  runtime?: RuntimeInfo
  /** What only the desktop app can do (over IPC); absent in a browser. */
  desktop?: DesktopControls
}

/** The desktop app's own powers, given to procedures called over IPC. */
export interface DesktopControls {
  listener: ListenerControl
  /** Asks the user where to save a file; null when they cancel. */
  chooseSavePath(defaultName: string): Promise<string | null>
}

/** Procedures that need the desktop app; a clear refusal elsewhere. */
export const requireDesktop = (ctx: TrpcContext): DesktopControls => {
  if (!ctx.desktop) throw new TRPCError({ code: 'BAD_REQUEST', message: 'Only the desktop app can do this; `callscope serve` is configured from its command line' })
  return ctx.desktop
}

/** How this process serves the console: filled in by the entry point once the listener is up. */
export interface RuntimeInfo {
  mode: 'headless' | 'desktop'
  /** The HTTP listener's base URL; null while not listening (or in a desktop app without one). */
  listenerUrl: string | null
}

// Stack traces stay in the main process, never in responses.
const t = initTRPC.context<TrpcContext>().create({ isDev: false })

/** Service errors become the tRPC codes the console understands. */
const mapServiceErrors = t.middleware(async ({ next }) => {
  const result = await next()
  if (!result.ok) {
    const cause = result.error.cause
    if (cause instanceof NotFoundError) throw new TRPCError({ code: 'NOT_FOUND', message: cause.message, cause })
    if (cause instanceof TokenError) throw new TRPCError({ code: 'BAD_REQUEST', message: cause.message, cause })
    if (cause instanceof InvalidInputError) throw new TRPCError({ code: 'BAD_REQUEST', message: cause.message, cause })
    if (cause instanceof ForbiddenError) throw new TRPCError({ code: 'FORBIDDEN', message: cause.message, cause })
  }
  return result
})

export const router = t.router
export const createCallerFactory = t.createCallerFactory
export const procedure = t.procedure.use(mapServiceErrors)
/** The `/admin/*` operations: admin tokens only, as on the REST side. */
export const adminProcedure = procedure.use(({ ctx, next }) => {
  if (ctx.principal.role !== 'admin') {
    throw new TRPCError({ code: 'FORBIDDEN', message: 'Not enough permissions: this operation needs an admin token' })
  }
  return next()
})
