import type { Kysely } from 'kysely'
import type { Database } from '../../db/schema'

/** Row counts of the tables people ask about, for `db info` and the settings page. */
export const COUNTED_TABLES = [
  'tenants',
  'pulled_tenants',
  'agents',
  'squads',
  'squad_members',
  'conversations',
  'messages',
  'calls',
  'call_logs',
  'transfers',
  'sip_inbound_trunks',
  'provider_credentials',
  'api_tokens',
  'imports',
  'pulls',
  'pulled_agents',
  'pulled_sessions',
  'pulled_squad_analytics',
  'pulled_sip_trunks',
  'pulled_documents',
] as const

export type TableCounts = Record<(typeof COUNTED_TABLES)[number], number>

export async function countRows(db: Kysely<Database>): Promise<TableCounts> {
  const entries = await Promise.all(
    COUNTED_TABLES.map(async (table) => {
      const row = await db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
      return [table, Number(row.n)] as const
    }),
  )
  return Object.fromEntries(entries) as TableCounts
}
