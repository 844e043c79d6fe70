import { type Insertable, type Kysely, type Selectable, sql } from 'kysely'
import type { SessionListItem } from '../../../src-shared/schemas/session'
import { nonEmptyText } from '../../lib/non-empty-text'
import type { Database, PulledKind, PulledLlmProvidersTable, PulledSquadAnalyticsTable, PulledTenantsTable, PullsTable } from '../../db/schema'

/* Listing, finding and interrupting pulls are shared with imports (runs/runs.repo.ts). */

export type PullRow = Selectable<PullsTable>
export type PullProgressColumns = Pick<PullRow, 'requests' | 'retries' | 'counts' | 'errors' | 'updated_at'>

export function insertPull(db: Kysely<Database>, row: PullRow): Promise<unknown> {
  return db.insertInto('pulls').values(row).execute()
}

/** Newest first (the id orders pulls started at the same moment); a sync's cycles only when asked. */
export function listPulls(db: Kysely<Database>, limit: number, syncCycles: boolean): Promise<PullRow[]> {
  let query = db.selectFrom('pulls').selectAll()
  if (!syncCycles) query = query.where('sync', '=', 0)
  return query.orderBy('started_at', 'desc').orderBy('id').limit(limit).execute()
}

/** The update of a pull's record, to run (updatePull) or to compile for a write job (a bulk load's). */
export const updatePullQuery = (db: Kysely<Database>, id: string, set: Partial<Omit<PullRow, 'id'>>) => db.updateTable('pulls').set(set).where('id', '=', id)

export function updatePull(db: Kysely<Database>, id: string, set: Partial<Omit<PullRow, 'id'>>): Promise<unknown> {
  return updatePullQuery(db, id, set).execute()
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

/** A cursor set, to run (setCursor) or to compile for a write job (a bulk load's). */
export const setCursorQuery = (db: Kysely<Database>, source: string, key: string, value: string, at: string) =>
  db
    .insertInto('pull_cursors')
    .values({ source, key, value, updated_at: at })
    .onConflict((oc) => oc.columns(['source', 'key']).doUpdateSet({ value, updated_at: at }))

export function setCursor(db: Kysely<Database>, source: string, key: string, value: string, at: string): Promise<unknown> {
  return setCursorQuery(db, source, key, value, at).execute()
}

/** Keys registered unless known (addCursors); at least one entry. */
export const addCursorsQuery = (db: Kysely<Database>, source: string, entries: Array<{ key: string; value: string }>, at: string) =>
  db
    .insertInto('pull_cursors')
    .values(entries.map((e) => ({ source, key: e.key, value: e.value, updated_at: at })))
    .onConflict((oc) => oc.columns(['source', 'key']).doNothing())

/** Registers keys not yet known (discovered agents, tenants, squads); known ones keep their value. */
export function addCursors(db: Kysely<Database>, source: string, entries: Array<{ key: string; value: string }>, at: string): Promise<unknown> {
  if (!entries.length) return Promise.resolve()
  return addCursorsQuery(db, source, entries, at).execute()
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

/** A pulled document as the Data page's browser lists it. */
export interface PulledDocumentRow {
  key: string
  body: string
  fetched_at: string
  pull_id: string
}

/**
 * A source's documents of one kind in key order: all, or one page. What is stored as rows reads
 * back as the documents it came from: sessions keyed agent/conversation (the item with its agent),
 * squad analytics keyed by squad, LLM provider details by provider, and a trunk list stored as rows as one `*` document
 * `{ "trunks": [...] }` after any kept whole.
 */
export async function listDocuments(db: Kysely<Database>, source: string, kind: PulledKind, page?: { offset: number; limit: number }): Promise<PulledDocumentRow[]> {
  const paged = <Q extends { limit(n: number): Q; offset(n: number): Q }>(query: Q) => (page ? query.limit(page.limit).offset(page.offset) : query)
  if (kind === 'session') {
    return paged(
      db
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
        .orderBy('s.position'),
    ).execute()
  }
  if (kind === 'llm_provider') {
    return paged(
      db
        .selectFrom('pulled_llm_providers')
        .select(['provider as key', 'body', 'fetched_at', 'pull_id'])
        .where('source', '=', source)
        .orderBy('provider'),
    ).execute()
  }
  if (kind === 'squad_analytics') {
    return paged(
      db
        .selectFrom('pulled_squad_analytics')
        .select(['squad_id as key', 'body', 'fetched_at', 'pull_id'])
        .where('source', '=', source)
        .orderBy('squad_id'),
    ).execute()
  }
  const documents = await db
    .selectFrom('pulled_documents')
    .select(['key', 'body', 'fetched_at', 'pull_id'])
    .where('source', '=', source)
    .where('kind', '=', kind)
    .orderBy('key')
    .execute()
  const rows = await db.selectFrom('pulled_sip_trunks').select(['body', 'fetched_at', 'pull_id']).where('source', '=', source).orderBy('position').execute()
  if (rows.length) documents.push({ key: '*', body: `{"trunks":[${rows.map((r) => r.body).join(',')}]}`, fetched_at: rows[0]!.fetched_at, pull_id: rows[0]!.pull_id })
  return page ? documents.slice(page.offset, page.offset + page.limit) : documents
}

/** How many documents of each kind a source has, counted as listDocuments lists them. */
export async function countDocuments(db: Kysely<Database>, source: string): Promise<Record<PulledKind, number>> {
  const count = async (table: 'pulled_sessions' | 'pulled_squad_analytics' | 'pulled_sip_trunks' | 'pulled_llm_providers') =>
    Number((await db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).where('source', '=', source).executeTakeFirstOrThrow()).n)
  const trunkDocuments = await db
    .selectFrom('pulled_documents')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('source', '=', source)
    .where('kind', '=', 'sip_trunks')
    .executeTakeFirstOrThrow()
  return {
    session: await count('pulled_sessions'),
    squad_analytics: await count('pulled_squad_analytics'),
    sip_trunks: Number(trunkDocuments.n) + ((await count('pulled_sip_trunks')) > 0 ? 1 : 0),
    llm_provider: await count('pulled_llm_providers'),
  }
}

/** A tenant as the remote has it now: inserted, or every field replaced. */
/** A pulled tenant profile, keyed by its backend: another backend's tenant with the same id is another row (0018). */
export function upsertPulledTenant(db: Kysely<Database>, row: Insertable<PulledTenantsTable>): Promise<unknown> {
  const { source: _source, id: _id, ...fields } = row
  return db.insertInto('pulled_tenants').values(row).onConflict((oc) => oc.columns(['source', 'id']).doUpdateSet(fields)).execute()
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

/** A source's stored listing of one agent, in the remote's order; null when the agent was never fetched from it. */
export async function storedListing(db: Kysely<Database>, source: string, agentId: string): Promise<SessionListItem[] | null> {
  const agent = await db.selectFrom('pulled_agents').select('id').where('source', '=', source).where('id', '=', agentId).executeTakeFirst()
  if (!agent) return null
  return db
    .selectFrom('pulled_sessions')
    .select(['conversation_id', 'created_at', 'updated_at', 'message_count', 'last_message_preview'])
    .where('source', '=', source)
    .where('agent_id', '=', agentId)
    .orderBy('position')
    .execute()
}

/** A squad's pulled analytics, inserted or replaced by the latest fetch. */
export function upsertSquadAnalytics(db: Kysely<Database>, row: Insertable<PulledSquadAnalyticsTable>): Promise<unknown> {
  const { source: _s, squad_id: _q, ...fields } = row
  return db.insertInto('pulled_squad_analytics').values(row).onConflict((oc) => oc.columns(['source', 'squad_id']).doUpdateSet(fields)).execute()
}

export function upsertLlmProvider(db: Kysely<Database>, row: Insertable<PulledLlmProvidersTable>): Promise<unknown> {
  const { source: _s, provider: _p, ...fields } = row
  return db.insertInto('pulled_llm_providers').values(row).onConflict((oc) => oc.columns(['source', 'provider']).doUpdateSet(fields)).execute()
}

/** A source's SIP trunk list replaced by the one just fetched, one row per trunk in its order, in one transaction. */
export async function replaceSipTrunks(db: Kysely<Database>, source: string, trunks: ReadonlyArray<Record<string, unknown>>, fetchedAt: string, pullId: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('pulled_sip_trunks').where('source', '=', source).execute()
    if (!trunks.length) return
    await trx
      .insertInto('pulled_sip_trunks')
      .values(trunks.map((t, position) => ({ source, position, sip_trunk_id: nonEmptyText(t.sip_trunk_id), tenant_id: nonEmptyText(t.tenant_id), body: JSON.stringify(t), fetched_at: fetchedAt, pull_id: pullId })))
      .execute()
  })
}
