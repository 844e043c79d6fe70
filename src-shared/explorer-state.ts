import type { CallLogViewParams } from './call-log-view'
import { LOG_LEVELS } from './constants'
import { LOG_QUERY_MAX_LENGTH } from './log-query/parser'
import { checkLogQuery, startsBeforeEnd } from './schemas/call-log-search'
import { COUNT_BY_TOP, countByKeySchema } from './schemas/call-log-count-by'
import { DETAILS_KEY } from './schemas/call-log-facets'
import { laxUuid, parseInstant } from './schemas/params'
import { canonicalRelative } from './time-range'
import { z } from './schemas/zod'

/*
 * The log explorer's whole state (issue 17 pt 5): what a permalink holds and a saved view stores.
 * One vocabulary for both, the URL's parameter names (`#/logs?query=…&from=now-24h&cols=…`), and
 * one set of zod schemas per field: a link is read field by field (a bad value is left out and
 * reported, the rest still opens), a saved view's state is checked whole (a bad value is a 422).
 */

/** The call log table's columns, in the order the chooser lists them. */
export const BASE_COLUMNS = ['time', 'level', 'type', 'tenant', 'agent', 'call', 'message'] as const
export type BaseColumn = (typeof BASE_COLUMNS)[number]
/** What the table shows when the state names no columns. */
export const DEFAULT_COLUMNS: readonly string[] = ['time', 'level', 'type', 'message', 'agent', 'call']
/** `details.<key>` columns: a key as the query language names it (`details.provider`, `details.usage.tokens`). */
export const DETAILS_COLUMN_PREFIX = 'details.'
export const MAX_COLUMNS = 20
export const MAX_TYPES = 50

export const isColumn = (name: string): boolean =>
  (BASE_COLUMNS as readonly string[]).includes(name) ||
  (name.startsWith(DETAILS_COLUMN_PREFIX) && name.length <= 208 && DETAILS_KEY.test(name.slice(DETAILS_COLUMN_PREFIX.length)))

/** An IANA zone this runtime knows, in its canonical spelling (`europe/paris` → `Europe/Paris`); null otherwise. */
export function canonicalTimeZone(name: string): string | null {
  if (name.length === 0 || name.length > 64) return null
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone
  } catch {
    return null
  }
}

const BOUND_MESSAGE = 'Expected an ISO 8601 date (2026-11-01), a date-time (2026-11-01T09:30:00Z) or a time relative to now (now-15m, now-24h, now-7d)'
/** Kept as written (relative stays relative), only checked: the service resolves it at each read. */
const bound = (endOfDay: boolean) =>
  z
    .string()
    .trim()
    .min(1)
    .max(40)
    .refine((text) => canonicalRelative(text) !== null || parseInstant(text, endOfDay) !== null, BOUND_MESSAGE)
const id = z.string().trim().min(1).max(200)

/** One item of each list field: a list in a link keeps its good items. */
export const LIST_ITEMS = {
  level: z.enum(LOG_LEVELS, { error: `Expected a log level: ${LOG_LEVELS.join(', ')}` }),
  type: z.string().trim().min(1).max(100),
  cols: z.string().refine(isColumn, `Expected a column: ${BASE_COLUMNS.join(', ')} or details.<key>`),
} as const
const LIST_MAX = { level: LOG_LEVELS.length, type: MAX_TYPES, cols: MAX_COLUMNS } as const
type ListField = keyof typeof LIST_ITEMS

const list = <F extends ListField>(field: F) => z.array(LIST_ITEMS[field]).min(1).max(LIST_MAX[field]).refine((l) => new Set(l).size === l.length, 'Each value once')

/** Every field but `query` and `line`: the same in a link and in a saved view. */
const COMMON_FIELDS = {
  from: bound(false),
  to: bound(true),
  agent: laxUuid(),
  level: list('level'),
  type: list('type'),
  call: id,
  trace: id,
  session: id,
  /** The table's columns, in order; absent: DEFAULT_COLUMNS. */
  cols: list('cols'),
  /** The details key picked in the facet panel. */
  facet: z.string().max(200).regex(DETAILS_KEY, 'A details key is letters, digits, _ and - with dots between parts (provider, usage.tokens)'),
  /** The zone times are shown in: `UTC` or an IANA name; absent: the viewer's remembered choice. */
  tz: z.string().refine((zone) => canonicalTimeZone(zone) !== null, 'Expected UTC or an IANA time zone (Europe/Paris)').transform((zone) => canonicalTimeZone(zone)!),
  /** Following new lines (the live tail). */
  live: z.boolean(),
  /** Count by (the count-by panel): the field or details key counted by, and how many groups are named. */
  by: countByKeySchema,
  top: z.number().int().min(COUNT_BY_TOP.min).max(COUNT_BY_TOP.max),
}

/**
 * A saved view's state: the explorer's state but the open line (a view is an investigation to come
 * back to; a line is one moment of it: share that with a link). Checked whole: the query must parse
 * and the range must be able to hold something.
 */
export const savedViewStateSchema = z
  .object({
    query: z.string().trim().min(1).max(LOG_QUERY_MAX_LENGTH).superRefine(checkLogQuery).optional(),
    from: COMMON_FIELDS.from.optional(),
    to: COMMON_FIELDS.to.optional(),
    agent: COMMON_FIELDS.agent.optional(),
    level: COMMON_FIELDS.level.optional(),
    type: COMMON_FIELDS.type.optional(),
    call: COMMON_FIELDS.call.optional(),
    trace: COMMON_FIELDS.trace.optional(),
    session: COMMON_FIELDS.session.optional(),
    cols: COMMON_FIELDS.cols.optional(),
    facet: COMMON_FIELDS.facet.optional(),
    tz: COMMON_FIELDS.tz.optional(),
    live: COMMON_FIELDS.live.optional(),
    by: COMMON_FIELDS.by.optional(),
    top: COMMON_FIELDS.top.optional(),
  })
  .refine(startsBeforeEnd, { message: 'The range ends before it starts', path: ['to'] })
  .openapi('SavedViewState', {
    description:
      "The log explorer's state, keyed by its URL parameters (docs/api.md, \"Links and saved views\"): `query` (the query language), `from`/`to` (instants or `now-…`), `agent`, `level`, `type`, `call`, `trace`, `session`, `cols` (table columns: time, level, type, tenant, agent, call, message, details.<key>), `facet` (the details key of the facet panel), `tz` (UTC or an IANA zone), `live`, and the count-by panel's `by` (level, type, tenant, agent or details.<key>) and `top` (1 to 10 groups named).",
  })
export type SavedViewState = z.output<typeof savedViewStateSchema>

/** A link's state: a saved view's, plus the open line and the pre-query-language search words. */
export interface ExplorerState extends SavedViewState {
  line?: string
  /** `?q=`: links from before the query language; the console moves it into `query`. */
  q?: string
}

/** In a link, a query that does not parse is kept: the box shows it with its error, where to correct it. */
const LINK_SCALARS = {
  ...COMMON_FIELDS,
  query: z.string().trim().min(1).max(LOG_QUERY_MAX_LENGTH),
  line: id,
  q: z.string().trim().min(1).max(500),
}
/** Parameter order in a link written by the console. */
const PARAM_ORDER = ['query', 'q', 'from', 'to', 'agent', 'level', 'type', 'call', 'trace', 'session', 'cols', 'facet', 'by', 'top', 'tz', 'live', 'line'] as const
export type ExplorerParam = (typeof PARAM_ORDER)[number]
const LIST_FIELDS = new Set<string>(['level', 'type', 'cols'])

/** A part of a link left out, and why. */
export interface IgnoredPart {
  param: string
  value: string
  reason: string
}

const firstMessage = (error: z.ZodError) => error.issues[0]?.message ?? 'Not a valid value'

function readList(field: ListField, text: string, ignored: IgnoredPart[]): string[] | undefined {
  const kept: string[] = []
  for (const item of text.split(',').map((s) => s.trim()).filter(Boolean)) {
    const parsed = LIST_ITEMS[field].safeParse(item)
    if (!parsed.success) ignored.push({ param: field, value: item, reason: firstMessage(parsed.error) })
    else if (kept.includes(parsed.data)) continue
    else if (kept.length >= LIST_MAX[field]) ignored.push({ param: field, value: item, reason: `At most ${LIST_MAX[field]} values` })
    else kept.push(parsed.data)
  }
  return kept.length ? kept : undefined
}

/**
 * A link's parameters as the explorer's state. Never throws: an unknown parameter, a bad value or a
 * bad item of a list is left out and listed in `ignored`, so the console opens the rest and says
 * what it left out. Empty values are absent values. `known` names parameters of other features
 * of the page, which are neither read nor reported here.
 */
export function parseExplorerParams(params: URLSearchParams, known: readonly string[] = []): { state: ExplorerState; ignored: IgnoredPart[] } {
  const state: Record<string, unknown> = {}
  const ignored: IgnoredPart[] = []
  for (const name of new Set(params.keys())) {
    const text = params.get(name)!.trim()
    if (known.includes(name)) continue
    if (!(PARAM_ORDER as readonly string[]).includes(name)) {
      ignored.push({ param: name, value: text, reason: 'Not a parameter of the explorer' })
      continue
    }
    if (!text) continue
    if (LIST_FIELDS.has(name)) {
      state[name] = readList(name as ListField, text, ignored)
      continue
    }
    if (name === 'top') {
      const parsed = COMMON_FIELDS.top.safeParse(/^\d{1,3}$/.test(text) ? Number(text) : Number.NaN)
      if (parsed.success) state.top = parsed.data
      else ignored.push({ param: name, value: text, reason: `Expected a number of groups from ${COUNT_BY_TOP.min} to ${COUNT_BY_TOP.max}` })
      continue
    }
    if (name === 'live') {
      if (text === '1' || text === 'true') state.live = true
      else if (text !== '0' && text !== 'false') ignored.push({ param: name, value: text, reason: 'Expected 1 (follow new lines) or 0' })
      continue
    }
    const parsed = LINK_SCALARS[name as keyof typeof LINK_SCALARS].safeParse(text)
    if (parsed.success) state[name] = parsed.data
    else ignored.push({ param: name, value: text.length > 80 ? `${text.slice(0, 80)}…` : text, reason: firstMessage(parsed.error) })
  }
  for (const key of Object.keys(state)) if (state[key] === undefined) delete state[key]
  return { state: state as ExplorerState, ignored }
}

/** The state as link parameters, in a fixed order; absent and empty fields are left out, `live` only when on. */
export function explorerStateToParams(state: ExplorerState): URLSearchParams {
  const params = new URLSearchParams()
  for (const name of PARAM_ORDER) {
    const value = state[name]
    if (value === undefined || value === false) continue
    if (value === true) params.set(name, '1')
    else if (typeof value === 'number') params.set(name, String(value))
    else if (Array.isArray(value)) {
      if (value.length) params.set(name, value.join(','))
    } else if (value) params.set(name, value)
  }
  return params
}

/** Two states mean the same view (lists compared as sets except the columns, whose order shows). */
export function sameExplorerState(a: ExplorerState, b: ExplorerState): boolean {
  const norm = (s: ExplorerState) => {
    const copy: Record<string, unknown> = { ...s }
    for (const field of ['level', 'type'] as const) if (s[field]) copy[field] = [...s[field]].sort()
    return explorerStateToParams(copy as ExplorerState).toString()
  }
  return norm(a) === norm(b)
}

/** The columns a state shows. */
export const columnsOf = (state: Pick<ExplorerState, 'cols'>): readonly string[] => state.cols ?? DEFAULT_COLUMNS

/** The filter part of a state, as the call log view's codec names it (call-log-view.ts). */
export function viewOfState(state: ExplorerState): CallLogViewParams {
  const view: CallLogViewParams = {
    from: state.from,
    to: state.to,
    agentId: state.agent,
    levels: state.level,
    types: state.type,
    q: state.q,
    query: state.query,
    callId: state.call,
    traceId: state.trace,
    sessionId: state.session,
  }
  for (const key of Object.keys(view) as Array<keyof CallLogViewParams>) if (view[key] === undefined) delete view[key]
  return view
}
