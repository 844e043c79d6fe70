import type { Kysely } from 'kysely'
import type { Database } from '../../db/schema'

/** A backend the store has rows of, with its first and last pull (or push). */
export interface PulledSourceRow {
  source: string
  first_pull_at: string
  last_pull_at: string
}

/**
 * Every backend a pull was started from (pulls.source, the normalized base URL), and every one a
 * laptop pushed rows of (imports.call_log_source, when the import stored any: `callscope push`),
 * oldest first.
 */
export function pulledSources(db: Kysely<Database>): Promise<PulledSourceRow[]> {
  const arrivals = db
    .selectFrom('pulls')
    .select(['source', 'started_at'])
    .unionAll(db.selectFrom('imports').select(['call_log_source as source', 'started_at']).where('call_log_source', '<>', '').where('inserted', '>', 0))
    .as('arrivals')
  return db
    .selectFrom(arrivals)
    .select((eb) => ['source', eb.fn.min('started_at').as('first_pull_at'), eb.fn.max('started_at').as('last_pull_at')])
    .groupBy('source')
    .orderBy('first_pull_at')
    .orderBy('source')
    .execute() as Promise<PulledSourceRow[]>
}
