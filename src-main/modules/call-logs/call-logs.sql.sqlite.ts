import { type Expression, type RawBuilder, type SqlBool, sql } from 'kysely'
import type { FieldNode } from '../../../src-shared/log-query/ast'
import { isNumber } from '../../../src-shared/log-query/fields'
import type { CallLogsSql, SeqWindow } from './call-logs.sql-contract'
import { EXPORT_COLUMNS } from './call-logs.lines'
import { isIndexedDetailsPath, jsonPath, prefixUpperBound } from './details-values'
import { ftsQuery, ftsString, HIGHLIGHT_CLOSE, HIGHLIGHT_OPEN, highlightRanges } from './fts-query'

/*
 * The call log reads as SQLite spells them (call-logs.sql-contract.ts): FTS5 tables for words and
 * substrings, JSON1 for details, text timestamps. Each is marked "SQLite-only".
 */

/**
 * A call_logs row as the API's record in JSON (UTF-8 bytes): the spec's 13 fields in its order,
 * `details` embedded as JSON; what JSON.stringify of the record object writes.
 */
// SQLite-only: json_object() and json() of JSON1, cast to a BLOB so the text reaches JavaScript as
// UTF-8 bytes, never as a string. PostgreSQL: the JSON text concatenated field by field (db/pg-json.ts).
function callLogJson(): RawBuilder<Uint8Array> {
  return sql<Uint8Array>`cast(json_object(
    'id', id, 'tenant_id', tenant_id, 'log_type', log_type, 'log_level', log_level, 'message', message,
    'timestamp', timestamp, 'agent_id', agent_id, 'session_id', session_id, 'call_id', call_id,
    'details', json(details), 'user_id', user_id, 'trace_id', trace_id, 'request_id', request_id
  ) as blob)`
}

/**
 * A call_logs row as a line of the CSV export (UTF-8 bytes, CRLF included): the 13 fields in
 * EXPORT_COLUMNS order, each by the rules of csvField (call-logs.lines.ts), to which the tests hold
 * it: null is empty; a value whose first character after any apostrophes is a formula trigger gets
 * an apostrophe and quotes; one with a quote, comma, CR or LF is quoted; quotes are doubled.
 */
// SQLite-only: ltrim/substr/instr/replace, char() for control characters, json() for details'
// minified text, a BLOB cast for bytes. PostgreSQL: ltrim/left/strpos/replace/chr, text.
function callLogCsvLine(): RawBuilder<Uint8Array> {
  const fields = EXPORT_COLUMNS.map((column) => csvFieldSql(column === 'details' ? sql`json(details)` : sql.ref(column)))
  return sql<Uint8Array>`cast(${sql.join(fields, sql` || ',' || `)} || char(13, 10) as blob)`
}

function csvFieldSql(value: RawBuilder<unknown>): RawBuilder<string> {
  return sql<string>`(case
    when ${value} is null then ''
    when substr(ltrim(${value}, ''''), 1, 1) in ('=', '+', '-', '@', char(9), char(13)) then '"''' || replace(${value}, '"', '""') || '"'
    when instr(${value}, '"') > 0 or instr(${value}, ',') > 0 or instr(${value}, char(13)) > 0 or instr(${value}, char(10)) > 0
      then '"' || replace(${value}, '"', '""') || '"'
    else ${value}
  end)`
}

const inWindow = (window?: SeqWindow) => (window ? sql` and rowid > ${window.after} and rowid <= ${window.upTo}` : sql``)

/** Seqs of the call logs whose message matches an FTS5 query in the word index (unicode61). */
// SQLite-only: FTS5 MATCH on call_logs_fts, whose rowid is call_logs.seq.
function wordMatchingSeqs(match: string, window?: SeqWindow): RawBuilder<number> {
  return sql<number>`(select rowid from call_logs_fts where call_logs_fts match ${match}${inWindow(window)})`
}

/** Seqs of the call logs whose message contains a string (any case, diacritics folded): the trigram index. */
// SQLite-only: FTS5 MATCH on call_logs_trigram (trigram tokenizer), whose rowid is call_logs.seq.
function trigramMatchingSeqs(match: string, window?: SeqWindow): RawBuilder<number> {
  return sql<number>`(select rowid from call_logs_trigram where call_logs_trigram match ${match}${inWindow(window)})`
}

/**
 * `+seq in (…)`: the unary plus keeps SQLite from driving the read by the matching seqs (looking up
 * each, then sorting them all by time); the read follows the time index instead, newest first, and
 * tests each line against the matches (a Bloom filter, then the list), stopping at the page. On the
 * million-line store a term in 360,000 lines took 256 ms the first way and 51 ms this way; a term in
 * none costs the whole index scan, 78 ms (docs/benchmarks.md).
 */
// SQLite-only: the unary + planner hint.
const matchedBy = (seqs: RawBuilder<number>): Expression<SqlBool> => sql<SqlBool>`+${sql.ref('call_logs.seq')} in ${seqs}`

/** The path as SQL: the index's literal (`'$.provider'`) for an indexed key, else a bound parameter. */
const pathSql = (path: readonly string[]) => (isIndexedDetailsPath(path) ? sql.lit(`$.${path[0]}`) : sql`${jsonPath(path)}`)

/**
 * A key's JSON type ('text', 'integer', 'real', 'true', 'false', 'null', 'object', 'array'); NULL
 * when the line has no such key. For the keys with an index (migration 0019) the path is written as
 * the very literal the index holds: SQLite uses an index on an expression only for the same expression.
 */
// SQLite-only: JSON1's json_type (PostgreSQL: json_typeof(details -> 'k'), whose names differ: 'string', 'number', 'boolean').
function detailsType(path: readonly string[]): RawBuilder<string | null> {
  return sql<string | null>`json_type(details, ${pathSql(path)})`
}

/**
 * A key's value under NOCASE: text, a number, 1/0 for true/false, NULL for JSON null or no key, an
 * object or array as its JSON text. Compare it only together with its type (detailsType).
 */
// SQLite-only: JSON1's json_extract and the NOCASE collation (PostgreSQL: lower((details ->> 'k') collate "C")).
function detailsValue(path: readonly string[]): RawBuilder<unknown> {
  return sql`json_extract(details, ${pathSql(path)}) collate nocase`
}

const escapeLike = (text: string): string => text.replace(/[\\%_]/g, (c) => `\\${c}`)

/**
 * `details.<key>` tests: text any case, numbers as numbers (a JSON number or the same digits as
 * text), true/false/null as JSON literals, `*` for present, a trailing `*` for text starting with.
 * Each is written as (JSON type, value) terms: for the keys with an index (details-values.ts,
 * migration 0019) SQLite seeks them in it; for the others it reads lines newest first until it has
 * a page, under the budget.
 */
// SQLite-only: json_type / json_extract terms, LIKE ... ESCAPE (PostgreSQL: call-logs.sql.postgres.ts).
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

export const sqliteCallLogsSql: CallLogsSql = {
  // SQLite keeps no day counts: its per-value index counts answer at a laptop's sizes (pg-migrations/0004 says why).
  dayCombos: null,
  dayLevels: null,
  countedLines: null,
  callLogJson,
  callLogCsvLine,

  // SQLite-only: FTS5 MATCH on call_logs_fts, whose rowid is call_logs.seq.
  searchCondition: (terms, window) => sql<SqlBool>`${sql.ref('seq')} in ${wordMatchingSeqs(ftsQuery(terms), window)}`,
  wordCondition: (term, window) => matchedBy(wordMatchingSeqs(ftsString(term.text, term.prefix), window)),
  substringCondition: (text, window) => matchedBy(trigramMatchingSeqs(ftsString(text.replace(/\u0000/g, '')), window)),
  // SQLite-only: instr().
  containsCondition: (text) => sql<SqlBool>`instr(${sql.ref('message')}, ${text}) > 0`,

  // SQLite-only: FTS5 highlight() with control-character marks and MATCH on call_logs_fts, rows picked by rowid (= seq).
  async highlights(db, terms, lines) {
    if (lines.length === 0) return new Map()
    const result = await sql<{ seq: number; highlighted: string }>`
      select rowid as seq, highlight(call_logs_fts, 0, ${HIGHLIGHT_OPEN}, ${HIGHLIGHT_CLOSE}) as highlighted
      from call_logs_fts where call_logs_fts match ${ftsQuery(terms)} and rowid in (${sql.join(lines.map((l) => l.seq))})`.execute(db)
    const messages = new Map(lines.map((l) => [l.seq, l.message]))
    return new Map(result.rows.map((r) => [r.seq, highlightRanges(messages.get(r.seq) ?? '', r.highlighted)]))
  },

  withBudget: (db, _budgetMs, read) => read(db),

  // SQLite-only: unixepoch() of the ISO 8601 text, floored by integer division. The size is a literal, so grouping by the expression matches the selected one.
  timestampBucket: (bucketSeconds) => sql<number>`(unixepoch(timestamp) / ${sql.lit(bucketSeconds)}) * ${sql.lit(bucketSeconds)}`,

  detailsGroupType: detailsType,
  detailsGroupValue: detailsValue,
  detailsGroupShown: () => null,
  readDetailsGroup: (type, value) => ({ type, value }),
  // SQLite-only: json_type, as migration 0019's partial indexes' condition.
  hasDetailsKey: (path) => sql<SqlBool>`${detailsType(path)} is not null`,
  detailsCondition,

  // SQLite-only: json_each over the details object.
  async detailsKeys(db, recent, top) {
    const keys = await sql<{ key: string; count: number }>`
      select j.key as key, count(*) as count
      from (${recent}) as recent, json_each(recent.details) as j
      where j.type not in ('object', 'array')
      group by j.key order by count desc, j.key limit ${top}`.execute(db)
    return keys.rows.map((r) => ({ key: r.key, count: Number(r.count) }))
  },

  // SQLite-only: json_extract / json_type of JSON1; text under NOCASE, as the query language's details.<key>:<text> matches it and count-by groups it.
  async detailsValueGroups(db, recent, path) {
    const p = jsonPath(path)
    const groups = await sql<{ value: unknown; type: string | null; count: number }>`
      select json_extract(recent.details, ${p}) collate nocase as value, json_type(recent.details, ${p}) as type, count(*) as count
      from (${recent}) as recent
      group by value, type order by count desc, value`.execute(db)
    return groups.rows.map((g) => ({ type: g.type, value: g.value, count: Number(g.count) }))
  },
}
