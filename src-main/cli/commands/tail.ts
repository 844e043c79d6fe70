import type { Command } from 'commander'
import type { CallLogLine } from '../../modules/call-logs/call-logs.search'
import { addFilterOptions, type FilterField, parseFilterOptions } from '../filter-options'
import { withService } from '../open-service'
import { defaultDbPath } from '../paths'

/** `--query` is the explorer's query language (docs/query-language.md), as in `export logs`. */
const FILTERS: FilterField[] = ['query', 'agentId', 'levels', 'types', 'callId', 'traceId', 'sessionId']

const LEVEL_COLOURS: Record<string, string> = { debug: '2', info: '36', warning: '33', error: '31', critical: '1;31' }

/** One line for a terminal: time, level, type, message, and the ids that let one pivot. */
export function tailLine(line: CallLogLine, colour: boolean): string {
  const level = line.log_level.toUpperCase().padEnd(8)
  const ids = [line.call_id && `call=${line.call_id}`, line.agent_id && `agent=${line.agent_id}`, line.trace_id && `trace=${line.trace_id}`].filter(Boolean).join(' ')
  const paint = (code: string | undefined, text: string) => (colour && code ? `\u001b[${code}m${text}\u001b[0m` : text)
  return `${line.timestamp} ${paint(LEVEL_COLOURS[line.log_level], level)} ${line.log_type.padEnd(9)} ${line.message}${ids ? `  ${paint('2', ids)}` : ''}\n`
}


/** Writes, waiting while the terminal or pipe is full; false once the reader has gone (`| head`) or on Ctrl-C. */
function write(text: string, stop: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    if (process.stdout.destroyed || stop.aborted) return resolve(false)
    const onStop = () => resolve(false)
    stop.addEventListener('abort', onStop, { once: true })
    process.stdout.write(text, (error) => {
      stop.removeEventListener('abort', onStop)
      resolve(!error)
    })
  })
}

export function registerTail(program: Command): void {
  const command = program
    .command('tail')
    .description('follow call logs as they are stored (by the app, `serve`, an import or a sync), like `tail -f`; Ctrl-C stops')
    .option('-n, --lines <count>', 'first print the newest N matching lines already stored', (v) => Number.parseInt(v, 10), 10)
    .option('--json', 'one JSON record per line (the shape GET /logs/calls returns) instead of text')
    .option('--db <file>', 'database file (default: $CALLSCOPE_DB or the per-user data folder)')
  addFilterOptions(command, FILTERS)
  command.action(async (opts: Record<string, unknown>) => {
    const lines = opts.lines as number
    if (!Number.isInteger(lines) || lines < 0 || lines > 1000) return command.error("error: option '-n, --lines <count>': a whole number from 0 to 1000", { exitCode: 2 })
    const filter = await parseFilterOptions(command, opts, FILTERS)
    const path = (opts.db as string | undefined) ?? defaultDbPath()
    await withService(path, async (service) => {
      const { OWNER } = await import('../../kit/access')
      const stop = new AbortController()
      const onSignal = () => stop.abort()
      process.once('SIGINT', onSignal)
      process.once('SIGTERM', onSignal)
      // The reader went away (`| head`): stop quietly, as tail does.
      process.stdout.on('error', onSignal)
      // Loaded here, as every command loads the service: `callscope --help` stays quick.
      const { apiRecord } = await import('../../modules/call-logs/call-logs.tail')
      // --json: the API's record (the shape GET /logs/calls returns), one per line.
      const jsonLine = (line: CallLogLine) => `${JSON.stringify(apiRecord(line))}\n`
      const format = opts.json ? jsonLine : (line: CallLogLine) => tailLine(line, Boolean(process.stdout.isTTY) && !process.env.NO_COLOR)
      let printed = 0
      try {
        let first = true
        for await (const batch of service.callLogs.follow(OWNER, filter, { backlog: lines }, stop.signal)) {
          if (batch.lines.length > 0 && !(await write(batch.lines.map(format).join(''), stop.signal))) break
          printed += batch.lines.length
          // On stderr, so that --json output stays pure: from here on, every line stored is seen.
          if (first) process.stderr.write(`Following ${path}: lines appear as they are stored; Ctrl-C stops.\n`)
          first = false
        }
      } catch (error) {
        // A read that failed (a damaged page): say that following stopped, after what, and why; exit 1.
        const n = printed.toLocaleString('en-US')
        const why = error instanceof Error ? error.message : String(error)
        throw Object.assign(new Error(`the tail stopped after ${n} ${printed === 1 ? 'line' : 'lines'}, and follows no more: ${why}`), { cause: error })
      } finally {
        process.off('SIGINT', onSignal)
        process.off('SIGTERM', onSignal)
        process.stdout.off('error', onSignal)
      }
    }, { mustExist: true })
  })
}
