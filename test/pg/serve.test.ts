import { describe, expect, it } from 'vitest'
import { runCliAsync, startServe } from '../helpers/cli'
import { createPgDatabase } from '../helpers/pg-database'
import { tempDir } from '../helpers/temp-dir'
import { pgMigrations } from '../../src-main/db/pg-migrations'

/** `callscope serve --db postgres://…` and `callscope db info` on PostgreSQL (issue 20), through the real CLI. */
describe('callscope serve on PostgreSQL', () => {
  const dir = tempDir()

  it('migrates and seeds a new database, serves the API from it, and serves it again without seeding', async () => {
    const url = await createPgDatabase({ bare: true })
    const env = { CALLSCOPE_KEY_FILE: `${dir}/server.key` }
    const server = await startServe(['--db', url, '--pool', '4'], env)
    let token: string | undefined
    try {
      expect(server.banner).toContain(`Database: ${url} (new); PostgreSQL through a pool of 4 connections`)
      expect(server.banner).toMatch(/Seeded demo data: 3 tenants, \d+ agents, \d+ sessions, \d+ call logs/)
      token = /Admin token \(shown once[^)]*\): (cs_\S+)/.exec(server.banner)?.[1]
      expect(token).toBeDefined()
      const logs = await fetch(`${server.url}/logs/calls?limit=3`, { headers: { Authorization: `Bearer ${token}` } })
      expect(logs.status).toBe(200)
      const records = (await logs.json()) as { timestamp: string }[]
      expect(records).toHaveLength(3)
      expect(records[0]!.timestamp >= records[1]!.timestamp).toBe(true)
      expect((await fetch(`${server.url}/logs/calls`)).status).toBe(401)
    } finally {
      expect(await server.stop()).toBe(0)
    }

    // CALLSCOPE_DB names the server as --db does; the token made on the first start still works.
    const again = await startServe([], { ...env, CALLSCOPE_DB: url })
    try {
      expect(again.banner).toContain(`Database: ${url}; PostgreSQL through a pool of 10 connections`)
      expect(again.banner).not.toMatch(/Seeded|Admin token \(shown once/)
      const tenants = await fetch(`${again.url}/logs/calls?limit=1`, { headers: { Authorization: `Bearer ${token}` } })
      expect(tenants.status).toBe(200)
    } finally {
      expect(await again.stop()).toBe(0)
    }

    const info = await runCliAsync(['db', 'info', '--db', url, '--json'], env)
    expect(info.status).toBe(0)
    const parsed = JSON.parse(info.stdout) as { kind: string; path: string; schema: { current: string }; counts: Record<string, number> }
    expect(parsed).toMatchObject({ kind: 'postgres', path: url, schema: { current: Object.keys(pgMigrations).at(-1) } })
    expect(parsed.counts.tenants).toBe(3)
    expect(parsed.counts.api_tokens).toBe(1)
    const text = await runCliAsync(['db', 'info', '--db', url], env)
    expect(text.stdout).toContain('Store:   PostgreSQL')
    expect(text.stdout).toContain(`URL:     ${url}`)
    // Seeds a store, starts the server twice and runs db info twice: about 15 s alone, more on a loaded machine.
  }, 90_000)

  it('says what is wrong when the server cannot be reached', async () => {
    const result = await runCliAsync(['db', 'info', '--db', 'postgres://postgres@127.0.0.1:1/nowhere'])
    expect(result.status).not.toBe(0)
    expect(result.stderr).toMatch(/ECONNREFUSED|connect/)
  })
})
