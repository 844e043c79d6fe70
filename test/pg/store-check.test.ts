import { closeSync, openSync, writeSync } from 'node:fs'
import { join } from 'node:path'
import { randomBytes } from 'node:crypto'
import pg from 'pg'
import { afterAll, describe, expect, inject, it } from 'vitest'
import { runCli, startServe } from '../helpers/cli'
import { createPgDatabase, PG_DEMO_TEMPLATE } from '../helpers/pg-database'

async function sql<T = Record<string, unknown>>(url: string, statement: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    return (await client.query(statement)).rows as T[]
  } finally {
    await client.end()
  }
}

/**
 * A copy of the demo database made file by file (FILE_COPY: none of its pages pass through the
 * server's buffers), with the first page of its tenants table overwritten before anything reads it.
 */
async function damagedPgDatabase(): Promise<string> {
  const base = inject('pgBaseUrl')!
  const name = `t_damaged_${randomBytes(4).toString('hex')}`
  await sql(`${base}/postgres`, `create database ${name} template ${PG_DEMO_TEMPLATE} strategy file_copy`)
  afterAll(() => sql(`${base}/postgres`, `drop database if exists ${name} with (force)`))
  const url = `${base}/${name}`
  const [setting] = await sql<{ data_directory: string }>(url, 'show data_directory')
  const [relation] = await sql<{ file: string }>(url, "select pg_relation_filepath('tenants') as file")
  const fd = openSync(join(setting!.data_directory, relation!.file), 'r+')
  try {
    writeSync(fd, Buffer.alloc(8192, 0xee), 0, 8192, 0)
  } finally {
    closeSync(fd)
  }
  return url
}

/*
 * Issue 36, point 2 on PostgreSQL: `callscope db check` reads every table through and says what it
 * cannot see; `db recover` points to pg_dump instead of pretending to salvage a server's files.
 */

describe('callscope db check on PostgreSQL', () => {
  it('reads every table of the demo store through, says it is healthy and what it does not check', { timeout: 60_000 }, async () => {
    const url = await createPgDatabase()
    const result = runCli(['db', 'check', '--db', url])
    expect(result.stderr).toBe('')
    expect(result.status).toBe(0)
    expect(result.stdout).toContain('Verdict:  healthy, no damage found')
    expect(result.stdout).toContain('Not checked: indexes (amcheck, out of scope)')

    const json = JSON.parse(runCli(['db', 'check', '--db', url, '--json']).stdout) as { store: string; healthy: boolean; checked: string[]; notChecked: string[] }
    expect(json).toMatchObject({ store: 'postgres', healthy: true })
    // Every table of the store's schema, partitions of call_logs included, was read.
    expect(json.checked[0]).toMatch(/^every page of the \d+ tables/)
    expect(Number(/(\d+) tables/.exec(json.checked[0]!)![1])).toBeGreaterThanOrEqual(30)
  })

  it('names a table whose page the server cannot read, and exits 3', { timeout: 60_000 }, async () => {
    const url = await damagedPgDatabase()
    const result = runCli(['db', 'check', '--db', url, '--json'])
    expect(result.status).toBe(3)
    const report = JSON.parse(result.stdout) as { healthy: boolean; problems: string[] }
    expect(report.healthy).toBe(false)
    expect(report.problems).toHaveLength(1)
    expect(report.problems[0]).toMatch(/^tenants: invalid page in block 0 of relation/)
  })

  it('serve answers a read of the damaged table with 503 and what to do, and other reads as before', { timeout: 90_000 }, async () => {
    const url = await damagedPgDatabase()
    const serve = await startServe(['--db', url], { CALLSCOPE_TOKEN: 'pg-damage-token' })
    try {
      const headers = { Authorization: 'Bearer pg-damage-token' }
      const tenants = await fetch(`${serve.url}/trpc/tenants.list`, { headers })
      expect(tenants.status).toBe(503)
      expect(JSON.stringify(await tenants.json())).toContain('the store is damaged')
      const calls = await fetch(`${serve.url}/calls?limit=5`, { headers })
      expect(calls.status).toBe(200)
      const [count] = await sql<{ n: string }>(url, 'select count(*) as n from calls')
      expect(((await calls.json()) as { total: number }).total).toBe(Number(count!.n))
    } finally {
      await serve.stop()
    }
  })

  it('db recover says a PostgreSQL store is restored from pg_dump, exit 1', { timeout: 60_000 }, async () => {
    const url = await createPgDatabase({ seed: false })
    const result = runCli(['db', 'recover', '--db', url, '--out', '/tmp/never-written.sqlite'])
    expect(result.status).toBe(1)
    expect(result.stderr).toContain('restored from pg_dump')
  })
})
