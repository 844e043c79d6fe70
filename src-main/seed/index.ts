import type { WriteContext } from '../db/write-job'
import { dropIndexesAndTriggers, prepareInsert, withIndexesDeferred, withRollbackJournal } from '../db/bulk-insert'
import { clearMessageIndexes, rebuildMessageIndexes } from '../db/message-indexes'
import type { Database } from '../db/schema'
import { type Incident, type Row, type StoryContext, writeConversation } from './conversation-story'
import { buildOrganization, type Organization } from './organization'
import { createRng, type Rng } from './rng'
import { SEED_SCALES, type SeedScaleName } from './scales'
import { writeTenantRollups } from './tenant-rollups'

export interface SeedOptions {
  scale: SeedScaleName
  seed: number
  /** End of the generated history (ms since epoch). Same seed and anchor give the same data. */
  anchor: number
  /** Replace the existing domain data (tenants and everything under them, call logs). */
  reset?: boolean
  onProgress?: (progress: { logs: number; targetLogs: number }) => void
  /**
   * A scratch store whose rows are copied elsewhere (a PostgreSQL store's seed, pg-seed.ts): the
   * call log indexes and full-text tables are left unbuilt. At the team scale they would double a
   * scratch file of 14 GB and its time, for a store read once by rowid and then deleted.
   */
  rowsOnly?: boolean
}

export interface SeedResult {
  tenants: number
  agents: number
  squads: number
  conversations: number
  messages: number
  calls: number
  transfers: number
  callLogs: number
  ms: number
  /** Where the time went: generating and inserting rows, building call log indexes, the FTS index. */
  phases: { generateMs: number; indexMs: number; ftsMs: number; commitMs: number }
}

export class SeedError extends Error {}

const DAY = 86_400_000
const HOUR = 3_600_000
/** Call volume by UTC hour: a business-hours peak spanning Europe and the Americas. */
const HOUR_WEIGHTS = [2, 1.5, 1, 1, 1, 1.5, 2.5, 4, 6, 8, 9, 10, 10, 10.5, 11, 11, 10.5, 9.5, 8, 6.5, 5, 4, 3, 2.5]
const HOURS = HOUR_WEIGHTS.map((_, i) => i)

/** Tables holding demo/domain data, children first so deletes respect foreign keys. */
/** The tables the seed fills, children first: what `--reset` empties, with every call log. */
export const DOMAIN_TABLES = [
  'transfers',
  'calls',
  'messages',
  'conversations',
  'squad_members',
  'squads',
  'sip_inbound_trunks',
  'agents',
  'tenants',
] as const

export function floorToHour(ms: number): number {
  return Math.floor(ms / HOUR) * HOUR
}

function columnsOf(row: Row): string[] {
  return Object.keys(row)
}

/** What the seed writes with: the writing connection, and kysely to compile its inserts. */
type SeedTarget = Pick<WriteContext, 'sqlite' | 'db'>

/** A writer that learns its column list from the first row and prepares its statement once. */
function rowWriter(handle: SeedTarget, table: keyof Database, count: { n: number }) {
  let columns: string[] | null = null
  let run: ((values: readonly unknown[]) => void) | null = null
  return (row: Row) => {
    if (!columns) {
      columns = columnsOf(row)
      run = prepareInsert(handle.db, handle.sqlite, table, columns as never)
    }
    run!(columns.map((c) => row[c] ?? null))
    count.n++
  }
}

function incidentsFor(rng: Rng, org: Organization, anchor: number, days: number): Incident[] {
  const incidents: Incident[] = []
  const start = (dayBack: number, hour: number) => anchor - dayBack * DAY + (hour - new Date(anchor).getUTCHours()) * HOUR
  const llmProvider = rng.pick(org.agents).llm.provider
  incidents.push({ kind: 'llm', target: llmProvider, start: start(Math.min(days - 2, 6), 14), end: start(Math.min(days - 2, 6), 17), probability: 0.45, label: `${llmProvider} latency incident` })
  const sttProvider = rng.pick(org.agents).stt.provider
  incidents.push({ kind: 'stt', target: sttProvider, start: start(Math.min(days - 3, 12), 9), end: start(Math.min(days - 3, 12), 11), probability: 0.35, label: `${sttProvider} rate limiting` })
  if (org.trunks.length > 0) {
    const trunk = rng.pick(org.trunks)
    incidents.push({ kind: 'sip', target: trunk.id, start: start(3, 16), end: start(3, 18), probability: 0.5, label: `carrier outage on ${trunk.id}` })
  }
  const tenant = rng.pick(org.tenants)
  incidents.push({ kind: 'tool', target: tenant.id, start: start(Math.min(days - 4, 20), 10), end: start(Math.min(days - 4, 20), 16), probability: 0.4, label: `${tenant.name} backend errors` })
  return incidents
}

function pickStart(rng: Rng, spanStart: number, days: number): number {
  for (;;) {
    const dayStart = spanStart + rng.int(0, days - 1) * DAY
    const weekday = new Date(dayStart).getUTCDay()
    if ((weekday === 0 || weekday === 6) && rng.bool(0.45)) continue
    const at = Math.floor(dayStart / DAY) * DAY + rng.weighted(HOURS, HOUR_WEIGHTS) * HOUR + rng.int(0, HOUR - 1)
    // Calendar days overhang the period at both ends; only moments inside it count.
    if (at >= spanStart && at < spanStart + days * DAY) return at
  }
}

export const SEED_HELD_DATA = 'the database already holds data; pass --reset to replace it (API tokens and settings are kept)'

/** Fills the store with coherent demo data, in one transaction: all of it lands or none. */
export function seedDatabase(handle: SeedTarget, options: SeedOptions): SeedResult {
  const started = performance.now()
  const scale = SEED_SCALES[options.scale]
  const { sqlite } = handle
  const existing = sqlite.prepare('select (select count(*) from tenants) + (select count(*) from call_logs) as n').get() as { n: number }
  if (existing.n > 0 && !options.reset) {
    throw new SeedError(SEED_HELD_DATA)
  }

  const counts = { tenants: { n: 0 }, agents: { n: 0 }, squads: { n: 0 }, members: { n: 0 }, trunks: { n: 0 }, conversations: { n: 0 }, messages: { n: 0 }, calls: { n: 0 }, transfers: { n: 0 }, logs: { n: 0 } }
  const rng = createRng(options.seed)
  const org = buildOrganization(rng.fork('organization'), scale, options.anchor)
  const storyRng = rng.fork('stories')
  const write = {
    tenant: rowWriter(handle, 'tenants', counts.tenants),
    agent: rowWriter(handle, 'agents', counts.agents),
    squad: rowWriter(handle, 'squads', counts.squads),
    member: rowWriter(handle, 'squad_members', counts.members),
    trunk: rowWriter(handle, 'sip_inbound_trunks', counts.trunks),
    conversation: rowWriter(handle, 'conversations', counts.conversations),
    message: rowWriter(handle, 'messages', counts.messages),
    call: rowWriter(handle, 'calls', counts.calls),
    transfer: rowWriter(handle, 'transfers', counts.transfers),
    log: rowWriter(handle, 'call_logs', counts.logs),
  }
  const ctx: StoryContext = {
    rng: storyRng,
    anchor: options.anchor,
    org,
    incidents: incidentsFor(rng.fork('incidents'), org, options.anchor, scale.days),
    write,
  }

  const phases = { generateMs: 0, indexMs: 0, ftsMs: 0, commitMs: 0 }
  const run = sqlite.transaction(() => {
    if (options.reset) {
      sqlite.prepare('delete from call_logs').run()
      clearMessageIndexes(sqlite)
      for (const table of DOMAIN_TABLES) sqlite.prepare(`delete from ${table}`).run()
    }
    for (const t of org.tenants) write.tenant(t.row)
    for (const a of org.agents) write.agent(a.row)
    for (const s of org.squads) {
      write.squad(s.rows.squad)
      for (const m of s.rows.members) write.member(m)
    }
    for (const t of org.trunks) write.trunk(t.row)

    let mark = performance.now()
    const lap = () => {
      const now = performance.now()
      const ms = Math.round(now - mark)
      mark = now
      return ms
    }
    const generate = () => {
      generateTraffic(ctx, org, scale.days, scale.targetLogs, () => counts.logs.n, options.onProgress)
      writeTenantRollups(ctx, org, scale.days)
      phases.generateMs = lap()
    }
    if (options.rowsOnly) {
      dropIndexesAndTriggers(sqlite, 'call_logs')
      generate()
    } else {
      withIndexesDeferred(sqlite, 'call_logs', generate)
      phases.indexMs = lap()
      rebuildMessageIndexes(sqlite)
      phases.ftsMs = lap()
    }
    applyUsage(handle, org, options.anchor)
  })
  withRollbackJournal(sqlite, run)
  const beforeOptimize = performance.now()
  sqlite.pragma('optimize')
  phases.commitMs = Math.round(performance.now() - beforeOptimize)

  return {
    tenants: counts.tenants.n,
    agents: counts.agents.n,
    squads: counts.squads.n,
    conversations: counts.conversations.n,
    messages: counts.messages.n,
    calls: counts.calls.n,
    transfers: counts.transfers.n,
    callLogs: counts.logs.n,
    ms: Math.round(performance.now() - started),
    phases,
  }
}

function generateTraffic(
  ctx: StoryContext,
  org: Organization,
  days: number,
  targetLogs: number,
  logCount: () => number,
  onProgress: SeedOptions['onProgress'],
): void {
  const { rng } = ctx
  const spanStart = ctx.anchor - days * DAY
  const tenants = org.tenants
  const tenantWeights = tenants.map((t) => (t.status === 'suspended' ? t.weight * 0.3 : t.weight))
  const agentsByTenant = new Map(tenants.map((t) => [t.id, org.agents.filter((a) => a.tenantId === t.id && a.active)]))
  const squadsByAgent = new Map<string, typeof org.squads>()
  for (const s of org.squads) for (const m of s.members) squadsByAgent.set(m.id, [...(squadsByAgent.get(m.id) ?? []), s])
  const trunksByTenant = new Map(tenants.map((t) => [t.id, org.trunks.filter((k) => k.tenantId === t.id)]))

  let nextReport = 0
  while (logCount() < targetLogs) {
    const tenant = rng.weighted(tenants, tenantWeights)
    const agents = agentsByTenant.get(tenant.id)!
    if (agents.length === 0) continue
    const agent = rng.weighted(agents, agents.map((a) => a.weight))
    const squads = squadsByAgent.get(agent.id) ?? []
    const squad = squads.length > 0 && rng.bool(0.75) ? rng.pick(squads) : null
    const trunks = trunksByTenant.get(tenant.id)!
    const voice = rng.bool(0.78)
    const trunk = voice && trunks.length > 0 ? rng.pick(trunks) : null
    writeConversation(ctx, { tenant, agent, squad, trunk }, pickStart(rng, spanStart, days), voice)
    if (onProgress && logCount() >= nextReport) {
      onProgress({ logs: logCount(), targetLogs })
      nextReport = logCount() + 10_000
    }
  }
  onProgress?.({ logs: logCount(), targetLogs })
}

/** Monthly usage and call limits follow from the calls generated: 9 cents a minute this month. */
function applyUsage(handle: SeedTarget, org: Organization, anchor: number): void {
  const monthStart = new Date(anchor)
  monthStart.setUTCDate(1)
  monthStart.setUTCHours(0, 0, 0, 0)
  const usage = handle.sqlite.prepare<[string, string], { calls: number; ms: number | null }>(
    `select count(*) as calls, sum(duration_ms) as ms from calls where tenant_id = ? and started_at >= ?`,
  )
  const update = handle.sqlite.prepare('update tenants set monthly_usage_cents = ?, monthly_call_limit = ? where id = ?')
  org.tenants.forEach((tenant, i) => {
    const { calls, ms } = usage.get(tenant.id, monthStart.toISOString())!
    const cents = tenant.plan === 'trial' ? 0 : Math.round(((ms ?? 0) / 60000) * 9)
    // One tenant runs close to its limit, the others have headroom; limits are round numbers.
    const headroom = i === 1 ? 1.08 : 2 + (i % 3)
    const limit = Math.max(100, Math.ceil((calls * headroom) / 500) * 500)
    update.run(cents, limit, tenant.id)
  })
}
