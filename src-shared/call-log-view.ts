/**
 * The call log view as URL search parameters: one codec shared by the console (its address bar and
 * deep links) and the export routes (`/export/call-logs.csv?…`), so a view and its export always
 * mean the same filter. Plain strings only: validation is the service's job (call-log-search.ts).
 */
export interface CallLogViewParams {
  from?: string
  to?: string
  agentId?: string
  levels?: string[]
  types?: string[]
  q?: string
  /** The query language (src-shared/log-query): one line of field filters, text and time. */
  query?: string
  callId?: string
  traceId?: string
  sessionId?: string
}

/** URL parameter name of each filter field. Lists are comma-separated. */
export const VIEW_PARAM_NAMES = {
  from: 'from',
  to: 'to',
  agentId: 'agent',
  levels: 'level',
  types: 'type',
  q: 'q',
  query: 'query',
  callId: 'call',
  traceId: 'trace',
  sessionId: 'session',
} as const satisfies Record<keyof CallLogViewParams, string>

const LIST_FIELDS = new Set<keyof CallLogViewParams>(['levels', 'types'])

export function viewFromSearchParams(params: URLSearchParams): CallLogViewParams {
  const view: CallLogViewParams = {}
  for (const [field, name] of Object.entries(VIEW_PARAM_NAMES) as Array<[keyof CallLogViewParams, string]>) {
    const value = params.get(name)?.trim()
    if (!value) continue
    if (LIST_FIELDS.has(field)) {
      const list = value.split(',').map((s) => s.trim()).filter(Boolean)
      if (list.length > 0) (view as Record<string, unknown>)[field] = [...new Set(list)]
    } else {
      ;(view as Record<string, unknown>)[field] = value
    }
  }
  return view
}

/** Writes the view into `params` (other parameters, like `line`, are kept). */
export function viewToSearchParams(view: CallLogViewParams, params = new URLSearchParams()): URLSearchParams {
  for (const [field, name] of Object.entries(VIEW_PARAM_NAMES) as Array<[keyof CallLogViewParams, string]>) {
    const value = view[field]
    const text = Array.isArray(value) ? value.join(',') : value
    if (text) params.set(name, text)
    else params.delete(name)
  }
  return params
}
