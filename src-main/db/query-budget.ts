import type BetterSqlite3 from 'better-sqlite3'
import { type RawBuilder, sql } from 'kysely'

/*
 * A time budget inside the query itself. better-sqlite3 has no sqlite3_interrupt, and a query runs
 * to its end inside one native call (a worker thread cannot be stopped there either). So a read
 * that may scan carries a first WHERE term, `(seq % 1024 <> 0 or callscope_budget(<deadline>))`:
 * every 1024th row visited calls this function, which throws once the deadline has passed, and
 * SQLite stops the statement there. The function is registered on every connection (here for the
 * writing one; read-worker.mjs has its own copy, since it imports no sources).
 */

/** What the function throws; callers recognise it in the error's message (it crosses threads as text). */
export const QUERY_BUDGET_EXCEEDED = 'CALLSCOPE_QUERY_BUDGET_EXCEEDED'

// SQLite-only: a user-defined function on a better-sqlite3 connection.
export function registerQueryBudget(sqlite: BetterSqlite3.Database): void {
  sqlite.function('callscope_budget', { deterministic: false }, (deadline: unknown) => {
    if (Date.now() >= Number(deadline)) throw new Error(QUERY_BUDGET_EXCEEDED)
    return 1
  })
}

/** The WHERE term that stops a call_logs read at `deadline` (epoch ms); put it first, so it runs on every row visited. */
// SQLite-only: the callscope_budget function registered above, seq as the row counter.
export function budgetTerm(deadline: number): RawBuilder<boolean> {
  return sql<boolean>`(call_logs.seq % 1024 <> 0 or callscope_budget(${deadline}))`
}

/** The budget's stop: SQLite's function's message, or on PostgreSQL query_canceled (57014: callscope_budget or statement_timeout). */
export const isBudgetExceeded = (error: unknown): boolean =>
  error instanceof Error && (error.message.includes(QUERY_BUDGET_EXCEEDED) || (error as { code?: unknown }).code === '57014')
