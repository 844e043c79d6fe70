import type { Kysely } from 'kysely'
import type { Database } from '../../db/schema'

/** Most agent ids a provider's details list; `count` is always the full number. */
export const AGENT_IDS_LIMIT = 1000

/**
 * Agents whose language model comes from `provider`, optionally of one tenant. Both queries are
 * served by the `agents_llm_provider` index.
 */
export async function agentsUsingLlmProvider(db: Kysely<Database>, provider: string, tenantId: string | null) {
  let ids = db.selectFrom('agents').select('id').where('llm_provider', '=', provider)
  let count = db.selectFrom('agents').select((eb) => eb.fn.countAll<number>().as('n')).where('llm_provider', '=', provider)
  if (tenantId !== null) {
    ids = ids.where('tenant_id', '=', tenantId)
    count = count.where('tenant_id', '=', tenantId)
  }
  const [rows, total] = await Promise.all([
    ids.orderBy('id').limit(AGENT_IDS_LIMIT).execute(),
    count.executeTakeFirstOrThrow(),
  ])
  return { count: Number(total.n), ids: rows.map((r) => r.id) }
}

/** The latest details a pull fetched for `provider`, from any source or from `source`; undefined when none did. */
export function latestPulledLlmProvider(db: Kysely<Database>, provider: string, source?: string) {
  let query = db
    .selectFrom('pulled_llm_providers')
    .select(['source', 'body', 'fetched_at'])
    .where('provider', '=', provider)
  if (source !== undefined) query = query.where('source', '=', source)
  return query
    .orderBy('fetched_at', 'desc')
    .limit(1)
    .executeTakeFirst()
}
