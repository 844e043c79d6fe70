import Database from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { COPIED_TABLES } from '../../src-main/db/pg-copy'
import { runCliAsync } from '../helpers/cli'
import { tempDir } from '../helpers/temp-dir'
import { startTestServer, type TestServer } from '../helpers/test-server'

/*
 * `callscope snapshot` of a PostgreSQL store (issue 20): the same demo pack a SQLite store writes,
 * one SQLite file. The same demo rows on both stores, each packed by the real CLI: both packs must
 * hold the same rows in every table, their word indexes must find the same lines, and secrets stay
 * out unless asked for.
 */

let sqlite: TestServer
let postgres: TestServer
const dir = tempDir()

beforeAll(async () => {
  ;[sqlite, postgres] = await Promise.all([startTestServer(), startTestServer({ store: 'postgres' })])
})
afterAll(async () => {
  await Promise.all([sqlite?.close(), postgres?.close()])
})

async function pack(server: TestServer, name: string, ...flags: string[]) {
  const file = `${dir}/${name}.sqlite`
  const result = await runCliAsync(['snapshot', file, '--db', server.dbPath, ...flags], {}, 120_000)
  expect(result.stderr).toBe('')
  expect(result.status).toBe(0)
  return { file, stdout: result.stdout }
}

/** Every row of a pack's table, each as JSON, sorted: the table's content whatever order it was written in. */
function rowsOf(file: string, table: string): string[] {
  const db = new Database(file, { readonly: true })
  try {
    return (db.prepare(`select * from "${table}"`).all() as object[]).map((row) => JSON.stringify(row)).sort()
  } finally {
    db.close()
  }
}

function scalar(file: string, query: string, ...params: unknown[]): unknown {
  const db = new Database(file, { readonly: true })
  try {
    return db.prepare(query).pluck().get(...params)
  } finally {
    db.close()
  }
}

describe('a snapshot of a PostgreSQL store', { timeout: 300_000 }, () => {
  it('is the pack the same rows give on SQLite: every table alike, the word indexes finding the same lines', async () => {
    const [fromPg, fromSqlite] = await Promise.all([pack(postgres, 'pg-pack'), pack(sqlite, 'sqlite-pack')])
    expect(fromPg.stdout).toMatch(/^Snapshot of postgres:\/\/\S+ written to \S+pg-pack\.sqlite \(\d+\.\d MiB\) in \d+\.\d s\nLeft out: 0 API tokens/)
    let rows = 0
    for (const table of COPIED_TABLES) {
      const [a, b] = [rowsOf(fromPg.file, table), rowsOf(fromSqlite.file, table)]
      expect(a.length, table).toBe(b.length)
      expect(a, table).toEqual(b)
      rows += a.length
    }
    expect(rows).toBeGreaterThan(20_000)
    for (const [index, term] of [['call_logs_fts', 'timeout'], ['call_logs_fts', '"LLM request"'], ['call_logs_trigram', 'imeout']]) {
      const found = (file: string) => scalar(file, `select count(*) from ${index} where ${index} match ?`, term)
      expect(found(fromPg.file), `${index} ${term}`).toBe(found(fromSqlite.file))
      expect(found(fromPg.file)).toBeGreaterThan(0)
    }
    // The pack is a store of its own: integrity checked, and its schema current.
    expect(scalar(fromPg.file, 'pragma integrity_check')).toBe('ok')
    expect(scalar(fromPg.file, 'select count(*) from kysely_migration')).toBe(scalar(fromSqlite.file, 'select count(*) from kysely_migration'))
  })

  it('leaves the tokens out unless asked for, and refuses to overwrite a file without --force', async () => {
    const created = await postgres.service.tokens.create({ name: 'engineer', role: 'viewer' })
    const plain = await pack(postgres, 'plain')
    expect(plain.stdout).toMatch(/Left out: 1 API tokens/)
    expect(scalar(plain.file, 'select count(*) from api_tokens')).toBe(0)
    const withSecrets = await pack(postgres, 'with-secrets', '--include-secrets')
    expect(withSecrets.stdout).toMatch(/Secrets included/)
    expect(scalar(withSecrets.file, 'select id from api_tokens')).toBe(created.record.id)
    const again = await runCliAsync(['snapshot', plain.file, '--db', postgres.dbPath])
    expect(again.status).not.toBe(0)
    expect(again.stderr).toMatch(/already exists \(use --force to replace it\)/)
  })
})
