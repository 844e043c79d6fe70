import type { Kysely } from 'kysely'
import { postgresSql } from './dialect.postgres'
import { sqliteSql } from './dialect.sqlite'
import { forStore } from './store-kind'
import type { StoreSql } from './store-sql-contract'

export type { StoreSql, TimestampValue } from './store-sql-contract'

/** The fragments for the store `db` runs on (store-sql-contract.ts says what each does). */
export function storeSql(db: Kysely<any>): StoreSql {
  return forStore(db, { sqlite: sqliteSql, postgres: postgresSql })
}
