import { type Kysely, type Selectable, sql } from 'kysely'
import type { SessionListItem } from '../../../src-shared/schemas/session'
import type { Database, NewTenant, PulledKind, PullsTable } from '../../db/schema'

/* Listing, finding and interrupting pulls are shared with imports (runs/runs.repo.ts). */

export type PullRow = Selectable<PullsTable>
export type PullProgressColumns = Pick<PullRow, 'requests' | 'retries' | 'counts' | 'errors' | 'updated_at'>

export function insertPull(db: Kysely<Database>, row: PullRow): Promise<unknown> {
  return db.insertInto('pulls').values(row).execute()
}

export function updatePull(db: Kysely<Database>, id: string, set: Partial<Omit<PullRow, 'id'>>): Promise<unknown> {
  return db.updateTable('pulls').set(set).where('id', '=', id).execute()
}

/**
 * Where a new pull of `source` may resume: the start of the first pull that did not complete since
 * the last one that did (null when the last pull completed, or there was none). Steps finished
 * after that moment need not be fetched again.
 */
export async function resumeMark(db: Kysely<Database>, source: string, excludeId: string): Promise<string | null> {
  const lastCompleted = await db
    .selectFrom('pulls')
    .select('started_at')
    .where('source', '=', source)
    .where('status', '=', 'completed')
    .orderBy('started_at', 'desc')
    .limit(1)
    .executeTakeFirst()
  let query = db
    .selectFrom('pulls')
    .select('started_at')
    .where('source', '=', source)
    .where('id', '!=', excludeId)
    .where('status', 'in', ['failed', 'interrupted', 'cancelled'])
  if (lastCompleted) query = query.where('started_at', '>', lastCompleted.started_at)
  const first = await query.orderBy('started_at').limit(1).executeTakeFirst()
  return first?.started_at ?? null
}

export async function getCursor(db: Kysely<Database>, source: string, key: string): Promise<string | null> {
  const row = await db.selectFrom('pull_cursors').select('value').where('source', '=', source).where('key', '=', key).executeTakeFirst()
  return row?.value ?? null
}

/** Cursors whose key starts with `prefix` (a range on the primary key, no LIKE). */
export function cursorsWithPrefix(db: Kysely<Database>, source: string, prefix: string): Promise<Array<{ key: string; value: string }>> {
  const end = prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1)
  return db
    .selectFrom('pull_cursors')
    .select(['key', 'value'])
    .where('source', '=', source)
    .where('key', '>=', prefix)
    .where('key', '<', end)
    .orderBy('key')
    .execute()
}

export function setCursor(db: Kysely<Database>, source: string, key: string, value: string, at: string): Promise<unknown> {
  return db
    .insertInto('pull_cursors')
    .values({ source, key, value, updated_at: at })
    .onConflict((oc) => oc.columns(['source', 'key']).doUpdateSet({ value, updated_at: at }))
    .execute()
}

/** Registers keys not yet known (discovered agents, tenants, squads); known ones keep their value. */
export function addCursors(db: Kysely<Database>, source: string, entries: Array<{ key: string; value: string }>, at: string): Promise<unknown> {
  if (!entries.length) return Promise.resolve()
  return db
    .insertInto('pull_cursors')
    .values(entries.map((e) => ({ source, key: e.key, value: e.value, updated_at: at })))
    .onConflict((oc) => oc.columns(['source', 'key']).doNothing())
    .execute()
}

export function upsertDocument(
  db: Kysely<Database>,
  doc: { source: string; kind: PulledKind; key: string; body: string; fetched_at: string; pull_id: string },
): Promise<unknown> {
  return db
    .insertInto('pulled_documents')
    .values(doc)
    .onConflict((oc) => oc.columns(['source', 'kind', 'key']).doUpdateSet({ body: doc.body, fetched_at: doc.fetched_at, pull_id: doc.pull_id }))
    .execute()
}

/**
 * A source's documents of one kind in key order (the primary key serves it): all, or one page.
 * Sessions are rows (pulled_sessions) and read back as the documents they were: keyed
 * agent/conversation, the item with its agent.
 */
export function listDocuments(db: Kysely<Database>, source: string, kind: PulledKind, page?: { offset: number; limit: number }) {
  if (kind === 'session') {
    let query = db
      .selectFrom('pulled_sessions as s')
      .innerJoin('pulled_agents as a', (join) => join.onRef('a.source', '=', 's.source').onRef('a.id', '=', 's.agent_id'))
      .select((eb) => [
        sql<string>`s.agent_id || '/' || s.conversation_id`.as('key'),
        sql<string>`json_object('agent_id', s.agent_id, 'conversation_id', s.conversation_id, 'created_at', s.created_at, 'updated_at', s.updated_at, 'message_count', s.message_count, 'last_message_preview', s.last_message_preview)`.as('body'),
        eb.ref('a.fetched_at').as('fetched_at'),
        eb.ref('a.pull_id').as('pull_id'),
      ])
      .where('s.source', '=', source)
      .orderBy('s.agent_id')
      .orderBy('s.position')
    if (page) query = query.limit(page.limit).offset(page.offset)
    return query.execute()
  }
  let query = db
    .selectFrom('pulled_documents')
    .select(['key', 'body', 'fetched_at', 'pull_id'])
    .where('source', '=', source)
    .where('kind', '=', kind)
    .orderBy('key')
  if (page) query = query.limit(page.limit).offset(page.offset)
  return query.execute()
}

/** How many documents of each kind a source has (sessions: its pulled session rows). */
export async function countDocuments(db: Kysely<Database>, source: string): Promise<Record<PulledKind, number>> {
  const rows = await db
    .selectFrom('pulled_documents')
    .select((eb) => ['kind', eb.fn.countAll<number>().as('n')])
    .where('source', '=', source)
    .groupBy('kind')
    .execute()
  const counts: Record<PulledKind, number> = { session: 0, squad_analytics: 0, sip_trunks: 0 }
  for (const r of rows) counts[r.kind] = Number(r.n)
  const sessions = await db.selectFrom('pulled_sessions').select((eb) => eb.fn.countAll<number>().as('n')).where('source', '=', source).executeTakeFirstOrThrow()
  counts.session = Number(sessions.n)
  return counts
}

/** A tenant as the remote has it now: inserted, or every field replaced. */
export function upsertTenant(db: Kysely<Database>, row: NewTenant): Promise<unknown> {
  const { id: _id, ...fields } = row
  return db.insertInto('tenants').values(row).onConflict((oc) => oc.column('id').doUpdateSet(fields)).execute()
}

/** A pulled agent's whole sessions listing, in the remote's order. */
export interface PulledListing {
  source: string
  agentId: string
  tenantId: string | null
  items: readonly SessionListItem[]
  fetchedAt: string
  pullId: string
}

/**
 * Replaces what is stored of an agent's listing from one source by the one just fetched, in one
 * transaction: a mirror shows the listing as the remote has it now (sessions it dropped, dropped;
 * counts and previews as they are now), and a reader never sees half of it.
 */
export async function replaceAgentSessions(db: Kysely<Database>, listing: PulledListing): Promise<void> {
  const { source, agentId } = listing
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('pulled_sessions').where('source', '=', source).where('agent_id', '=', agentId).execute()
    // Chunks keep each INSERT under SQLite's 32,766 bound parameters (8 per row).
    for (let start = 0; start < listing.items.length; start += 1000) {
      const rows = listing.items.slice(start, start + 1000).map((item, i) => ({ source, agent_id: agentId, position: start + i, ...item }))
      await trx.insertInto('pulled_sessions').values(rows).execute()
    }
    const agent = { tenant_id: listing.tenantId, fetched_at: listing.fetchedAt, pull_id: listing.pullId }
    await trx
      .insertInto('pulled_agents')
      .values({ source, id: agentId, ...agent })
      .onConflict((oc) => oc.columns(['source', 'id']).doUpdateSet(agent))
      .execute()
  })
}
