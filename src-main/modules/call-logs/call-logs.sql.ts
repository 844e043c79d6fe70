import type { Kysely } from 'kysely'
import type { Database } from '../../db/schema'
import { forStore } from '../../db/store-kind'
import type { CallLogsSql } from './call-logs.sql-contract'
import { postgresCallLogsSql } from './call-logs.sql.postgres'
import { sqliteCallLogsSql } from './call-logs.sql.sqlite'

export type { CallLogsSql, DetailsTyped, SeqWindow } from './call-logs.sql-contract'

/** The call log reads for the store `db` runs on (call-logs.sql-contract.ts says what each does). */
export const callLogsSql = (db: Kysely<Database>): CallLogsSql => forStore(db, { sqlite: sqliteCallLogsSql, postgres: postgresCallLogsSql })
