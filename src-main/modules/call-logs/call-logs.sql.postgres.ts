import { type Expression, type RawBuilder, type SelectQueryBuilder, type SqlBool, sql } from 'kysely'
import type { FieldNode } from '../../../src-shared/log-query/ast'
import { isNumber } from '../../../src-shared/log-query/fields'
import { jsonInstant, jsonObject, jsonRaw, jsonString } from '../../db/pg-json'
import type { Database } from '../../db/schema'
import type { CallLogsSql, DaySpan, DetailsTyped } from './call-logs.sql-contract'
import { EXPORT_COLUMNS } from './call-logs.lines'
import { isIndexedDetailsPath, prefixUpperBound } from './details-values'
import { phraseRanges } from './word-ranges'

/*
 * The call log reads as PostgreSQL spells them (call-logs.sql-contract.ts; the functions and
 * indexes are pg-migrations/0002-explorer-reads.ts):
 * - words: `message_search @@ callscope_word_query(term, prefix)`, the tsvector's GIN index;
 * - substrings: `callscope_fold(message) like '%…%'`, the pg_trgm GIN index on that expression;
 * - details: json operators, `json_typeof(details -> 'k')` and `lower((details ->> 'k') collate "C")`
 *   for the keys with an expression index, spelled as the index is so that the planner matches it;
 * - the live tail's seq window needs nothing here: applyFilter bounds seq on the table itself,
 *   which the match is a condition of.
 * PostgreSQL text cannot hold NUL: bound search text has it replaced as SQLite's FTS5 query does.
 */

const ref = (column: string) => sql.ref(column)
const noNul = (text: string, by = ' ') => text.replace(/\u0000/g, by)

/** A timestamptz as the store's ISO 8601 text (the API's form), as text. */
const instantText = (value: Expression<unknown>) => sql<string>`to_char((${value}) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`

/** csvField's rules (call-logs.lines.ts), as call-logs.sql.sqlite.ts writes them for SQLite. */
function csvFieldSql(value: RawBuilder<unknown>): RawBuilder<string> {
  return sql<string>`(case
    when ${value} is null then ''
    when left(ltrim(${value}, ''''), 1) in ('=', '+', '-', '@', chr(9), chr(13)) then '"''' || replace(${value}, '"', '""') || '"'
    when strpos(${value}, '"') > 0 or strpos(${value}, ',') > 0 or strpos(${value}, chr(13)) > 0 or strpos(${value}, chr(10)) > 0
      then '"' || replace(${value}, '"', '""') || '"'
    else ${value}
  end)`
}

/** The column as the CSV's text: the instant in the API's form, details as stored (minified). */
const csvColumn = (column: string): RawBuilder<unknown> =>
  column === 'timestamp' ? instantText(ref('timestamp')) : column === 'details' ? sql`(details)::text` : sql`${ref(column)}`

/**
 * `details -> 'k'` for a key with an index (the index's own spelling), else `details #> '{a,b}'`
 * with the path bound (segments are letters, digits, `_` and `-`: the parser checks).
 */
const jsonAt = (path: readonly string[]) => (isIndexedDetailsPath(path) ? sql`details -> ${sql.lit(path[0]!)}` : sql`details #> ${`{${path.join(',')}}`}`)
const textAt = (path: readonly string[]) => (isIndexedDetailsPath(path) ? sql`details ->> ${sql.lit(path[0]!)}` : sql`details #>> ${`{${path.join(',')}}`}`)

/** json_typeof: 'string', 'number', 'boolean', 'null', 'object', 'array'; null without the key. */
const detailsType = (path: readonly string[]) => sql<string | null>`json_typeof(${jsonAt(path)})`
/** The value as text, ASCII letters folded (lower() under "C"), as SQLite's NOCASE compares; null for JSON null and no key. */
const detailsValue = (path: readonly string[]) => sql<string | null>`lower((${textAt(path)}) collate "C")`
/** The value as a number when it is a JSON number (a case, so text is never cast). */
const detailsNumber = (path: readonly string[]) => sql<number>`(case when json_typeof(${jsonAt(path)}) = 'number' then (${textAt(path)})::numeric end)`

/** ASCII letters to lower case: what lower() under "C" and NOCASE fold. */
const asciiLower = (text: string) => text.replace(/[A-Z]/g, (c) => c.toLowerCase())
const escapeLike = (text: string): string => text.replace(/[\\%_]/g, (c) => `\\${c}`)

/**
 * The `details.<key>` tests of call-logs.sql.sqlite.ts, each with the key's presence first: the
 * partial index's condition. On a key with an index, a value's test is its type and its value as
 * two terms, as the index spells them. On any other key it is one CASE: the planner prices each
 * term of an expression it has no statistics for at 1/200 of the lines, so two terms made it expect
 * one line a day, read and sort the whole day, where walking it newest first stops at the page's
 * end (`details.language:fr` over a day at ten million lines: 1.3 s against 0.14 s).
 */
function detailsCondition(node: FieldNode): Expression<SqlBool> {
  const path = node.path!
  const indexed = isIndexedDetailsPath(path)
  const has = sql`${jsonAt(path)} is not null`
  const type = detailsType(path)
  const value = detailsValue(path)
  /** `test` of the value when it is of JSON type `kind`. */
  const ofType = (kind: string, test: (text: RawBuilder<unknown>) => RawBuilder<unknown>) =>
    indexed ? sql`(${type} = ${sql.lit(kind)} and ${test(value)})` : test(sql`(case when ${type} = ${sql.lit(kind)} then ${value} end)`)
  const number = detailsNumber(path)
  const numberTest = (op: string, n: RawBuilder<unknown>) => (indexed ? sql`(${type} = 'number' and ${number} ${sql.raw(op)} ${n})` : sql`${number} ${sql.raw(op)} ${n}`)
  const v = noNul(node.value)
  if (node.wildcard === 'exists') return sql<SqlBool>`${has}`
  if (node.wildcard === 'prefix') {
    const upper = prefixUpperBound(v)
    if (upper === null) return sql<SqlBool>`(${has} and ${ofType('string', (t) => sql`${t} like ${`${escapeLike(asciiLower(v))}%`}`)})`
    return sql<SqlBool>`(${has} and ${ofType('string', (t) => sql`${t} >= ${asciiLower(v)} and ${t} < ${upper}`)})`
  }
  if (node.op !== ':') {
    const n = Number(v)
    return sql<SqlBool>`(${has} and ${numberTest(node.op, sql`${Number.isFinite(n) ? String(n) : null}::numeric`)})`
  }
  // A JSON number equal to v, or the text v.
  if (!node.quoted && isNumber(v)) {
    return sql<SqlBool>`(${has} and (${ofType('string', (t) => sql`${t} = ${asciiLower(v)}`)} or ${numberTest('=', sql`${String(Number(v))}::numeric`)}))`
  }
  const literal = v.toLowerCase()
  if (!node.quoted && (literal === 'true' || literal === 'false')) return sql<SqlBool>`(${has} and ${ofType('boolean', (t) => sql`${t} = ${literal}`)})`
  if (!node.quoted && literal === 'null') return sql<SqlBool>`(${has} and ${type} = 'null')`
  return sql<SqlBool>`(${has} and ${ofType('string', (t) => sql`${t} = ${asciiLower(v)}`)})`
}

/** json_typeof's (type, text) as SQLite's json_type and json_extract give them. */
function readDetailsGroup(type: string, value: unknown): DetailsTyped {
  const text = value as string | null
  switch (type) {
    case 'string':
      return { type: 'text', value: text }
    case 'number':
      return { type: /^-?\d+$/.test(text ?? '') ? 'integer' : 'real', value: Number(text) }
    case 'boolean':
      return text === 'true' ? { type: 'true', value: 1 } : { type: 'false', value: 0 }
    default:
      return { type, value: text }
  }
}

/** SQLite's order of values under NOCASE (NULL, then numbers, then text: ASCII letters folded, then bytes), as its ORDER BY sorts a group's value. */
function sqliteValueOrder(a: unknown, b: unknown): number {
  const rank = (v: unknown) => (v === null || v === undefined ? 0 : typeof v === 'number' ? 1 : 2)
  if (rank(a) !== rank(b)) return rank(a) - rank(b)
  if (rank(a) === 1) return (a as number) - (b as number)
  return Buffer.compare(Buffer.from(asciiLower(String(a ?? ''))), Buffer.from(asciiLower(String(b ?? ''))))
}

/** The day counts of the whole days `days` (pg-migrations/0004); an end left out is open. */
function inDays<O>(query: SelectQueryBuilder<Database, 'call_log_day_counts', O>, days: DaySpan): SelectQueryBuilder<Database, 'call_log_day_counts', O> {
  let q = query
  if (days.first) q = q.where('day', '>=', days.first)
  if (days.last) q = q.where('day', '<=', days.last)
  return q
}

export const postgresCallLogsSql: CallLogsSql = {
  async dayCombos(db, days) {
    let q = db
      .selectFrom('call_log_day_counts')
      .select((eb) => ['log_level', 'log_type', 'tenant_id', 'agent_id', eb.fn.sum<string>('lines').as('count')])
      .groupBy(['log_level', 'log_type', 'tenant_id', 'agent_id'])
    const rows = await inDays(q, days).execute()
    return rows.map((r) => ({ log_level: r.log_level, log_type: r.log_type, tenant_id: r.tenant_id, agent_id: r.agent_id, count: Number(r.count) }))
  },

  async countedLines(db, { tenantId, source }) {
    let q = db.selectFrom('call_log_day_counts').select((eb) => eb.fn.sum<string | null>('lines').as('count'))
    if (tenantId !== null) q = q.where('tenant_id', '=', tenantId)
    if (source !== undefined) q = q.where('source', '=', source)
    const row = await q.executeTakeFirst()
    return Number(row?.count ?? 0)
  },

  async dayLevels(db, days, levels) {
    const day = sql<string>`to_char(day, 'YYYY-MM-DD')`
    let q = db
      .selectFrom('call_log_day_counts')
      .select((eb) => [day.as('day'), 'log_level', eb.fn.sum<string>('lines').as('count')])
      .groupBy(['day', 'log_level'])
    q = inDays(q, days)
    if (levels?.length) q = q.where('log_level', 'in', levels)
    const rows = await q.execute()
    return rows.map((r) => ({ day: r.day, level: r.log_level, count: Number(r.count) }))
  },

  // Text rather than bytes: pg reads bytea as hex, which costs more than the UTF-8 text it stands for.
  callLogJson: () =>
    jsonObject([
      ['id', jsonString(ref('id'))],
      ['tenant_id', jsonString(ref('tenant_id'))],
      ['log_type', jsonString(ref('log_type'))],
      ['log_level', jsonString(ref('log_level'))],
      ['message', jsonString(ref('message'))],
      ['timestamp', jsonInstant(ref('timestamp'))],
      ['agent_id', jsonString(ref('agent_id'))],
      ['session_id', jsonString(ref('session_id'))],
      ['call_id', jsonString(ref('call_id'))],
      // As written: the writers store details minified (JSON.stringify, or SQLite's json() in a copy).
      ['details', jsonRaw(ref('details'))],
      ['user_id', jsonString(ref('user_id'))],
      ['trace_id', jsonString(ref('trace_id'))],
      ['request_id', jsonString(ref('request_id'))],
    ]),
  callLogCsvLine: () => sql<string>`(${sql.join(EXPORT_COLUMNS.map((c) => csvFieldSql(csvColumn(c))), sql` || ',' || `)} || chr(13) || chr(10))`,

  searchCondition: (terms) =>
    sql<SqlBool>`${ref('call_logs.message_search')} @@ (${sql.join(
      terms.map((t) => sql`callscope_word_query(${noNul(t.text)}, ${t.prefix})`),
      sql` && `,
    )})`,
  wordCondition: (term) => sql<SqlBool>`${ref('call_logs.message_search')} @@ callscope_word_query(${noNul(term.text)}, ${term.prefix})`,
  // callscope_fold of the pattern too, its LIKE wildcards escaped (backslash is LIKE's default escape).
  substringCondition: (text) =>
    sql<SqlBool>`callscope_fold(${ref('call_logs.message')}) like ('%' || replace(replace(replace(callscope_fold(${noNul(text, '')}), '\\', '\\\\'), '%', '\\%'), '_', '\\_') || '%')`,
  containsCondition: (text) => sql<SqlBool>`strpos(${ref('call_logs.message')}, ${noNul(text, '')}) > 0`,

  /*
   * Not ts_headline: it marks words as PostgreSQL's parser splits the raw message (`api.example.com`
   * one word), not as the index is built. The words are found as the query language's are
   * (word-ranges.ts, unicode61's rules), so the marks are SQLite's.
   */
  async highlights(_db, terms, lines) {
    return new Map(lines.map((l) => [l.seq, terms.flatMap((t) => phraseRanges(l.message, t.text, t.prefix))]))
  },

  // statement_timeout 0 would mean none: at least 1 ms. Reset before the connection goes back to the pool.
  withBudget: (db, budgetMs, read) =>
    db.connection().execute(async (connection) => {
      await sql`select set_config('statement_timeout', ${String(Math.max(1, Math.round(budgetMs)))}, false)`.execute(connection)
      try {
        return await read(connection)
      } finally {
        await sql`reset statement_timeout`.execute(connection)
      }
    }),

  // floor, not integer division: extract(epoch) is numeric, with the milliseconds.
  timestampBucket: (bucketSeconds) =>
    sql<number>`(floor(extract(epoch from ${ref('timestamp')}) / ${sql.lit(bucketSeconds)})::bigint * ${sql.lit(bucketSeconds)})`,

  detailsGroupType: detailsType,
  detailsGroupValue: detailsValue,
  detailsGroupShown: (path) => sql`min((${textAt(path)}) collate "C")`,
  readDetailsGroup,
  hasDetailsKey: (path) => sql<SqlBool>`${jsonAt(path)} is not null`,
  detailsCondition,

  async detailsKeys(db, recent, top) {
    const keys = await sql<{ key: string; count: number }>`
      select j.key as key, count(*) as count
      from (${recent}) as recent, json_each(recent.details) as j
      where json_typeof(j.value) not in ('object', 'array')
      group by j.key order by count desc, j.key collate "C" limit ${top}`.execute(db)
    return keys.rows.map((r) => ({ key: r.key, count: Number(r.count) }))
  },

  async detailsValueGroups(db, recent, path) {
    const at = `{${path.join(',')}}`
    const groups = await sql<{ value: string | null; type: string | null; count: number }>`
      select min((recent.details #>> ${at}) collate "C") as value, json_typeof(recent.details #> ${at}) as type, count(*) as count
      from (${recent}) as recent
      group by lower((recent.details #>> ${at}) collate "C"), 2`.execute(db)
    return groups.rows
      .map((g) => (g.type === null ? { type: null, value: null, count: Number(g.count) } : { ...readDetailsGroup(g.type, g.value), count: Number(g.count) }))
      .sort((a, b) => b.count - a.count || sqliteValueOrder(a.value, b.value))
  },
}
