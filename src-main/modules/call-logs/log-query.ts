import { type Expression, type ExpressionBuilder, type RawBuilder, type SqlBool, sql } from 'kysely'
import { LOG_LEVELS } from '../../../src-shared/constants'
import type { FieldNode, LogQueryError, QueryNode, TextNode } from '../../../src-shared/log-query/ast'
import { isNumber } from '../../../src-shared/log-query/fields'
import { parseLogQuery } from '../../../src-shared/log-query/parser'
import type { Database } from '../../db/schema'
import { InvalidInputError } from '../../kit/errors'
import { detailsType, detailsValue, isIndexedDetailsPath, prefixUpperBound } from './details-values'

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

/** The query's condition on call_logs rows (NULL-safe: a line without the field does not match, and NOT of it does). */
export function logQueryCondition(eb: Eb, node: QueryNode, window?: SeqWindow): Expression<SqlBool> {
  switch (node.kind) {
    case 'and':
      return eb.and(node.children.map((c) => logQueryCondition(eb, c, window)))
    case 'or':
      return eb.or(node.children.map((c) => logQueryCondition(eb, c, window)))
    case 'not':
      // A comparison with NULL is NULL, and NOT NULL is NULL: coalesce makes "no match" false first.
      return sql<SqlBool>`not coalesce(${logQueryCondition(eb, node.child, window)}, 0)`
    case 'text':
      return textCondition(eb, node, window)
    case 'field':
      return fieldCondition(eb, node)
  }
}

/** FTS5 string syntax: quoted, inner quotes doubled; a NUL would end the C string SQLite reads. */
const ftsString = (text: string, star = false): string => `"${text.replace(/\u0000/g, ' ').replace(/"/g, '""')}"${star ? '*' : ''}`

/** Unicode characters (the trigram index needs at least 3). */
const length = (text: string): number => [...text].length

const hasWordCharacter = (text: string): boolean => /[\p{L}\p{N}]/u.test(text)

/** How a text term is served: the trigram index, the word index, or a scan (1–2 characters of punctuation). */
export function textIndexOf(node: TextNode): 'trigram' | 'words' | 'scan' {
  if (node.mode !== 'substring') return 'words'
  if (length(node.value.replace(/\u0000/g, '')) >= 3) return 'trigram'
  return hasWordCharacter(node.value) ? 'words' : 'scan'
}

/**
 * `+seq in (…)`: the unary plus keeps SQLite from driving the read by the matching seqs (looking up
 * each, then sorting them all by time); the read follows the time index instead, newest first, and
 * tests each line against the matches (a Bloom filter, then the list), stopping at the page. On the
 * million-line store a term in 360,000 lines took 256 ms the first way and 51 ms this way; a term in
 * none costs the whole index scan, 78 ms (docs/benchmarks.md).
 */
const matchedBy = (seqs: RawBuilder<number>): Expression<SqlBool> => sql<SqlBool>`+${sql.ref('call_logs.seq')} in ${seqs}`

function textCondition(eb: Eb, node: TextNode, window?: SeqWindow): Expression<SqlBool> {
  switch (textIndexOf(node)) {
    case 'trigram':
      return matchedBy(trigramMatchingSeqs(ftsString(node.value.replace(/\u0000/g, '')), window))
    case 'words':
      // A short substring (1–2 characters) has no trigram: it finds words starting with it.
      return matchedBy(wordMatchingSeqs(ftsString(node.value, node.mode !== 'phrase'), window))
    case 'scan':
      return eb(eb.fn('instr', ['message', eb.val(node.value)]), '>', 0)
  }
}

/**
 * A range of seqs (after < seq <= upTo): the live tail reads the lines stored since its last look,
 * and a text term's matches are looked up in that range only, not over the whole index.
 */
export interface SeqWindow {
  after: number
  upTo: number
}

const inWindow = (window?: SeqWindow) => (window ? sql` and rowid > ${window.after} and rowid <= ${window.upTo}` : sql``)

/** Seqs of the call logs whose message matches an FTS5 query in the word index (unicode61). */
// SQLite-only: FTS5 MATCH on call_logs_fts, whose rowid is call_logs.seq.
export function wordMatchingSeqs(match: string, window?: SeqWindow): RawBuilder<number> {
  return sql<number>`(select rowid from call_logs_fts where call_logs_fts match ${match}${inWindow(window)})`
}

/** Seqs of the call logs whose message contains a string (any case, diacritics folded): the trigram index. */
// SQLite-only: FTS5 MATCH on call_logs_trigram (trigram tokenizer), whose rowid is call_logs.seq.
export function trigramMatchingSeqs(match: string, window?: SeqWindow): RawBuilder<number> {
  return sql<number>`(select rowid from call_logs_trigram where call_logs_trigram match ${match}${inWindow(window)})`
}

const COLUMN = { type: 'log_type', call: 'call_id', trace: 'trace_id', session: 'session_id', user: 'user_id', request: 'request_id' } as const

function fieldCondition(eb: Eb, node: FieldNode): Expression<SqlBool> {
  const { field, value } = node
  switch (field) {
    case 'level':
      return levelCondition(eb, node)
    case 'tenant':
      return idOrName('tenant_id', 'tenant_rows', value)
    case 'agent':
      return idOrName('agent_id', 'agents', value)
    case 'details':
      return detailsCondition(node)
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
  return keep.length === 0 ? sql<SqlBool>`0` : eb('log_level', 'in', keep)
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

const escapeLike = (text: string): string => text.replace(/[\\%_]/g, (c) => `\\${c}`)

/**
 * `details.<key>` tests: text any case, numbers as numbers (a JSON number or the same digits as
 * text), true/false/null as JSON literals, `*` for present, a trailing `*` for text starting with.
 * Each is written as (JSON type, value) terms: for the keys with an index (details-values.ts,
 * migration 0019) SQLite seeks them in it; for the others it reads lines newest first until it has
 * a page, under the budget.
 */
// SQLite-only: details-values.ts's json_type / json_extract terms, LIKE ... ESCAPE (PostgreSQL: jsonb_typeof, details #>> path, ILIKE).
function detailsCondition(node: FieldNode): Expression<SqlBool> {
  const path = node.path!
  const type = detailsType(path)
  const value = detailsValue(path)
  const v = node.value
  // Every JSON type listed (rather than `is not null`), so SQLite seeks each in an index and does not scan.
  if (node.wildcard === 'exists') return sql<SqlBool>`${type} in ('text', 'integer', 'real', 'true', 'false', 'null', 'object', 'array')`
  if (node.wildcard === 'prefix') {
    // Under NOCASE, the text starting with v (ASCII letters in any case, as LIKE) is one range, which an index seeks.
    const upper = prefixUpperBound(v)
    if (upper === null) return sql<SqlBool>`(${type} = 'text' and ${value} like ${`${escapeLike(v)}%`} escape '\\')`
    return sql<SqlBool>`(${type} = 'text' and ${value} >= ${v} and ${value} < ${upper})`
  }
  if (node.op !== ':') {
    const op = sql.raw(node.op)
    return sql<SqlBool>`(${type} in ('integer', 'real') and ${value} ${op} ${Number(v)})`
  }
  // A JSON number equal to v, or the text v: a number never equals text in SQLite, so one IN says both.
  if (!node.quoted && isNumber(v)) return sql<SqlBool>`(${type} in ('integer', 'real', 'text') and ${value} in (${Number(v)}, ${v}))`
  if (!node.quoted && ['true', 'false', 'null'].includes(v.toLowerCase())) return sql<SqlBool>`${type} = ${v.toLowerCase()}`
  return sql<SqlBool>`(${type} = 'text' and ${value} = ${v})`
}
