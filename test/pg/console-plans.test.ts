import type { CompiledQuery, Kysely } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Database } from '../../src-main/db/schema'
import { callCounts, type CallFilter, callPage } from '../../src-main/modules/calls/calls.repo'
import * as detail from '../../src-main/modules/calls/calls.detail.repo'
import { listAgents } from '../../src-main/modules/agents/agents.repo'
import * as conversations from '../../src-main/modules/conversations/conversations.repo'
import * as overview from '../../src-main/modules/overview/overview.repo'
import { callUsage, listTenants } from '../../src-main/modules/tenants/tenants.repo'
import * as webhooks from '../../src-main/modules/webhooks/webhooks.repo'
import { type PlanNode, pgPlans, planTypes as types } from '../helpers/pg-plans'
import { startTestServer, type TestServer } from '../helpers/test-server'

/*
 * The console's Calls list, call page, Overview and webhook lists on PostgreSQL read by their
 * indexes (issue 20 pt 1), checked with EXPLAIN on the statements the repos run, as
 * test/pg/plans.test.ts does for the spec's operations: a kysely over the store's pool records
 * them; sequential scans are priced out (the demo set is small enough that one may rightly win),
 * so what remains shows which index can serve. A partition's index is named by its parent's.
 */

let server: TestServer
let explainer: ReturnType<typeof pgPlans>
let tenantId = ''
let agentId = ''
let squadId = ''
let callId = ''

beforeAll(async () => {
  server = await startTestServer({ store: 'postgres' })
  explainer = pgPlans(server.service.handle.pg!)
  await explainer.loadPartitionIndexes()
  const call = await server.service.db.selectFrom('calls').select(['id', 'tenant_id', 'agent_id']).orderBy('started_at', 'desc').limit(1).executeTakeFirstOrThrow()
  ;({ id: callId, tenant_id: tenantId } = call)
  agentId = call.agent_id!
  squadId = (await server.service.db.selectFrom('squads').select('id').orderBy('id').executeTakeFirstOrThrow()).id
})

// The recording kysely shares the service's pool, which the service ends.
afterAll(() => server?.close())

/** The plan of one recorded statement, sequential scans priced out and `without` indexes out of the planner's choice. */
const planOf = (query: CompiledQuery, without: string[] = []) => explainer.planOf(query, { without })
const record = (run: (db: Kysely<Database>) => Promise<unknown>) => explainer.record(run)

/** The indexes a plan reads (a partition's index by its parent's name). */
const indexesOf = (plan: PlanNode[]) => explainer.indexesOf(plan)
const seqScans = (plan: PlanNode[]) => plan.filter((n) => n['Node Type'] === 'Seq Scan').map((n) => n['Relation Name'])

/** Every statement `run` executes reads `expected` (one of them, when a RegExp allows several), and no table whole. */
async function expectIndexes(what: string, run: (db: Kysely<Database>) => Promise<unknown>, expected: RegExp[], without: string[] = []): Promise<PlanNode[][]> {
  const plans = await Promise.all((await record(run)).map((query) => planOf(query, without)))
  expect(plans.length, what).toBeGreaterThan(0)
  for (const plan of plans) expect(seqScans(plan), what).toEqual([])
  const read = plans.flatMap(indexesOf)
  for (const index of expected) expect(read, `${what}: ${read.join(', ')}`).toContainEqual(expect.stringMatching(index))
  return plans
}

describe('PostgreSQL plans of the console\'s Calls list and call page', () => {
  it('every filter of the list from its index; newest first from calls_started without a sort', async () => {
    const page = (f: CallFilter) => (db: Kysely<Database>) => callPage(db, f, 'started_at', 'desc', 50, null)
    const [plain] = await expectIndexes('no filter', page({}), [/^calls_started$/])
    expect(types(plain!)).not.toContain('Sort')
    const [after] = await expectIndexes('a later page', (db) => callPage(db, {}, 'started_at', 'desc', 50, { sort: 'started_at', order: 'desc', key: '2026-11-10T00:00:00.000Z', id: callId }), [/^calls_started$/])
    expect(types(after!)).not.toContain('Sort')
    // A squad's page: on the demo set (a fifth of the calls in each squad) the planner walks the
    // newest calls and looks each one's session up by its key, stopping at the page's end; the
    // counts (and a page without calls_started) read the squad's sessions, then their calls.
    await expectIndexes('squad', page({ squad_id: squadId }), [/^calls_(started|conversation)$/, /^conversations_(pkey|squad_created|squad_analytics)$/])
    await expectIndexes('squad: without the time index', page({ squad_id: squadId }), [/^calls_conversation$/, /^conversations_squad_(created|analytics)$/], ['calls_started'])
    await expectIndexes('squad: counts', (db) => callCounts(db, { squad_id: squadId }), [/^calls_conversation$/, /^conversations_squad_(created|analytics)$/])
    const cases: Array<[string, CallFilter, RegExp[]]> = [
      ['tenant', { tenant_id: tenantId }, [/^calls_tenant_started$/]],
      ['agent', { agent_id: agentId }, [/^calls_agent_started$/]],
      ['status', { status: ['failed'] }, [/^calls_status_started$/]],
      ['end reason', { end_reason: ['sip_503'] }, [/^calls_end_reason_started$/]],
      ['direction', { direction: 'outbound' }, [/^calls_(direction_)?started$/]],
      ['phone', { phonePrefix: '+1415' }, [/^calls_from_number$/, /^calls_to_number$/]],
      ['duration', { min_duration_ms: 600_000 }, [/^calls_(duration|started)$/]],
      ['dates', { start_date: '2026-11-18T00:00:00.000Z', end_date: '2026-11-19T00:00:00.000Z' }, [/^calls_started$/]],
    ]
    for (const [what, f, expected] of cases) {
      await expectIndexes(what, page(f), expected)
      // The counts (total, per status, per end reason) read the same index.
      await expectIndexes(`${what}: counts`, (db) => callCounts(db, f), expected)
    }
  })

  it('the call page: the call by its key, its lines by call_logs_call in every month, names by their keys', async () => {
    await expectIndexes('the call', (db) => detail.findCall(db, callId), [/^calls_pkey$/])
    await expectIndexes('its lines', (db) => detail.callLines(db, callId, tenantId, 2000), [/^call_logs_call$/])
    await expectIndexes('how many', (db) => detail.countCallLines(db, callId, undefined), [/^call_logs_call$/])
    await expectIndexes('agents', (db) => detail.agentNames(db, [agentId]), [/^agents_pkey$/])
    await expectIndexes('tenant', (db) => detail.tenantName(db, tenantId), [/^tenants_pkey$/])
    await expectIndexes('squad', (db) => detail.squadName(db, squadId), [/^squads_pkey$/])
  })
})

describe('PostgreSQL plans of the Overview', () => {
  it('days of calls and sessions by their (tenant, time) indexes, error lines by (level, time)', async () => {
    const since = '2026-10-22T00:00:00.000Z'
    for (const scope of [null, tenantId]) {
      await expectIndexes(`calls by day ${scope}`, (db) => overview.callsByDay(db, scope, since), [/^calls_(tenant_)?started$/])
      await expectIndexes(`error lines by day ${scope}`, (db) => overview.errorLogsByDay(db, scope, since), [/^call_logs_(level|tenant)_timestamp$/])
      // Every tenant's sessions of the period: on the demo set (all of it in the period) the planner
      // reads the whole period from any index holding created_at; it can seek each tenant's range.
      await expectIndexes(`busiest agents ${scope}`, (db) => overview.busiestAgents(db, scope, since, 10), [/^conversations_(tenant|squad)_created$/])
      await expectIndexes(`busiest agents ${scope}, by tenant`, (db) => overview.busiestAgents(db, scope, since, 10), [/^conversations_tenant_created$/], ['conversations_squad_created', 'conversations_squad_analytics'])
      const [recent] = await expectIndexes(`recent errors ${scope}`, (db) => overview.recentErrors(db, scope, 20), [/^call_logs_(level|tenant)_timestamp$/])
      // Each level's newest lines come from the index read backwards: only the final 40 rows are sorted.
      expect(types(recent!).filter((t) => t === 'Sort').length).toBeLessThanOrEqual(1)
      // The call log total is summed from the day counts (pg 0004), read whole: a few rows a day, not the lines.
      const counted = await Promise.all((await record((db) => overview.counts(db, scope))).map((query) => planOf(query)))
      const relations = counted.flat().map((n) => n['Relation Name']).filter(Boolean)
      expect(relations.filter((r) => String(r).startsWith('call_logs')), `counts ${scope}`).toEqual([])
      expect(relations, `counts ${scope}`).toContain('call_log_day_counts')
      expect(counted.flatMap(seqScans).filter((r) => r !== 'call_log_day_counts'), `counts ${scope}`).toEqual([])
    }
  })
})

describe('PostgreSQL plans of the console\'s other reads', () => {
  it('a session page: the session, its messages, calls and transfers each by its key or index', async () => {
    const sessionId = (await server.service.db.selectFrom('calls').select('conversation_id').where('id', '=', callId).executeTakeFirstOrThrow()).conversation_id!
    await expectIndexes('the session', (db) => conversations.findConversation(db, sessionId), [/^conversations_pkey$/])
    // A session's few messages by the (conversation_id, position) index (a bitmap read and a sort of those few rows is fine).
    await expectIndexes('its messages', (db) => conversations.listMessages(db, sessionId), [/^messages_conversation_position/])
    await expectIndexes('its calls', (db) => conversations.listCalls(db, sessionId), [/^calls_conversation$/])
    await expectIndexes('its transfers', (db) => conversations.listTransfers(db, sessionId), [/^transfers_conversation/])
  })

  it('agents and tenants: counts of sessions from the agent index, a tenant\'s usage from its (tenant, time) index', async () => {
    await expectIndexes('agents of a tenant', (db) => listAgents(db, { tenantId }), [/^conversations_agent_created$/])
    await expectIndexes('usage', (db) => callUsage(db, tenantId, '2026-11-01T00:00:00.000Z'), [/^calls_tenant_started$/])
    await expectIndexes('one tenant', (db) => listTenants(db, { onlyId: tenantId }), [/^tenants_pkey$/])
  })
})

describe('PostgreSQL plans of the webhook lists and the inbox', () => {
  it('each list by the index ending in its order; replay protection by the partial unique index', async () => {
    await expectIndexes('deliveries', (db) => webhooks.tenantDeliveries(db, tenantId, 50), [/^webhook_deliveries_tenant_created$/])
    await expectIndexes('deliveries counted', (db) => webhooks.countTenantDeliveries(db, tenantId), [/^webhook_deliveries_tenant_created$/])
    await expectIndexes('a call\'s deliveries', (db) => webhooks.callDeliveries(db, callId, 50), [/^webhook_deliveries_call$/])
    await expectIndexes('attempts', (db) => webhooks.listAttempts(db, 'dlv_x'), [/^webhook_attempts_pk$/])
    await expectIndexes('inbox', (db) => webhooks.tenantInbox(db, tenantId, 50), [/^webhook_inbox_tenant_received$/])
    await expectIndexes('a call\'s inbox', (db) => webhooks.callInbox(db, callId, 50), [/^webhook_inbox_call$/])
    await expectIndexes('accepted before', (db) => webhooks.acceptedWithId(db, tenantId, 'msg_x'), [/^webhook_inbox_accepted_id$/])
    await expectIndexes('newest calls to build from', (db) => webhooks.newestCalls(db, tenantId, 'completed', 5), [/^calls_(tenant|status)_started$/])
    await expectIndexes('a session\'s call', (db) => webhooks.callOfSession(db, 'x'), [/^calls_conversation$/])
  })
})
