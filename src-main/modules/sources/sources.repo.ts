import type { Kysely } from 'kysely'
import type { Database } from '../../db/schema'

/** A backend the store has pulled from, with its first and last pull. */
export interface PulledSourceRow {
  source: string
  first_pull_at: string
  last_pull_at: string
}

/** Every backend a pull was started from (pulls.source, the normalized base URL), oldest first. */
export function pulledSources(db: Kysely<Database>): Promise<PulledSourceRow[]> {
  return db
    .selectFrom('pulls')
    .select((eb) => ['source', eb.fn.min('started_at').as('first_pull_at'), eb.fn.max('started_at').as('last_pull_at')])
    .groupBy('source')
    .orderBy('first_pull_at')
    .orderBy('source')
    .execute() as Promise<PulledSourceRow[]>
}
