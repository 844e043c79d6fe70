import { type CompiledQuery, Kysely, PostgresDialect } from 'kysely'
import type pg from 'pg'
import type { Database } from '../../src-main/db/schema'

/*
 * EXPLAIN on PostgreSQL of the statements the repos really run (test/pg/*-plans.test.ts): a kysely
 * over the store's pool records each statement, which is then explained with its parameters. The
 * demo set is small enough that the planner may rightly prefer a sequential scan, so plans are
 * asked with sequential scans priced out: what remains shows which index can serve.
 */

export interface PlanNode {
  'Node Type': string
  'Index Name'?: string
  'Relation Name'?: string
  Plans?: PlanNode[]
}

export interface PlanOptions {
  /** Price sorts out too, where the order must come from the index. */
  noSort?: boolean
  /** Indexes taken out of the planner's choice (DDL is transactional: the rollback restores them). */
  without?: string[]
  /** With `without`, price out bitmap scans too, which read the table whatever the index holds. */
  noBitmapWithout?: boolean
}

/** Every node of the plan, depth first. */
const nodes = (plan: PlanNode): PlanNode[] => [plan, ...(plan.Plans ?? []).flatMap(nodes)]

/** A recorder and explainer over `pool` (the service's: it ends the pool, so the kysely is not destroyed). */
export function pgPlans(pool: pg.Pool) {
  let recorded: CompiledQuery[] = []
  const recording = new Kysely<Database>({
    dialect: new PostgresDialect({ pool }),
    log: (event) => {
      if (event.level === 'query') recorded.push(event.query)
    },
  })
  /** Each partition's index → the partitioned index it belongs to, once loaded. */
  const parentOf = new Map<string, string>()

  return {
    /** The statements `run` executes on the recording kysely. */
    async record(run: (db: Kysely<Database>) => Promise<unknown>): Promise<CompiledQuery[]> {
      recorded = []
      await run(recording)
      return recorded
    },
    /** The plan of one recorded statement, every node, sequential scans priced out. */
    async planOf(query: CompiledQuery, options: PlanOptions = {}): Promise<PlanNode[]> {
      const client = await pool.connect()
      try {
        await client.query('begin')
        await client.query('set local enable_seqscan = off')
        if (options.noSort) await client.query('set local enable_sort = off')
        for (const index of options.without ?? []) await client.query(`drop index ${index}`)
        if (options.without && options.noBitmapWithout) await client.query('set local enable_bitmapscan = off')
        const { rows } = await client.query(`explain (format json) ${query.sql}`, query.parameters as unknown[])
        await client.query('rollback')
        // json comes back as text from the store's pool (db/pg-types.ts), as SQLite's JSON does.
        return nodes((JSON.parse(rows[0]['QUERY PLAN'] as string) as { Plan: PlanNode }[])[0]!.Plan)
      } finally {
        client.release()
      }
    },
    /** Loads which partitioned index each partition's index belongs to, for indexesOf. */
    async loadPartitionIndexes(): Promise<void> {
      const { rows } = await pool.query<{ child: string; parent: string }>(
        `select c.relname as child, p.relname as parent from pg_inherits i
         join pg_class c on c.oid = i.inhrelid join pg_class p on p.oid = i.inhparent where c.relkind = 'i'`,
      )
      for (const r of rows) parentOf.set(r.child, r.parent)
    },
    /** The indexes a plan reads (a partition's index by its parent's name, once loaded). */
    indexesOf: (plan: PlanNode[]) => [...new Set(plan.flatMap((n) => (n['Index Name'] ? [parentOf.get(n['Index Name']) ?? n['Index Name']] : [])))],
  }
}

export const planTypes = (plan: PlanNode[]) => plan.map((n) => n['Node Type'])
