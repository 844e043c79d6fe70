/**
 * Soak: many keep-alive connections cycling through a mix of the REST reads for a minute, while the
 * server's resident memory is sampled. Finds leaks (RSS that keeps growing), errors that only appear
 * under sustained load, and connections dropped under pressure.
 */
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import autocannon from 'autocannon'
import Database from 'better-sqlite3'

export interface SoakResult {
  connections: number
  durationS: number
  requests: number
  requestsPerSecond: number
  p50: number
  p99: number
  /** Socket errors, timeouts and non-2xx answers together: the soak's aim is 0. */
  errors: number
  rssBeforeMiB: number
  rssPeakMiB: number
  rssAfterMiB: number
}

/** The mixed reads: every GET of the spec on real ids, call-log pages of several shapes, a few sessions pages. */
export function soakPaths(dbPath: string): string[] {
  const db = new Database(dbPath, { readonly: true })
  try {
    const agents = db.prepare('select agent_id from call_logs where agent_id is not null group by agent_id order by count(*) desc limit 3').pluck().all() as string[]
    const tenant = db.prepare('select id from tenants order by id limit 1').pluck().get() as string
    const squad = db.prepare('select id from squads order by id limit 1').pluck().get() as string
    const provider = 'openai'
    return [
      '/logs/calls?limit=100',
      `/logs/calls?limit=1000&start_date=2026-11-06&end_date=2026-11-13&agent_id=${agents[0]}`,
      `/logs/calls?limit=50&agent_id=${agents[1]}`,
      '/logs/calls?limit=200&start_date=2026-11-19',
      `/agents/${agents[0]}/sessions`,
      `/agents/${agents[2]}/sessions?limit=100&offset=40`,
      `/tenants/${tenant}`,
      `/squads/${squad}/analytics`,
      `/admin/providers/llm/${provider}`,
      '/agents/sip/list-trunks',
    ]
  } finally {
    db.close()
  }
}

/** Resident set size of a process in MiB: /proc on Linux, ps elsewhere. */
export function rssMiB(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8')
    const kib = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1])
    if (Number.isFinite(kib)) return kib / 1024
  } catch {
    // not Linux: fall through to ps
  }
  return Number(execFileSync('ps', ['-o', 'rss=', '-p', String(pid)], { encoding: 'utf8' }).trim()) / 1024
}

/** Runs the soak against a warm server; every path must answer 200 before it starts. */
export async function soak(baseUrl: string, pid: number, token: string, paths: string[], connections: number, durationS: number): Promise<SoakResult> {
  const headers = { authorization: `Bearer ${token}` }
  for (const path of paths) {
    const response = await fetch(`${baseUrl}${path}`, { headers })
    if (response.status !== 200) throw new Error(`soak path ${path} answers ${response.status}: ${await response.text()}`)
    await response.arrayBuffer()
  }
  const rssBeforeMiB = rssMiB(pid)
  let rssPeakMiB = rssBeforeMiB
  const sampler = setInterval(() => (rssPeakMiB = Math.max(rssPeakMiB, rssMiB(pid))), 500)
  try {
    const result = await autocannon({
      url: baseUrl,
      connections,
      duration: durationS,
      headers,
      requests: paths.map((path) => ({ method: 'GET', path })),
    })
    const rssAfterMiB = rssMiB(pid)
    return {
      connections,
      durationS,
      requests: result.requests.total,
      requestsPerSecond: result.requests.average,
      p50: result.latency.p50,
      p99: result.latency.p99,
      errors: result.errors + result.timeouts + result.non2xx,
      rssBeforeMiB,
      rssPeakMiB: Math.max(rssPeakMiB, rssAfterMiB),
      rssAfterMiB,
    }
  } finally {
    clearInterval(sampler)
  }
}
