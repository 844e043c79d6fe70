import type { CallLogViewParams } from '../../../src-shared/call-log-view'
import { LOG_LEVELS, type LogLevel } from '../../../src-shared/constants'
import type { CallLogFilterInput } from '../../../src-shared/schemas/call-log-search'

/** The view as the tRPC filter: unknown level names in a hand-edited URL are dropped, not sent. */
export function toFilter(view: CallLogViewParams): CallLogFilterInput {
  const levels = view.levels?.filter((l): l is LogLevel => (LOG_LEVELS as readonly string[]).includes(l))
  return {
    from: view.from,
    to: view.to,
    agentId: view.agentId,
    levels: levels?.length ? levels : undefined,
    types: view.types?.length ? view.types : undefined,
    q: view.q,
    query: view.query,
    callId: view.callId,
    traceId: view.traceId,
    sessionId: view.sessionId,
  }
}
