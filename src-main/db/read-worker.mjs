// A read worker of the read pool (read-pool.ts): one read-only better-sqlite3 connection per thread,
// running the SELECTs kysely compiled on the main thread. Plain JavaScript with no import of the
// sources, so a thread starts in milliseconds both from the sources (no TypeScript loader needed)
// and from the electron-vite bundle.
import { lowerWorkerPriority, READER_NICE } from '../lib/thread-priority.mjs'
import Database from 'better-sqlite3'
import { move, transferableSymbol, valueSymbol, workerData } from 'piscina'
import { joinJson } from './json-rows.mjs'

const { path, nativeBinding } = workerData
// Below the main thread when the cores are all busy.
lowerWorkerPriority(READER_NICE)
const db = new Database(path, { readonly: true, fileMustExist: true, nativeBinding })
// The same read-side settings as the main connection (connection.ts): WAL lets this connection read
// beside the writer; temporary b-trees (ORDER BY, GROUP BY) in memory. A 32 MiB page cache per reader,
// half the writer's: the console's counts over the whole store fill every reader's cache, and at 64 MiB
// two readers' caches took a loaded server past its 512 MiB bound (docs/benchmarks.md, "Memory under
// load"). What a read needs over and over (the indexes' upper levels) fits in far less; the rest comes
// from the operating system's file cache either way.
db.pragma('busy_timeout = 5000')
db.pragma('cache_size = -32768')
db.pragma('temp_store = MEMORY')
// The query budget (query-budget.ts, repeated here because this file imports no sources): a read
// whose WHERE calls it stops with this error once its deadline (epoch ms) has passed.
db.function('callscope_budget', { deterministic: false }, (deadline) => {
  if (Date.now() >= Number(deadline)) throw new Error('CALLSCOPE_QUERY_BUDGET_EXCEEDED')
  return 1
})

/** Prepared statements by SQL text: the console and the API send the same few shapes again and again. */
const statements = new Map()
const MAX_STATEMENTS = 256

function prepared(sql) {
  let statement = statements.get(sql)
  if (!statement) {
    if (statements.size >= MAX_STATEMENTS) statements.clear()
    statement = db.prepare(sql)
    if (!statement.reader) throw new Error('The read pool only runs statements that return rows')
    statements.set(sql, statement)
  }
  return statement
}

/**
 * Piscina's task: one query, its rows. An error crosses back to the main thread by structured clone,
 * which keeps only a plain Error's message: SQLite's code goes into it.
 */
export default function read({ sql, parameters }) {
  try {
    return prepared(sql).raw(false).all(parameters)
  } catch (error) {
    throw wireError(error)
  }
}

/**
 * Piscina's task `json`: one query whose rows each hold a JSON value in their `json` column,
 * joined into one array, NDJSON or a single value (json-rows.mjs). The bytes are moved to the main
 * thread, not copied, and sent as they are: no row objects, no string to clone, measure or encode
 * there.
 */
export function json({ sql, parameters, shape }) {
  try {
    const statement = prepared(sql).raw(true)
    const result = joinJson(statement.columns().map((c) => c.name), statement.all(parameters), shape)
    // piscina transfers a result's kTransferable and hands over its kValue.
    return move({ [transferableSymbol]: result.bytes.buffer, [valueSymbol]: result })
  } catch (error) {
    throw wireError(error)
  }
}

function wireError(error) {
  return new Error(error?.code ? `${error.code}: ${error.message}` : String(error?.message ?? error))
}
