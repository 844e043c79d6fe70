import { type Kysely, sql } from 'kysely'
import type { ApiTokenRow, Database } from '../../db/schema'

export type TokenRecord = Omit<ApiTokenRow, 'token_hash'>

const publicColumns = [
  'id',
  'name',
  'token_prefix',
  'role',
  'tenant_id',
  'created_at',
  'last_used_at',
  'revoked_at',
  'expires_at',
  'source',
] as const

export function insertToken(db: Kysely<Database>, row: ApiTokenRow) {
  return db.insertInto('api_tokens').values(row).execute()
}

export function findActiveByHash(db: Kysely<Database>, hash: string) {
  return db
    .selectFrom('api_tokens')
    .selectAll()
    .where('token_hash', '=', hash)
    .where('revoked_at', 'is', null)
    .executeTakeFirst()
}

export function listTokens(db: Kysely<Database>): Promise<TokenRecord[]> {
  return db.selectFrom('api_tokens').select(publicColumns).orderBy('created_at').orderBy('id').execute()
}

/** Tokens whose id or displayed prefix starts with `key`. */
export function findTokensByKey(db: Kysely<Database>, key: string): Promise<TokenRecord[]> {
  // substr rather than LIKE: token prefixes contain '_', a LIKE wildcard.
  const startsWith = (column: 'id' | 'token_prefix') =>
    sql<boolean>`substr(${sql.ref(column)}, 1, ${key.length}) = ${key}`
  return db
    .selectFrom('api_tokens')
    .select(publicColumns)
    .where((eb) => eb.or([startsWith('id'), startsWith('token_prefix')]))
    .execute()
}

export function markRevoked(db: Kysely<Database>, id: string, at: string) {
  return db.updateTable('api_tokens').set({ revoked_at: at }).where('id', '=', id).execute()
}

export function touchLastUsed(db: Kysely<Database>, id: string, at: string) {
  return db.updateTable('api_tokens').set({ last_used_at: at }).where('id', '=', id).execute()
}

/** Admin tokens neither revoked nor expired at `at` (ISO text, so text order is time order). */
export async function countActiveAdmins(db: Kysely<Database>, at: string): Promise<number> {
  const row = await db
    .selectFrom('api_tokens')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('role', '=', 'admin')
    .where('revoked_at', 'is', null)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', at)]))
    .executeTakeFirstOrThrow()
  return Number(row.n)
}
