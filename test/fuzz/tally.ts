import type { Exchange } from './answers'
import type { FuzzRequest } from './requests'

/** Counts over a run, for the summary: requests, answers by status class and by operation, failures. */
export interface Tally {
  requests: number
  byClass: Record<string, number>
  byOperation: Record<string, Record<string, number>>
  transportErrors: number
  serverErrors: number
  violations: string[]
  /** The five slowest exchanges, for a run that takes longer than it should. */
  slowest: Array<{ ms: number; label: string }>
}

export const newTally = (): Tally => ({ requests: 0, byClass: {}, byOperation: {}, transportErrors: 0, serverErrors: 0, violations: [], slowest: [] })

const bump = (counts: Record<string, number>, key: string, by = 1) => (counts[key] = (counts[key] ?? 0) + by)

/** Adds one exchange; a raw request counts as many requests as it pipelined. */
export function count(tally: Tally, request: FuzzRequest, exchange: Exchange, violations: string[], ms: number): void {
  tally.slowest = [...tally.slowest, { ms, label: request.label }].sort((a, b) => b.ms - a.ms).slice(0, 5)
  const sent = request.transport === 'raw' ? request.raw.methods.length : 1
  tally.requests += sent
  const op = (tally.byOperation[request.operation] ??= {})
  bump(op, 'requests', sent)
  for (const answer of exchange.answers) {
    const cls = `${Math.floor(answer.status / 100)}xx`
    bump(tally.byClass, cls)
    bump(op, cls)
    if (answer.status >= 500) tally.serverErrors++
  }
  const silent = sent - exchange.answers.length
  if (silent > 0) bump(tally.byClass, 'unanswered after a close', silent)
  if (exchange.error) tally.transportErrors++
  for (const v of violations) if (tally.violations.length < 50) tally.violations.push(`${v} <- ${request.label}`)
}

const number = (n: number) => n.toLocaleString('en-US')

/** The summary `npm run fuzz` prints and docs/benchmarks.md quotes. */
export function formatSummary(tally: Tally, facts: { seed: number; elapsedMs: number; alive: boolean }): string {
  const classes = Object.entries(tally.byClass).sort().map(([k, v]) => `${k} ${number(v)}`).join(', ')
  const ops = Object.entries(tally.byOperation)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([id, c]) => `  ${id.padEnd(34)} ${number(c.requests ?? 0).padStart(6)}   ${Object.entries(c).filter(([k]) => k !== 'requests').sort().map(([k, v]) => `${k} ${v}`).join(', ')}`)
  return [
    `requests sent:      ${number(tally.requests)} in ${(facts.elapsedMs / 1000).toFixed(1)} s (${number(Math.round(tally.requests / (facts.elapsedMs / 1000)))}/s)`,
    `answers by class:   ${classes}`,
    `transport errors:   ${tally.transportErrors}`,
    `5xx:                ${tally.serverErrors}`,
    `server alive:       ${facts.alive ? 'yes (GET /healthz 200)' : 'NO'}`,
    `seed:               ${facts.seed} (npm run fuzz -- --seed ${facts.seed})`,
    'slowest:',
    ...tally.slowest.map((s) => `  ${s.ms.toFixed(0).padStart(6)} ms  ${s.label.slice(0, 160)}`),
    'by operation:',
    ...ops,
    ...(tally.violations.length > 0 ? ['violations:', ...tally.violations.map((v) => `  ${v}`)] : ['violations:         none']),
  ].join('\n')
}
