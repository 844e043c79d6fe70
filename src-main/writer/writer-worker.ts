import { parentPort, workerData } from 'node:worker_threads'
import BetterSqlite3 from 'better-sqlite3'
import { Kysely, SqliteDialect } from 'kysely'
import { applyPragmas } from '../db/pragmas'
import { registerQueryBudget } from '../db/query-budget'
import { executeOn } from '../db/inline-store'
import type { Database } from '../db/schema'
import type { WriteContext } from '../db/write-job'
import { type FromWriter, type ToWriter, toWire, type WriterData } from '../db/writer-protocol'
import { BACKGROUND_NICE, lowerWorkerPriority } from '../lib/thread-priority.mjs'
import { writeJobs } from './write-jobs'

/**
 * The writer thread (db/writer-thread.ts starts it): the store's one writing connection, running
 * the statements and write jobs the service posts, one at a time in the order they come.
 */
const { path, nativeBinding } = workerData as WriterData
lowerWorkerPriority(BACKGROUND_NICE)
const port = parentPort!
const post = (message: FromWriter) => port.postMessage(message)

let sqlite: BetterSqlite3.Database
try {
  sqlite = new BetterSqlite3(path, { nativeBinding })
  applyPragmas(sqlite, false)
  registerQueryBudget(sqlite)
} catch (error) {
  post({ type: 'failed', error: toWire(error) })
  process.exit(1)
}
const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) })
const sessions = new Map<string, unknown>()

async function answer(message: Exclude<ToWriter, { type: 'close' }>): Promise<unknown> {
  if (message.type === 'execute') return executeOn(sqlite, message.statement)
  const job = writeJobs.get(message.name)
  if (!job) throw new Error(`Unknown write job ${message.name}`)
  const ctx: WriteContext = { sqlite, db, path, nativeBinding, sessions, progress: (value) => post({ id: message.id, type: 'progress', value }) }
  return job.run(ctx, message.args)
}

// One at a time: a job that awaits (a snapshot's kysely calls) finishes before the next message.
let queue = Promise.resolve()
port.on('message', (message: ToWriter) => {
  queue = queue.then(async () => {
    if (message.type === 'close') {
      sqlite.close()
      port.close()
      return
    }
    try {
      post({ id: message.id, type: 'result', value: await answer(message) })
    } catch (error) {
      post({ id: message.id, type: 'error', error: toWire(error) })
    }
  })
})
post({ type: 'ready' })
