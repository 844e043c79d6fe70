import type { Expression, Kysely, RawBuilder, SelectQueryBuilder, SqlBool } from 'kysely'
import type { FieldNode } from '../../../src-shared/log-query/ast'
import type { Database } from '../../db/schema'
import type { SearchTerm } from './fts-query'

/*
 * The call log reads whose spelling differs between the stores (docs/architecture.md, "Store
 * seams"): one implementation per store, call-logs.sql.sqlite.ts and call-logs.sql.postgres.ts,
 * picked by `callLogsSql(db)` (call-logs.sql.ts). Repos call through it and never ask which store
 * they are on.
 */

/**
 * A range of seqs (after < seq <= upTo): the live tail reads the lines stored since its last look,
 * and a text term's matches are looked up in that range only, not over the whole index.
 */
export interface SeqWindow {
  after: number
  upTo: number
}

/** A details value as SQLite's JSON1 names it: its type ('text', 'integer', 'real', 'true', 'false', 'null', 'object', 'array') and value. */
export interface DetailsTyped {
  type: string
  value: unknown
}

/** The newest matching lines' details (facets.repo.ts recentDetails). */
export type RecentDetails = SelectQueryBuilder<Database, 'call_logs', { details: string }>

/** Lines of one (level, type, tenant, agent): what facets are summed from. */
export interface LineCombo {
  log_level: string
  log_type: string
  tenant_id: string
  agent_id: string | null
  count: number
}

/** Whole UTC days, as YYYY-MM-DD, both ends included; an end left out is open. */
export interface DaySpan {
  first?: string
  last?: string
}

export interface CallLogsSql {
  /**
   * Lines per (level, type, tenant, agent) over whole UTC days, summed from the store's day counts
   * (PostgreSQL's call_log_day_counts, pg-migrations/0004); null when the store keeps none (SQLite).
   */
  dayCombos: ((db: Kysely<Database>, days: DaySpan) => Promise<LineCombo[]>) | null
  /** Every line of one tenant (every tenant when null) and source (every source when undefined), from the same counts; null likewise. */
  countedLines: ((db: Kysely<Database>, scope: { tenantId: string | null; source?: string }) => Promise<number>) | null
  /** Lines per (UTC day, level) over whole days, of the given levels (every one when empty), from the same counts; null likewise. */
  dayLevels: ((db: Kysely<Database>, days: DaySpan, levels?: readonly string[]) => Promise<Array<{ day: string; level: string; count: number }>>) | null

  /** A call_logs row as the API's record in JSON: the spec's 13 fields in its order, `details` embedded. */
  callLogJson(): RawBuilder<Uint8Array | string>
  /** A call_logs row as a line of the CSV export, CRLF included (csvField's rules, call-logs.lines.ts). */
  callLogCsvLine(): RawBuilder<Uint8Array | string>

  /** The `q` search: lines whose message has every term (the word index), for applyFilter. */
  searchCondition(terms: readonly SearchTerm[], window?: SeqWindow): Expression<SqlBool>
  /** A query-language word or phrase (its last word a prefix when `prefix`): the word index. */
  wordCondition(term: SearchTerm, window?: SeqWindow): Expression<SqlBool>
  /** A query-language substring of 3 characters or more, any case, diacritics folded: the trigram index. */
  substringCondition(text: string, window?: SeqWindow): Expression<SqlBool>
  /** A short run of punctuation (no index can serve it): the message contains it, as typed. */
  containsCondition(text: string): Expression<SqlBool>
  /** [start, end) UTF-16 ranges of each line's message that the `q` terms matched, by seq. */
  highlights(db: Kysely<Database>, terms: readonly SearchTerm[], lines: ReadonlyArray<{ seq: number; message: string }>): Promise<Map<number, Array<[number, number]>>>

  /**
   * Runs a read of a query-language filter under its budget on one connection. SQLite: as it is
   * (the filter's deadline is a WHERE term, db/query-budget.ts). PostgreSQL orders a WHERE clause's
   * terms by their cost, so that term may run only on the lines a cheaper one let through: the
   * connection also gets `statement_timeout`, which stops any statement of the read past the budget.
   */
  withBudget<T>(db: Kysely<Database>, budgetMs: number, read: (db: Kysely<Database>) => Promise<T>): Promise<T>

  /** The start, in epoch seconds, of the `bucketSeconds` bucket a line's timestamp falls in (multiples of the size). */
  timestampBucket(bucketSeconds: number): RawBuilder<number>

  /** A details key's type as the store names it; null when the line has no such key (group by it with detailsGroupValue). */
  detailsGroupType(path: readonly string[]): RawBuilder<string | null>
  /** A details key's value, text with its ASCII letters in any case as one (grouping and equality). */
  detailsGroupValue(path: readonly string[]): RawBuilder<unknown>
  /**
   * How a group of detailsGroupValue is shown, as an aggregate of the group's lines: null when the
   * grouped value is itself a spelling of the group's (SQLite: NOCASE keeps one), else one of the
   * spellings it stands for (PostgreSQL groups by lower(): the least of the texts).
   */
  detailsGroupShown(path: readonly string[]): RawBuilder<unknown> | null
  /** A (type, value) pair read from detailsGroupType/detailsGroupValue (or detailsGroupShown), in SQLite's names and values. */
  readDetailsGroup(type: string, value: unknown): DetailsTyped
  /** The line has the key (whatever its value): the condition of the key's partial index. */
  hasDetailsKey(path: readonly string[]): Expression<SqlBool>
  /** The query language's `details.<key>` test (log-query.ts). */
  detailsCondition(node: FieldNode): Expression<SqlBool>
  /** Top-level keys with a plain value in the recent lines, by how many lines have them, then by key; at most `top`. */
  detailsKeys(db: Kysely<Database>, recent: RecentDetails, top: number): Promise<Array<{ key: string; count: number }>>
  /**
   * The recent lines grouped by the key's (type, value), the missing key (type null) and objects
   * included, most lines first, then in SQLite's order of values; types and values in SQLite's names.
   */
  detailsValueGroups(db: Kysely<Database>, recent: RecentDetails, path: readonly string[]): Promise<Array<{ type: string | null; value: unknown; count: number }>>
}
