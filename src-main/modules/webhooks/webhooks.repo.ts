import type { Insertable, Kysely, Selectable, Updateable } from 'kysely'
import type { Database, WebhookAttemptsTable, WebhookDeliveriesTable, WebhookInboxTable, WebhookSecretsTable } from '../../db/schema'

/*
 * The webhook tables (migration 0016). Every list is by an index ending in its order:
 * webhook_deliveries_tenant_created, webhook_deliveries_call, webhook_inbox_tenant_received,
 * webhook_inbox_call; replay protection is the partial unique index webhook_inbox_accepted_id.
 * test/http/webhooks.test.ts checks the plans.
 */

export type SecretRow = Selectable<WebhookSecretsTable>
export type DeliveryRow = Selectable<WebhookDeliveriesTable>
export type AttemptRow = Selectable<WebhookAttemptsTable>
export type InboxRow = Selectable<WebhookInboxTable>

// Secrets

export function findSecret(db: Kysely<Database>, tenantId: string): Promise<SecretRow | undefined> {
  return db.selectFrom('webhook_secrets').selectAll().where('tenant_id', '=', tenantId).executeTakeFirst()
}

/** Inserts or replaces the tenant's one secret. */
export async function putSecret(db: Kysely<Database>, row: SecretRow): Promise<void> {
  await db
    .insertInto('webhook_secrets')
    .values(row)
    .onConflict((oc) => oc.column('tenant_id').doUpdateSet({ secret: row.secret, hint: row.hint, created_at: row.created_at }))
    .execute()
}

// Deliveries and attempts

export async function insertDelivery(db: Kysely<Database>, row: Insertable<WebhookDeliveriesTable>): Promise<void> {
  await db.insertInto('webhook_deliveries').values(row).execute()
}

export async function updateDelivery(db: Kysely<Database>, id: string, set: Updateable<WebhookDeliveriesTable>): Promise<void> {
  await db.updateTable('webhook_deliveries').set(set).where('id', '=', id).execute()
}

/** An attempt and the delivery's state after it, in one transaction: the log never shows one without the other. */
export async function recordAttempt(db: Kysely<Database>, attempt: Selectable<WebhookAttemptsTable>, delivery: Updateable<WebhookDeliveriesTable>): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.insertInto('webhook_attempts').values(attempt).execute()
    await trx.updateTable('webhook_deliveries').set(delivery).where('id', '=', attempt.delivery_id).execute()
  })
}

export function findDelivery(db: Kysely<Database>, id: string): Promise<DeliveryRow | undefined> {
  return db.selectFrom('webhook_deliveries').selectAll().where('id', '=', id).executeTakeFirst()
}

export function listAttempts(db: Kysely<Database>, deliveryId: string): Promise<AttemptRow[]> {
  return db.selectFrom('webhook_attempts').selectAll().where('delivery_id', '=', deliveryId).orderBy('number').execute()
}

/** The columns a list shows: everything but the body. */
const DELIVERY_LIST_COLUMNS = [
  'id', 'tenant_id', 'event_type', 'webhook_id', 'call_id', 'url', 'source', 'status', 'attempt_count', 'max_attempts',
  'next_attempt_at', 'last_status', 'last_error_kind', 'pid', 'created_at', 'updated_at', 'finished_at', 'replay_of',
] as const
export type DeliveryListRow = Pick<DeliveryRow, (typeof DELIVERY_LIST_COLUMNS)[number]>

/** A tenant's deliveries, newest first (webhook_deliveries_tenant_created). */
export function tenantDeliveries(db: Kysely<Database>, tenantId: string, limit: number): Promise<DeliveryListRow[]> {
  return db
    .selectFrom('webhook_deliveries')
    .select(DELIVERY_LIST_COLUMNS)
    .where('tenant_id', '=', tenantId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute()
}

/** A call's deliveries, newest first (webhook_deliveries_call). */
export function callDeliveries(db: Kysely<Database>, callId: string, limit: number): Promise<DeliveryListRow[]> {
  return db
    .selectFrom('webhook_deliveries')
    .select(DELIVERY_LIST_COLUMNS)
    .where('call_id', '=', callId)
    .orderBy('created_at', 'desc')
    .limit(limit)
    .execute()
}

export async function countTenantDeliveries(db: Kysely<Database>, tenantId: string): Promise<number> {
  const row = await db.selectFrom('webhook_deliveries').select((eb) => eb.fn.countAll<number>().as('n')).where('tenant_id', '=', tenantId).executeTakeFirstOrThrow()
  return Number(row.n)
}

// Inbox

export async function insertInbox(db: Kysely<Database>, row: Insertable<WebhookInboxTable>): Promise<void> {
  await db.insertInto('webhook_inbox').values(row).execute()
}

/** The accepted event that used this webhook-id before, if any (webhook_inbox_accepted_id). */
export function acceptedWithId(db: Kysely<Database>, tenantId: string, webhookId: string) {
  return db
    .selectFrom('webhook_inbox')
    .select(['id', 'received_at'])
    .where('tenant_id', '=', tenantId)
    .where('webhook_id', '=', webhookId)
    .where('status', '=', 'accepted')
    .executeTakeFirst()
}

/** A tenant's inbox, newest first (webhook_inbox_tenant_received). */
export function tenantInbox(db: Kysely<Database>, tenantId: string, limit: number): Promise<InboxRow[]> {
  return db.selectFrom('webhook_inbox').selectAll().where('tenant_id', '=', tenantId).orderBy('received_at', 'desc').orderBy('id', 'desc').limit(limit).execute()
}

/** A call's received events, oldest first as a timeline reads (webhook_inbox_call). */
export function callInbox(db: Kysely<Database>, callId: string, limit: number): Promise<InboxRow[]> {
  return db.selectFrom('webhook_inbox').selectAll().where('call_id', '=', callId).orderBy('received_at').limit(limit).execute()
}

export async function countTenantInbox(db: Kysely<Database>, tenantId: string): Promise<number> {
  const row = await db.selectFrom('webhook_inbox').select((eb) => eb.fn.countAll<number>().as('n')).where('tenant_id', '=', tenantId).executeTakeFirstOrThrow()
  return Number(row.n)
}

/**
 * Keeps a tenant's newest `keep` rejected requests and deletes older ones: the inbox takes requests
 * without a token, so what it stores of the ones it refuses must stay bounded.
 */
export async function pruneRejected(db: Kysely<Database>, tenantId: string, keep: number): Promise<void> {
  const cutoff = await db
    .selectFrom('webhook_inbox')
    .select(['received_at', 'id'])
    .where('tenant_id', '=', tenantId)
    .where('status', '=', 'rejected')
    .orderBy('received_at', 'desc')
    .orderBy('id', 'desc')
    .offset(keep)
    .limit(1)
    .executeTakeFirst()
  if (!cutoff) return
  await db
    .deleteFrom('webhook_inbox')
    .where('tenant_id', '=', tenantId)
    .where('status', '=', 'rejected')
    .where('received_at', '<=', cutoff.received_at)
    .execute()
}

// Settings

const ALLOW_PRIVATE_KEY = 'webhooks.allow_private_targets'

export async function allowPrivateTargets(db: Kysely<Database>): Promise<boolean> {
  const row = await db.selectFrom('settings').select('value').where('key', '=', ALLOW_PRIVATE_KEY).executeTakeFirst()
  return row ? JSON.parse(row.value) === true : false
}

export async function setAllowPrivateTargets(db: Kysely<Database>, allow: boolean, now: string): Promise<void> {
  await db
    .insertInto('settings')
    .values({ key: ALLOW_PRIVATE_KEY, value: JSON.stringify(allow), updated_at: now })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value: JSON.stringify(allow), updated_at: now }))
    .execute()
}

// Stored calls and sessions to build events from

export type EventCallFilter = 'any' | 'completed' | 'failed' | 'transferred'

/** The tenant's newest calls of a kind (calls_tenant_started, read backwards). */
export function newestCalls(db: Kysely<Database>, tenantId: string, filter: EventCallFilter, limit: number) {
  let q = db.selectFrom('calls').select(['id']).where('tenant_id', '=', tenantId)
  if (filter === 'completed') q = q.where('status', '=', 'completed')
  if (filter === 'failed') q = q.where('status', '=', 'failed')
  if (filter === 'transferred') q = q.where('end_reason', 'in', ['transferred', 'transfer_failed'])
  return q.orderBy('started_at', 'desc').limit(limit).execute()
}

/** A session with the facts session.ended carries. */
export function findSession(db: Kysely<Database>, id: string) {
  return db
    .selectFrom('conversations')
    .select((eb) => [
      'id', 'tenant_id', 'agent_id', 'channel', 'status', 'language', 'resolved', 'created_at', 'ended_at',
      eb.selectFrom('messages').select((m) => m.fn.countAll<number>().as('n')).whereRef('messages.conversation_id', '=', 'conversations.id').as('message_count'),
    ])
    .where('id', '=', id)
    .executeTakeFirst()
}

/** The tenant's newest ended session (conversations_tenant_created, read backwards). */
export function newestEndedSession(db: Kysely<Database>, tenantId: string) {
  return db
    .selectFrom('conversations')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where('ended_at', 'is not', null)
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirst()
}

/** The call that carried a session, if one did (calls_conversation). */
export function callOfSession(db: Kysely<Database>, sessionId: string) {
  return db.selectFrom('calls').select('id').where('conversation_id', '=', sessionId).orderBy('started_at').limit(1).executeTakeFirst()
}
