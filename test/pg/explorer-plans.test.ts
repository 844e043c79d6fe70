import type { CompiledQuery, Kysely } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Database } from '../../src-main/db/schema'
import { cellCounts, indexedValueCounts } from '../../src-main/modules/call-logs/call-logs.count-by.repo'
import { bucketCounts, comboCounts, type ResolvedCallLogFilter } from '../../src-main/modules/call-logs/call-logs.search.repo'
import { searchTerms } from '../../src-main/modules/call-logs/fts-query'
import { compileLogQuery } from '../../src-main/modules/call-logs/log-query'
import { type PlanNode, pgPlans, planTypes as types } from '../helpers/pg-plans'
import { startTestServer, type TestServer } from '../helpers/test-server'

/*
 * The explorer's text and details filters on PostgreSQL are served by their indexes (issue 20 pt
 * 2), checked with EXPLAIN on the statements the repos run (as test/pg/plans.test.ts does):
 * words and phrases by the tsvector's GIN index, substrings by the pg_trgm GIN index, a test of an
 * indexed details key by that key's expression index (pg migration 0002). Sequential scans are
 * priced out, since the demo set is small enough that one may rightly win; what remains shows
 * which index can serve. Partitions' indexes are named after their parent's by pg_inherits.
 */

let server: TestServer
let explainer: ReturnType<typeof pgPlans>

beforeAll(async () => {
  server = await startTestServer({ store: 'postgres' })
  explainer = pgPlans(server.service.handle.pg!)
  await explainer.loadPartitionIndexes()
})

afterAll(() => server?.close())

const planOf = (query: CompiledQuery) => explainer.planOf(query)
const record = (run: (db: Kysely<Database>) => Promise<unknown>) => explainer.record(run)
/** The partitioned indexes a plan reads (a partition's index by its parent's name). */
const indexesOf = (plan: PlanNode[]) => explainer.indexesOf(plan)

const q = (text: string): ResolvedCallLogFilter => ({ match: searchTerms(text)! })
const query = (text: string): ResolvedCallLogFilter => ({ query: compileLogQuery(text) })

describe('PostgreSQL plans of the explorer\'s filters', () => {
  const cases: Array<[string, ResolvedCallLogFilter, string]> = [
    ['q: words', q('timeout'), 'call_logs_message_search'],
    ['q: a phrase and a prefix', q('"too many" retry*'), 'call_logs_message_search'],
    ['query: a word prefix', query('time*'), 'call_logs_message_search'],
    ['query: a phrase', query('"rate limit"'), 'call_logs_message_search'],
    ['query: a short substring (a word prefix)', query('hu'), 'call_logs_message_search'],
    ['query: a substring', query('imeout'), 'call_logs_message_trigram'],
    ['query: a substring in any case', query('*IMEOUT*'), 'call_logs_message_trigram'],
    ['details: text', query('details.provider:openai'), 'call_logs_details_provider'],
    ['details: a prefix', query('details.model:gpt*'), 'call_logs_details_model'],
    ['details: a number or its text', query('details.status:429'), 'call_logs_details_status'],
    ['details: a comparison', query('details.latency_ms>2000'), 'call_logs_details_latency_ms'],
    ['details: present', query('details.status_code:*'), 'call_logs_details_status_code'],
    ['details: a literal', query('details.status:null'), 'call_logs_details_status'],
  ]

  it.each(cases)('%s: facets\' and the histogram\'s reads use its index', async (_name, filter, index) => {
    for (const read of [(db: Kysely<Database>) => comboCounts(db, filter), (db: Kysely<Database>) => bucketCounts(db, filter, 3600)]) {
      const [statement] = await record(read)
      const plan = await planOf(statement!)
      expect(indexesOf(plan), statement!.sql).toContain(index)
      expect(types(plan)).not.toContain('Seq Scan')
    }
  })

  it('count by an indexed details key over the whole range reads that key\'s index (over a few hours the planner rightly takes the time index)', async () => {
    const [statement] = await record((db) => indexedValueCounts(db, { from: '2026-10-01T00:00:00.000Z', to: '2026-11-21T00:00:00.000Z' }, 'provider'))
    const plan = await planOf(statement!)
    expect(indexesOf(plan)).toContain('call_logs_details_provider')
    expect(types(plan)).not.toContain('Seq Scan')
    const [grouped] = await record((db) => cellCounts(db, query('details.model:gpt*'), { detailsKey: 'model' }, 3600, 1000))
    expect(indexesOf(await planOf(grouped!))).toContain('call_logs_details_model')
  })
})
