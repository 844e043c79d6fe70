import type { Migration } from 'kysely'
import { schema } from './0001-schema'
import { explorerReads } from './0002-explorer-reads'
import { importSources } from './0003-import-sources'
import { callLogDayCounts } from './0004-call-log-day-counts'
import { pulledDefaultAnalytics } from './0005-pulled-default-analytics'
import { restorableFunctions } from './0006-restorable-functions'

/**
 * The PostgreSQL store's migrations, in order: a list of its own (docs/architecture.md,
 * "PostgreSQL store"). Its first entry is the whole schema as the SQLite list had it at 0018; later
 * schema changes get an entry here beside their SQLite migration. Names are never changed once shipped.
 */
export const pgMigrations: Record<string, Migration> = {
  '0001-schema': schema,
  '0002-explorer-reads': explorerReads,
  '0003-import-sources': importSources,
  '0004-call-log-day-counts': callLogDayCounts,
  '0005-pulled-default-analytics': pulledDefaultAnalytics,
  '0006-restorable-functions': restorableFunctions,
}
