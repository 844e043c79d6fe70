import { type Expression, type ExpressionBuilder, type SqlBool, sql } from 'kysely'
import { LOG_LEVELS } from '../../../src-shared/constants'
import type { FieldNode, LogQueryError, QueryNode, TextNode } from '../../../src-shared/log-query/ast'
import { parseLogQuery } from '../../../src-shared/log-query/parser'
import type { Database } from '../../db/schema'
import { InvalidInputError } from '../../kit/errors'
import type { CallLogsSql, SeqWindow } from './call-logs.sql'
import { isIndexedDetailsPath } from './details-values'

export type { SeqWindow } from './call-logs.sql'

/*
 * The query language (src-shared/log-query) compiled to conditions on call_logs. Every field has an
 * index (0001, 0003, 0014), and the details keys call logs carry most (0019: provider, model,
 * status, latency_ms; the others are read line by line); words and phrases use the word index call_logs_fts,
 * substrings the trigram index call_logs_trigram. `compileLogQuery` is the one entry: the
 * explorer, both exports and live tail call it and add `logQueryCondition` to their query.
 */

/** A query that does not parse: the message, its position and what to do (REST 422 via the schema, else 400). */
export class LogQuerySyntaxError extends InvalidInputError {
  constructor(readonly detail: LogQueryError) {
    super(`${detail.message} (at column ${detail.offset + 1}). ${detail.hint}`)
    this.name = 'LogQuerySyntaxError'
  }
}

/** A compiled query: the condition's tree, its time range, and its source for messages. */
export interface LogQueryFilter {
  text: string
  where: QueryNode | null
  /** Inclusive bounds in the store's ISO form, from @last / @since / @until (intersected). */
  from?: string
  to?: string
}

/**
 * Parses and checks a query; `now` anchors `@last`. Throws LogQuerySyntaxError with the position.
 * Stable name: live tail and export reuse it.
 */
export function compileLogQuery(text: string, now: Date = new Date()): LogQueryFilter {
  const parsed = parseLogQuery(text)
  if (!parsed.ok) throw new LogQuerySyntaxError(parsed.error)
  const filter: LogQueryFilter = { text, where: parsed.query.where }
  for (const term of parsed.query.time) {
    const from = term.kind === 'last' ? new Date(now.getTime() - term.ms).toISOString() : term.kind === 'since' ? term.instant : undefined
    const to = term.kind === 'until' ? term.instant : undefined
    if (from && (!filter.from || from > filter.from)) filter.from = from
    if (to && (!filter.to || to < filter.to)) filter.to = to
  }
  return filter
}

type Eb = ExpressionBuilder<Database, 'call_logs'>

/**
 * The query's condition on call_logs rows (NULL-safe: a line without the field does not match, and
 * NOT of it does), in the spelling of the store `s` is for (call-logs.sql.ts).
 */
export function logQueryCondition(eb: Eb, s: CallLogsSql, node: QueryNode, window?: SeqWindow): Expression<SqlBool> {
  switch (node.kind) {
    case 'and':
      return eb.and(node.children.map((c) => logQueryCondition(eb, s, c, window)))
    case 'or':
      return eb.or(node.children.map((c) => logQueryCondition(eb, s, c, window)))
    case 'not':
      // A comparison with NULL is NULL, and NOT NULL is NULL: coalesce makes "no match" false first.
      return sql<SqlBool>`not coalesce(${logQueryCondition(eb, s, node.child, window)}, false)`
    case 'text':
      return textCondition(s, node, window)
    case 'field':
      return fieldCondition(eb, s, node)
  }
}

/** Unicode characters (the trigram index needs at least 3). */
const length = (text: string): number => [...text].length

const hasWordCharacter = (text: string): boolean => /[\p{L}\p{N}]/u.test(text)

/** How a text term is served: the trigram index, the word index, or a scan (1–2 characters of punctuation). */
export function textIndexOf(node: TextNode): 'trigram' | 'words' | 'scan' {
  if (node.mode !== 'substring') return 'words'
  if (length(node.value.replace(/\u0000/g, '')) >= 3) return 'trigram'
  return hasWordCharacter(node.value) ? 'words' : 'scan'
}

function textCondition(s: CallLogsSql, node: TextNode, window?: SeqWindow): Expression<SqlBool> {
  switch (textIndexOf(node)) {
    case 'trigram':
      return s.substringCondition(node.value, window)
    case 'words':
      // A short substring (1–2 characters) has no trigram: it finds words starting with it.
      return s.wordCondition({ text: node.value, prefix: node.mode !== 'phrase' }, window)
    case 'scan':
      return s.containsCondition(node.value)
  }
}

const COLUMN = { type: 'log_type', call: 'call_id', trace: 'trace_id', session: 'session_id', user: 'user_id', request: 'request_id' } as const

function fieldCondition(eb: Eb, s: CallLogsSql, node: FieldNode): Expression<SqlBool> {
  const { field, value } = node
  switch (field) {
    case 'level':
      return levelCondition(eb, node)
    case 'tenant':
      return idOrName('tenant_id', 'tenant_rows', value)
    case 'agent':
      return idOrName('agent_id', 'agents', value)
    case 'details':
      return s.detailsCondition(node)
    default:
      return eb(COLUMN[field], '=', value)
  }
}

/**
 * An id, or the name of a tenant (agent) in any case of its ASCII letters (as SQL's lower() folds
 * them), as one IN list: SQLite reads the (column, timestamp) index for each id in it, where
 * `id = ? OR id IN (…)` read the whole table (90 ms for a count, 400 ms for a newest-first page
 * on the million-line store). The id is listed as written: a line may name a tenant or agent the
 * store has no row for.
 */
function idOrName(column: 'tenant_id' | 'agent_id', table: 'tenant_rows' | 'agents', value: string): Expression<SqlBool> {
  return sql<SqlBool>`${sql.ref(`call_logs.${column}`)} in (select id from ${sql.table(table)} where lower(name) = lower(${value}) union all select ${value})`
}

function levelCondition(eb: Eb, node: FieldNode): Expression<SqlBool> {
  if (node.op === ':') return eb('log_level', '=', node.value)
  const rank = LOG_LEVELS.indexOf(node.value as (typeof LOG_LEVELS)[number])
  const keep = LOG_LEVELS.filter((_, i) => (node.op === '>' ? i > rank : node.op === '>=' ? i >= rank : node.op === '<' ? i < rank : i <= rank))
  return keep.length === 0 ? sql<SqlBool>`false` : eb('log_level', 'in', keep)
}

/** Whether the query tests a details key with an index of its own (0019) anywhere. */
export function hasIndexedDetailsTerm(node: QueryNode): boolean {
  switch (node.kind) {
    case 'and':
    case 'or':
      return node.children.some(hasIndexedDetailsTerm)
    case 'not':
      return hasIndexedDetailsTerm(node.child)
    case 'text':
      return false
    case 'field':
      return node.field === 'details' && isIndexedDetailsPath(node.path ?? [])
  }
}
