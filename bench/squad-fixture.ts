import { rmSync } from 'node:fs'
import { openDatabase } from '../src-main/db/connection'
import { migrateToLatest } from '../src-main/db/migrate'
import { createRng } from '../src-main/seed/rng'

export const BENCH_SQUAD = 'cccccccc-cccc-4ccc-8ccc-cccccccccccc'
const TENANT = '11111111-1111-4111-8111-111111111111'
const OTHER_SQUAD = 'cccccccc-cccc-4ccc-8ccc-ccccccccccc2'
const DAY = 86_400_000
const T = '2025-01-01T00:00:00.000Z'

/**
 * The squad analytics benchmark's data, as the issue states it: one squad with 100,000 sessions,
 * all in the default period (the last 30 days, the most work for one request), 12 % transferred,
 * beside a second squad of 30,000 sessions as noise; `history` adds that many older sessions of
 * the squad, outside the period. Built with prepared statements.
 */
export async function buildSquadFixture(path: string, options: { history?: number; now?: number } = {}): Promise<void> {
  const now = options.now ?? Date.now()
  for (const p of [path, `${path}-wal`, `${path}-shm`]) rmSync(p, { force: true })
  const handle = openDatabase({ path })
  await migrateToLatest(handle.db)
  const db = handle.sqlite
  const rng = createRng('squad-bench')
  db.prepare("insert into tenants (id, name, billing_plan, created_at, updated_at) values (?, 'Bench', 'enterprise', ?, ?)").run(TENANT, T, T)
  const agents = Array.from({ length: 12 }, () => rng.uuid())
  const insertAgent = db.prepare(
    `insert into agents (id, tenant_id, name, languages, primary_language, llm_provider, llm_model, stt_provider, stt_model, tts_provider, tts_model, created_at, updated_at)
     values (?, ?, ?, '["en"]', 'en', 'openai', 'gpt-4.1-mini', 'deepgram', 'nova-3', 'elevenlabs', 'eleven_flash_v2_5', ?, ?)`,
  )
  agents.forEach((a, i) => insertAgent.run(a, TENANT, `Agent ${i + 1}`, T, T))
  const squads: Array<[string, string[]]> = [[BENCH_SQUAD, agents.slice(0, 8)], [OTHER_SQUAD, agents.slice(6)]]
  for (const [id, members] of squads) {
    db.prepare("insert into squads (id, tenant_id, name, routing_strategy, created_at, updated_at) values (?, ?, ?, 'least_busy', ?, ?)").run(id, TENANT, id === BENCH_SQUAD ? 'Front Desk' : 'Other', T, T)
    members.forEach((a, k) => db.prepare('insert into squad_members (squad_id, agent_id, role, priority, joined_at) values (?, ?, ?, ?, ?)').run(id, a, k === 0 ? 'lead' : 'member', k, T))
  }
  const conversation = db.prepare(
    `insert into conversations (id, tenant_id, agent_id, squad_id, channel, language, status, routing_strategy, wait_ms, resolved, created_at, updated_at, ended_at)
     values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  )
  const transfer = db.prepare(
    `insert into transfers (id, tenant_id, squad_id, conversation_id, from_agent_id, to_agent_id, reason, outcome, latency_ms, requested_at)
     values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  )
  const languages = ['en', 'en', 'en', 'es', 'fr', 'de', 'ar', 'hi']
  const reasons = ['language', 'escalation', 'skill', 'overflow', 'customer_request', 'after_hours']
  const write = (squad: string, members: string[], start: number, span: number, count: number) => {
    for (let i = 0; i < count; i++) {
      const id = rng.uuid()
      const created = start + Math.floor(rng.next() * span)
      const live = rng.bool(0.01)
      const transferred = rng.bool(0.12)
      const agent = rng.pick(members)
      const iso = new Date(created).toISOString()
      conversation.run(
        id, TENANT, agent, squad, rng.bool(0.7) ? 'voice' : 'chat', rng.pick(languages),
        live ? 'active' : transferred ? 'transferred' : 'completed', created < now - 15 * DAY ? 'round_robin' : 'least_busy',
        rng.int(200, 9000), live ? null : rng.bool(0.8) ? 1 : 0, iso, iso, live ? null : new Date(created + rng.int(30_000, 900_000)).toISOString(),
      )
      if (transferred) {
        const to = rng.pick(members.filter((m) => m !== agent))
        transfer.run(rng.uuid(), TENANT, squad, id, agent, to, rng.pick(reasons), rng.bool(0.84) ? 'success' : 'failed', rng.int(400, 30_000), new Date(created + 60_000).toISOString())
      }
    }
  }
  db.transaction(() => {
    write(BENCH_SQUAD, agents.slice(0, 8), now - 30 * DAY + 60_000, 30 * DAY - 3_600_000, 100_000)
    // Optional older history of the same squad, outside the period.
    if (options.history) write(BENCH_SQUAD, agents.slice(0, 8), now - 400 * DAY, 370 * DAY, options.history)
    write(OTHER_SQUAD, agents.slice(6), now - 30 * DAY, 30 * DAY, 30_000)
  })()
  await handle.close()
}
