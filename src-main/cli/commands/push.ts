import { readFileSync } from 'node:fs'
import type { Command } from 'commander'
import { InvalidInputError } from '../../kit/errors'
import type { PushProgress, PushReport } from '../../modules/push/push.service'
import { withService } from '../open-service'
import { parsePositiveInt } from '../options'

const n = (v: number) => v.toLocaleString('en-US')
const rate = (records: number, ms: number) => (ms > 0 ? `${n(Math.round((records * 1000) / ms))} records/s` : '')

/** One line of progress: records sent of the total, the server's counts so far, the rate. */
export const progressLine = (p: PushProgress) =>
  `Pushing ${p.source}: ${n(p.sent)} of ${n(p.total)} call logs sent (${n(p.inserted)} new on the server, ${n(p.duplicates)} already there` +
  `${p.invalid ? `, ${n(p.invalid)} refused` : ''}) | ${rate(p.sent, p.elapsedMs)}`

/** What the push did, per source, and what it does not carry. */
export function summary(r: PushReport): string {
  const head = r.status === 'completed' ? 'Pushed to' : r.status === 'cancelled' ? 'Cancelled pushing to' : 'Stopped pushing to'
  const sent = r.sources.reduce((s, x) => s + x.sent, 0)
  const inserted = r.sources.reduce((s, x) => s + x.inserted, 0)
  const lines = [`${head} ${r.url} in ${(r.durationMs / 1000).toFixed(1)} s${sent ? ` (${rate(sent, r.durationMs)})` : ''}:`]
  for (const s of r.sources) {
    const before = s.pushedBefore ? `, ${n(s.pushedBefore)} pushed there before and not sent again` : ''
    lines.push(
      `  ${s.source}: ${n(s.sent)} of ${n(s.total)} call logs sent${before}: ${n(s.inserted)} new on the server, ${n(s.duplicates)} already there, ${n(s.invalid)} refused` +
        ` (${n(s.uploads)} upload${s.uploads === 1 ? '' : 's'})`,
    )
    if (s.restarted) lines.push(`    ${s.restarted}`)
  }
  const pushedBefore = r.sources.reduce((sum, x) => sum + x.pushedBefore, 0)
  if (r.sources.length === 0) lines.push('  no call logs to push')
  else if (r.status === 'completed' && sent === 0 && pushedBefore > 0) {
    lines.push(`Nothing new since the last push: all ${n(pushedBefore)} call logs were pushed there before (--all sends them again; the server skips what it has).`)
  } else if (r.status === 'completed' && inserted === 0 && sent > 0 && r.sources.every((s) => s.invalid === 0)) {
    lines.push(`Nothing new: the server already had all ${n(sent)} call logs.`)
  }
  lines.push('Only call logs are pushed; tenants, agents, sessions and the other pulled data stay on this machine (docs/api.md, "Push to a team server").', '')
  return lines.join('\n')
}

interface PushCliOptions {
  to: string
  token?: string
  source?: string
  db?: string
  ca?: string
  chunk?: number
  all?: boolean
}

export function registerPush(program: Command): void {
  program
    .command('push')
    .description("upload this store's call logs (or one source's) to a team server (callscope serve); what the server has is skipped")
    .requiredOption('--to <url>', "the team server's base URL (http or https)")
    .option('--token <token>', 'an admin token of the team server (default: $CALLSCOPE_TEAM_TOKEN, which stays out of the process list)')
    .option('--source <name>', 'push only this source: local, or a pulled backend\'s base URL (default: every source, each to the same source on the server)')
    .option('--ca <file>', "PEM certificate to trust for the server instead of the system's authorities (a self-signed team server)")
    .option('--chunk <records>', 'call logs per upload (each is one import on the server)', parsePositiveInt)
    .option('--all', 'send every call log, not only those stored since the last push to this server (it still skips what it has)')
    .option('--db <file>', 'database file (default: $CALLSCOPE_DB or the per-user data folder)')
    .action(async (opts: PushCliOptions, command: Command) => {
      const token = opts.token ?? process.env.CALLSCOPE_TEAM_TOKEN
      if (!token) return command.error('error: a token is needed: pass --token or set CALLSCOPE_TEAM_TOKEN (an admin token of the team server)', { exitCode: 2 })
      let ca: string | undefined
      if (opts.ca !== undefined) {
        try {
          ca = readFileSync(opts.ca, 'utf8')
        } catch (error) {
          return command.error(`error: --ca ${opts.ca}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message}`, { exitCode: 2 })
        }
      }
      await withService(opts.db, async (service) => {
        const live = process.stderr.isTTY
        let shown = 0
        const abort = new AbortController()
        const cancel = () => abort.abort()
        process.once('SIGINT', cancel)
        let report: PushReport
        try {
          report = await service.push.push({
            to: opts.to, token, source: opts.source, ca, chunkRecords: opts.chunk, all: opts.all, signal: abort.signal,
            onProgress: (p) => {
              // A live line on a terminal; elsewhere (a log), one line every 5 s.
              const now = p.elapsedMs
              if (live) {
                if (now - shown >= 200) process.stderr.write(`\r${progressLine(p)}\x1b[K`)
                else return
              } else if (now - shown >= 5000) process.stderr.write(`${progressLine(p)}\n`)
              else return
              shown = now
            },
          })
        } catch (error) {
          if (error instanceof InvalidInputError) return command.error(`error: ${error.message}`, { exitCode: 2 })
          throw error
        } finally {
          process.off('SIGINT', cancel)
          if (live) process.stderr.write('\r\x1b[K')
        }
        process.stdout.write(summary(report))
        if (report.refused.length) {
          const invalid = report.sources.reduce((s, x) => s + x.invalid, 0)
          process.stderr.write(`Refused by the server${invalid > report.refused.length ? ` (first ${report.refused.length} of ${n(invalid)})` : ''}:\n`)
          for (const e of report.refused.slice(0, 20)) process.stderr.write(`  ${e.source} ${e.id}: ${e.reason}\n`)
        }
        if (report.status !== 'completed') throw new Error(`${report.failure} (what the server stored is kept; run the same push again to complete it: what the server has is skipped)`)
      }, { mustExist: true })
    })
}
