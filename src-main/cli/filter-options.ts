import type { Command } from 'commander'
import { VIEW_PARAM_NAMES } from '../../src-shared/call-log-view'
import type { CallLogFilter } from '../../src-shared/schemas/call-log-search'

export type FilterField = keyof typeof VIEW_PARAM_NAMES

/** Call log filter options, named as the console's URL parameters (the same codec reads both). */
export const FILTER_HELP: Record<FilterField, string> = {
  from: 'only lines at or after this date or date-time (UTC unless an offset is given), or relative to now: now-15m, now-24h, now-7d',
  to: 'only lines at or before this date or date-time, or relative to now: now, now-1h',
  agentId: 'only lines of this agent id',
  levels: 'only these levels, comma-separated (debug,info,warning,error,critical)',
  types: 'only these log types, comma-separated',
  q: 'full-text search in messages (words, "a phrase", prefix*)',
  query: 'a query in the explorer\'s language, e.g. \'level:error (imeout OR "rate limit") @last 24h\' (docs/query-language.md)',
  callId: 'only lines of this call id',
  traceId: 'only lines of this trace id',
  sessionId: 'only lines of this session id',
}

/** Adds `--<param> <value>` for each field; `renamed` gives a field another option name. */
export function addFilterOptions(command: Command, fields: FilterField[], renamed: Partial<Record<FilterField, string>> = {}): void {
  for (const field of fields) command.option(`--${renamed[field] ?? VIEW_PARAM_NAMES[field]} <value>`, FILTER_HELP[field])
}

/** The options given, validated as the console's filter; a bad one is a usage error (exit 2) naming the option. */
export async function parseFilterOptions(
  command: Command,
  opts: Record<string, unknown>,
  fields: FilterField[],
  renamed: Partial<Record<FilterField, string>> = {},
): Promise<CallLogFilter> {
  const { viewFromSearchParams } = await import('../../src-shared/call-log-view')
  const { callLogFilterSchema } = await import('../../src-shared/schemas/call-log-search')
  const optionOf = (field: FilterField) => renamed[field] ?? VIEW_PARAM_NAMES[field]
  const params = new URLSearchParams()
  for (const field of fields) {
    const value = opts[optionOf(field)]
    if (typeof value === 'string') params.set(VIEW_PARAM_NAMES[field], value)
  }
  const parsed = callLogFilterSchema.safeParse(viewFromSearchParams(params))
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!
    const field = issue.path[0] as FilterField
    const option = field in VIEW_PARAM_NAMES ? optionOf(field) : issue.path.join('.')
    // A query that does not parse: the query again with a caret under the problem.
    const at = (issue as { params?: { ctx?: { offset?: number } } }).params?.ctx?.offset
    const caret = field === 'query' && at !== undefined ? `\n  ${String(opts[option])}\n  ${' '.repeat(at)}^` : ''
    return command.error(`error: option '--${option}': ${issue.message}${caret}`, { exitCode: 2 })
  }
  return parsed.data
}
