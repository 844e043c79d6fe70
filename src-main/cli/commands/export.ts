import { createWriteStream } from 'node:fs'
import { Readable, type Writable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { type Command, Option } from 'commander'
import { VIEW_PARAM_NAMES } from '../../../src-shared/call-log-view'
import { withService } from '../open-service'

/** Filter options, named as the console's URL parameters (the same codec reads both). */
const FILTERS: Array<[keyof typeof VIEW_PARAM_NAMES, string]> = [
  ['from', 'only lines at or after this date or date-time (UTC unless an offset is given)'],
  ['to', 'only lines at or before this date or date-time'],
  ['agentId', 'only lines of this agent id'],
  ['levels', 'only these levels, comma-separated (debug,info,warning,error,critical)'],
  ['types', 'only these log types, comma-separated'],
  ['q', 'full-text search in messages (words, "a phrase", prefix*)'],
  ['query', 'a query in the explorer\'s language, e.g. \'level:error (imeout OR "rate limit") @last 24h\' (docs/query-language.md)'],
  ['callId', 'only lines of this call id'],
  ['traceId', 'only lines of this trace id'],
  ['sessionId', 'only lines of this session id'],
]

export function registerExport(program: Command): void {
  const command = program
    .command('export')
    .description('write data out')
    .command('logs')
    .description('the call logs matching a filter, newest first, as CSV or NDJSON (no row limit)')
    .addOption(new Option('-f, --format <format>', 'output format').choices(['csv', 'ndjson']).default('ndjson'))
    .option('-o, --out <file>', 'write to FILE instead of standard output')
    .option('--db <file>', 'database file (default: $CALLSCOPE_DB or the per-user data folder)')
  for (const [field, help] of FILTERS) command.option(`--${VIEW_PARAM_NAMES[field]} <value>`, help)
  command.action(async (opts: Record<string, string | undefined>) => {
    const { viewFromSearchParams } = await import('../../../src-shared/call-log-view')
    const { callLogFilterSchema } = await import('../../../src-shared/schemas/call-log-search')
    const params = new URLSearchParams()
    for (const [field] of FILTERS) {
      const value = opts[VIEW_PARAM_NAMES[field]]
      if (value !== undefined) params.set(VIEW_PARAM_NAMES[field], value)
    }
    const parsed = callLogFilterSchema.safeParse(viewFromSearchParams(params))
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!
      const option = VIEW_PARAM_NAMES[issue.path[0] as keyof typeof VIEW_PARAM_NAMES] ?? issue.path.join('.')
      // A query that does not parse: the query again with a caret under the problem.
      const at = (issue as { params?: { ctx?: { offset?: number } } }).params?.ctx?.offset
      const caret = option === 'query' && at !== undefined ? `\n  ${opts.query}\n  ${' '.repeat(at)}^` : ''
      return command.error(`error: option '--${option}': ${issue.message}${caret}`, { exitCode: 2 })
    }
    await withService(opts.db, async (service) => {
      // The CLI runs as the store's owner, as the desktop app does.
      const { OWNER } = await import('../../kit/access')
      const stream = service.callLogs.exportStream(OWNER, parsed.data, opts.format as 'csv' | 'ndjson')
      const out: Writable = opts.out ? createWriteStream(opts.out) : process.stdout
      try {
        await pipeline(Readable.fromWeb(stream as never), out, { end: Boolean(opts.out) })
      } catch (error) {
        // The reader went away (`| head`): not a failure of the export.
        if ((error as NodeJS.ErrnoException).code !== 'EPIPE') throw error
      }
    })
  })
}
