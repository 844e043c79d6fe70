import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import envPaths from 'env-paths'

const POSTGRES_URL = /^postgres(ql)?:\/\//i

/**
 * Where the headless service keeps its database unless told otherwise: CALLSCOPE_DB (a file, or a
 * PostgreSQL server's `postgres://` URL), else the per-user data folder.
 */
export function defaultDbPath(env: NodeJS.ProcessEnv = process.env): string {
  if (env.CALLSCOPE_DB) return POSTGRES_URL.test(env.CALLSCOPE_DB) ? env.CALLSCOPE_DB : resolve(env.CALLSCOPE_DB)
  return join(envPaths('callscope', { suffix: '' }).data, 'callscope.sqlite')
}

/**
 * The key that seals provider keys and webhook secrets of a PostgreSQL store (a SQLite store keeps
 * it beside its file): CALLSCOPE_KEY_FILE, else a file per server and database in the per-user
 * data folder. Every instance serving the same database needs the same key file.
 */
export function keyFileFor(dbPath: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (!POSTGRES_URL.test(dbPath)) return undefined
  if (env.CALLSCOPE_KEY_FILE) return resolve(env.CALLSCOPE_KEY_FILE)
  let name = 'postgres'
  try {
    const url = new URL(dbPath)
    name = `postgres-${url.hostname || 'local'}-${url.port || '5432'}-${url.pathname.slice(1) || 'postgres'}`.replace(/[^A-Za-z0-9._-]/g, '_')
  } catch {
    // An unreadable URL fails when the store opens, with the driver's message.
  }
  return join(envPaths('callscope', { suffix: '' }).data, `${name}.key`)
}

/** Connections to PostgreSQL, when CALLSCOPE_PG_POOL says (db/pg-connection.ts has the default). */
export function poolSizeFrom(env: NodeJS.ProcessEnv = process.env): number | undefined {
  const n = Number(env.CALLSCOPE_PG_POOL)
  return Number.isInteger(n) && n > 0 ? n : undefined
}

/** The package's root folder (holds package.json, resources/ and the built console in out/). */
export const packageRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..')

export const consoleBuildDir = join(packageRoot, 'out', 'renderer')
