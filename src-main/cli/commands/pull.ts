import { type Command, InvalidArgumentError } from 'commander'
import { InvalidInputError } from '../../kit/errors'
import { DEFAULT_SYNC_INTERVAL_MS, MAX_SYNC_INTERVAL_MS, MIN_SYNC_INTERVAL_MS, type SyncReport } from '../../modules/pull/pull-syncs.service'
import type { PullReport } from '../../modules/pull/pulls.service'
import { withService } from '../open-service'

const n = (v: number) => v.toLocaleString('en-US')

const parseRate = (value: string): number => {
  const rate = Number(value)
  if (!(rate > 0 && rate <= 1000)) throw new InvalidArgumentError('expected requests per second, more than 0 and at most 1000.')
  return rate
}

const collect = (value: string, previous: string[] = []) => [...previous, value]

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }

/** `30s`, `5m`, `1h`, `1500ms` or plain seconds, as milliseconds. */
export function parseInterval(value: string): number {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h)?\s*$/i.exec(value)
  if (!match) throw new InvalidArgumentError('expected a duration such as 30s, 5m or 1h.')
  const ms = Math.round(Number(match[1]) * UNIT_MS[(match[2] ?? 's').toLowerCase()]!)
  if (!(ms >= MIN_SYNC_INTERVAL_MS && ms <= MAX_SYNC_INTERVAL_MS)) throw new InvalidArgumentError('expected a duration from 1s to 24h.')
  return ms
}

const clock = (iso: string | null) => (iso ? iso.slice(11, 19) : '?')

/** One line per cycle of `pull --follow`: what it brought, or why it failed, and when the next one runs. */
export function cycleLine(pull: PullReport, sync: SyncReport): string {
  const c = pull.counts
  const at = clock(pull.finishedAt)
  if (pull.status !== 'completed') {
    const next = sync.state === 'failed' ? 'stopping' : `retrying at ${clock(sync.nextCycleAt)} (${sync.failures} failed in a row)`
    return `${at} failed: ${pull.failure ?? pull.status} · ${next}\n`
  }
  const news = [
    `${n(c.callLogs.inserted)} new call logs`,
    `${n(c.sessions.agents)} agents' sessions changed`,
    ...(c.tenants.fetched ? [`${n(c.tenants.fetched)} tenants`] : []),
    ...(c.squadAnalytics.fetched ? [`${n(c.squadAnalytics.fetched)} squads' analytics`] : []),
  ]
  return `${at} synced: ${news.join(', ')} (${n(pull.requests)} requests${pull.errors.length ? `, ${pull.errors.length} problems` : ''}) · next at ${clock(sync.nextCycleAt)}\n`
}

/** One line of counts, rewritten in place on a terminal while the pull runs. */
const progressLine = (r: PullReport) =>
  `Pulling: ${n(r.counts.callLogs.fetched)} call logs (${n(r.counts.callLogs.inserted)} new), ${n(r.counts.sessions.fetched)} sessions, ` +
  `${r.counts.tenants.fetched} tenants | ${n(r.requests)} requests, ${r.retries} retries`

export function summary(r: PullReport): string {
  const c = r.counts
  const seconds = ((r.durationMs ?? 0) / 1000).toFixed(1)
  const head = r.status === 'completed' ? 'Pulled' : r.status === 'cancelled' ? 'Cancelled pulling' : 'Stopped pulling'
  return [
    `${head} ${r.source}${r.tenantId ? ` (tenant ${r.tenantId})` : ''} in ${seconds} s: ${n(r.requests)} requests, ${n(r.retries)} retries`,
    `  tenants          ${n(c.tenants.fetched)} fetched${c.tenants.invalid ? `, ${c.tenants.invalid} refused` : ''}${c.tenants.missing ? `, ${c.tenants.missing} not found` : ''}`,
    `  call logs        ${n(c.callLogs.fetched)} fetched since ${r.since} in ${n(c.callLogs.windows)} windows: ${n(c.callLogs.inserted)} new, ${n(c.callLogs.duplicates)} already stored, ${n(c.callLogs.invalid)} refused` +
      (c.callLogs.otherTenants ? `, ${n(c.callLogs.otherTenants)} of other tenants skipped` : ''),
    `  sessions         ${n(c.sessions.fetched)} of ${n(c.sessions.agents)} agents${c.sessions.missing ? ` (${c.sessions.missing} agents not found)` : ''}`,
    `  squad analytics  ${n(c.squadAnalytics.fetched)}${c.squadAnalytics.missing ? ` (${c.squadAnalytics.missing} squads not found)` : ''}`,
    `  SIP trunks       ${c.sipTrunks.fetched ? 'fetched' : 'not fetched'}`,
    `  LLM providers    ${n(c.llmProviders.fetched)}${c.llmProviders.missing ? ` (${c.llmProviders.missing} unknown to the remote)` : ''}`,
    ...(c.skipped ? [`  resumed: ${n(c.skipped)} steps finished by the interrupted pull were not fetched again`] : []),
    '',
  ].join('\n')
}

interface PullCliOptions {
  baseUrl: string
  token?: string
  tenant?: string
  since?: string
  squad?: string[]
  rate: number
  db?: string
  follow?: boolean
  interval: number
}

/** `pull --follow`: cycles until Ctrl-C (the cycle under way is cancelled, what it stored stays) or a refused token. */
async function follow(opts: PullCliOptions, token: string, command: Command): Promise<void> {
  await withService(opts.db, async (service) => {
    let sync
    try {
      sync = await service.syncs.begin(
        { baseUrl: opts.baseUrl, token, tenantId: opts.tenant, since: opts.since, squads: opts.squad, rate: opts.rate, intervalMs: opts.interval },
        { onCycle: (pull, state) => process.stdout.write(cycleLine(pull, state)) },
      )
    } catch (error) {
      if (error instanceof InvalidInputError) return command.error(`error: ${error.message}`, { exitCode: 2 })
      throw error
    }
    const stop = () => void service.syncs.stop(sync.source)
    process.once('SIGINT', stop)
    process.once('SIGTERM', stop)
    process.stderr.write(`Following ${sync.source}, a pull every ${opts.interval / 1000} s; Ctrl-C stops.\n`)
    const final = await sync.done
    process.off('SIGINT', stop)
    process.off('SIGTERM', stop)
    process.stdout.write(`Stopped following ${final.source} after ${n(final.cycles)} cycles; last synced ${final.lastSuccessAt ?? 'never'}.\n`)
    if (final.state === 'failed') throw new Error(`${final.lastError} (the sync cannot go on)`)
  })
}

export function registerPull(program: Command): void {
  program
    .command('pull')
    .description("copy a live backend's data through its REST interface: tenants, call logs, sessions, squad analytics, SIP trunks, LLM provider details")
    .requiredOption('--base-url <url>', "the backend's base URL (http or https)")
    .option('--token <token>', 'bearer token for the backend (default: $CALLSCOPE_REMOTE_TOKEN, which stays out of the process list)')
    .option('--tenant <id>', "pull only this tenant's profile and data")
    .option('--since <date>', 'call logs from this ISO 8601 date or date-time on (default: 7 days ago)')
    .option('--squad <id>', 'also fetch the analytics of this squad (repeatable); squads named in transfer logs are found on their own', collect)
    .option('--rate <n>', 'requests per second at most', parseRate, 5)
    .option('--db <file>', 'database file (default: $CALLSCOPE_DB or the per-user data folder)')
    .option('--follow', 'keep pulling what is new until stopped (Ctrl-C): a continuous sync')
    .option('--interval <duration>', 'with --follow, the pause between two pulls: 30s, 5m, 1h', parseInterval, DEFAULT_SYNC_INTERVAL_MS)
    .action(async (opts: PullCliOptions, command: Command) => {
      const token = opts.token ?? process.env.CALLSCOPE_REMOTE_TOKEN
      if (!token) return command.error("error: a token is needed: pass --token or set CALLSCOPE_REMOTE_TOKEN", { exitCode: 2 })
      if (opts.follow) return follow(opts, token, command)
      if (command.getOptionValueSource('interval') === 'cli') return command.error('error: --interval goes with --follow', { exitCode: 2 })
      await withService(opts.db, async (service) => {
        const live = process.stderr.isTTY
        let pull
        try {
          pull = await service.pulls.begin({
            baseUrl: opts.baseUrl, token, tenantId: opts.tenant, since: opts.since, squads: opts.squad, rate: opts.rate,
            // Alone on the store: a first pull loads its call logs in bulk (the console and --follow never do).
            bulk: 'auto',
            onProgress: (r) => live && process.stderr.write(`\r${progressLine(r)}\x1b[K`),
          })
        } catch (error) {
          if (error instanceof InvalidInputError) return command.error(`error: ${error.message}`, { exitCode: 2 })
          throw error
        }
        // Ctrl-C stops the pull cleanly: what it stored stays, and the next run resumes.
        const cancel = () => void service.pulls.cancel(pull.id)
        process.once('SIGINT', cancel)
        const report = await pull.done
        process.off('SIGINT', cancel)
        if (live) process.stderr.write('\r\x1b[K')
        process.stdout.write(summary(report))
        if (report.errors.length) {
          process.stderr.write(`Problems${report.errors.length >= 100 ? ' (first 100)' : ''}:\n`)
          for (const e of report.errors.slice(0, 20)) process.stderr.write(`  ${e.step}: ${e.reason}\n`)
          if (report.errors.length > 20) process.stderr.write(`  … ${report.errors.length - 20} more on the console's Data page\n`)
        }
        // A damaged store's message says what to run; running the same pull again would meet the damage again.
        if (report.status !== 'completed') throw new Error(report.failureKind === 'damaged' ? report.failure! : `${report.failure} (what was fetched is kept; run the same pull again to resume)`)
      })
    })
}
