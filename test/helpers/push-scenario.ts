import Database from 'better-sqlite3'
import { join } from 'node:path'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCliAsync, startServe, type ServeProcess } from './cli'
import { startCuttingProxy } from './cutting-proxy'
import { createPgDatabase } from './pg-database'
import { tempDir } from './temp-dir'
import { ADMIN_TOKEN, startTestServer, type TestServer } from './test-server'

/*
 * `callscope push` (issue 20 pt 4) against a real `callscope serve`, on SQLite
 * (test/integration/push-cli.test.ts) and on PostgreSQL (test/pg/push.test.ts): one scenario for
 * both. The laptop is the demo store with a second Callscope's demo store pulled into it, so it holds
 * the same ids under two sources; the team server starts empty.
 */

const TEAM_TOKEN = 'team-admin-token'
const n = (v: number) => v.toLocaleString('en-US')

type Row = Record<string, unknown>

/** Runs one read on the team server's store, SQLite file or PostgreSQL database, while serve may be writing it. */
export async function readTeamStore(store: 'sqlite' | 'postgres', location: string, query: string): Promise<Row[]> {
  if (store === 'sqlite') {
    const db = new Database(location, { readonly: true, fileMustExist: true })
    db.pragma('busy_timeout = 5000')
    try {
      return db.prepare(query).all() as Row[]
    } finally {
      db.close()
    }
  }
  const client = new pg.Client({ connectionString: location })
  await client.connect()
  try {
    return (await client.query(query)).rows as Row[]
  } finally {
    await client.end()
  }
}

export function describePushTo(store: 'sqlite' | 'postgres'): void {
  describe(`callscope push to a team server on ${store === 'sqlite' ? 'SQLite' : 'PostgreSQL'}`, () => {
    const dir = tempDir()
    const env = { CALLSCOPE_KEY_FILE: join(dir, 'team.key') }
    let backend: TestServer
    let laptop: TestServer
    let team: ServeProcess
    let teamDb: string

    const read = (query: string) => readTeamStore(store, teamDb, query)
    /** Call logs per source on the team server, and how many imports it recorded. */
    async function teamCounts(): Promise<{ bySource: Record<string, number>; imports: number }> {
      const rows = await read("select source, count(*) as n from call_logs group by source order by source")
      const [imports] = await read('select count(*) as n from imports')
      return { bySource: Object.fromEntries(rows.map((r) => [r.source === '' ? 'local' : r.source, Number(r.n)])), imports: Number(imports!.n) }
    }
    const laptopCount = (source: string) => laptop.sqlite.prepare('select count(*) from call_logs where source = ?').pluck().get(source) as number
    // A whole store sent again (--all) takes a minute or more on a loaded 2-core machine: the tests' own timeouts bound it.
    const push = (args: string[], token = TEAM_TOKEN) => runCliAsync(['push', '--token', token, '--db', laptop.dbPath, ...args], {}, 170_000)

    beforeAll(async () => {
      backend = await startTestServer()
      laptop = await startTestServer()
      const pulled = await laptop.service.pulls.pull({ baseUrl: backend.url, token: ADMIN_TOKEN, since: '2000-01-01', rate: 1000, backoffMs: 5, retries: 2 })
      expect(pulled).toMatchObject({ status: 'completed', errors: [] })
      teamDb = store === 'postgres' ? await createPgDatabase({ seed: false }) : join(dir, 'team.sqlite')
      team = await startServe(['--db', teamDb, '--no-seed'], { CALLSCOPE_TOKEN: TEAM_TOKEN, ...env })
    }, 180_000)
    afterAll(async () => {
      await team?.stop()
      await laptop?.close()
      await backend?.close()
    })

    it('completes on a second run a push whose connection broke part way', async () => {
      const total = laptopCount('')
      expect(total).toBeGreaterThan(10_000)
      // Uploads of 8,000 call logs: the first lands whole, the second breaks after its first MB.
      const proxy = await startCuttingProxy(team.url, { nth: 2, afterBytes: 1_000_000 })
      try {
        const broken = await push(['--to', proxy.url, '--source', 'local', '--chunk', '8000'])
        expect(proxy.cut).toBe(true)
        expect(broken.status).toBe(1)
        expect(broken.stderr).toContain(`the connection to ${proxy.url} broke during an upload`)
        expect(broken.stderr).toContain('run the same push again to complete it')
        expect(broken.stdout).toContain(`Stopped pushing to ${proxy.url}`)
        expect(broken.stdout).toContain(`  local: 8,000 of ${n(total)} call logs sent: 8,000 new on the server, 0 already there, 0 refused (2 uploads)`)
      } finally {
        await proxy.close()
      }
      // The server ends the cut upload's import (failed), keeping what it had read.
      await expect.poll(async () => Number((await read("select count(*) as n from imports where status = 'running'"))[0]!.n), { timeout: 30_000 }).toBe(0)
      expect(await read('select status, records_read from imports order by started_at')).toMatchObject([{ status: 'completed' }, { status: 'failed' }])
      const partial = (await teamCounts()).bySource.local ?? 0
      expect(partial).toBeGreaterThanOrEqual(8000)
      expect(partial).toBeLessThan(total)

      // --source: only that backend's call logs, under its own source on the server.
      const only = await push(['--to', team.url, '--source', backend.url])
      expect(only.stderr).toBe('')
      expect(only.status).toBe(0)
      const pulled = laptopCount(backend.url)
      expect(only.stdout).toContain(`  ${backend.url}: ${n(pulled)} of ${n(pulled)} call logs sent: ${n(pulled)} new on the server, 0 already there, 0 refused (1 upload)`)
      expect(only.stdout).not.toContain('  local:')
      expect((await teamCounts()).bySource).toEqual({ local: partial, [backend.url]: pulled })

      // Everything: every local call log (the broken push went to another address, the proxy's, so
      // where it got to does not count here), the server skipping what it has; the backend's were all
      // pushed just now, so none is sent.
      const all = await push(['--to', team.url])
      expect(all.status).toBe(0)
      expect(all.stdout).toContain(`  local: ${n(total)} of ${n(total)} call logs sent: ${n(total - partial)} new on the server, ${n(partial)} already there, 0 refused`)
      expect(all.stdout).toContain(`  ${backend.url}: 0 of ${n(pulled)} call logs sent, ${n(pulled)} pushed there before and not sent again: 0 new on the server, 0 already there, 0 refused (0 uploads)`)
      expect((await teamCounts()).bySource).toEqual({ local: total, [backend.url]: pulled })
      // Each row arrived through an import that names its source; none claims to be pulled on the server.
      const imports = await read("select call_log_source as source, sum(inserted) as inserted from imports group by call_log_source order by call_log_source")
      expect(imports.map((r) => [r.source, Number(r.inserted)])).toEqual([['', total], [backend.url, pulled]])
      expect(Number((await read('select count(*) as n from call_logs where pull_id is not null or import_id is null'))[0]!.n)).toBe(0)
    }, 180_000)

    it('serves the pushed call logs as the laptop does, per source: every agent, and the whole range a day at a time', async () => {
      const get = async (server: 'laptop' | 'team', path: string) => {
        const response = server === 'laptop' ? await laptop.get(path) : await fetch(`${team.url}${path}`, { headers: { Authorization: `Bearer ${TEAM_TOKEN}` } })
        return { status: response.status, body: await response.text() }
      }
      let compared = 0
      for (const source of ['local', backend.url]) {
        const key = source === 'local' ? '' : source
        const q = `source=${encodeURIComponent(source)}`
        const agents = laptop.sqlite.prepare('select distinct agent_id from call_logs where source = ? and agent_id is not null order by 1').pluck().all(key) as string[]
        const days = laptop.sqlite.prepare('select distinct substr(timestamp, 1, 10) from call_logs where source = ? order by 1').pluck().all(key) as string[]
        expect(agents.length).toBeGreaterThan(5)
        for (const path of [...agents.map((a) => `/logs/calls?agent_id=${a}&limit=1000&${q}`), ...days.map((d) => `/logs/calls?start_date=${d}&end_date=${d}&limit=1000&${q}`)]) {
          const expected = await get('laptop', path)
          expect(expected.status).toBe(200)
          expect(await get('team', path), path).toEqual(expected)
          compared++
        }
      }
      expect(compared).toBeGreaterThan(40)
      // The server lists the pushed backend as a source, as a pull of it would.
      const sources = await fetch(`${team.url}/trpc/sources.list`, { headers: { Authorization: `Bearer ${TEAM_TOKEN}` } })
      const listed = ((await sources.json()) as { result: { data: { sources: Array<{ name: string; kind: string }> } } }).result.data.sources
      expect(listed.map((s) => [s.name, s.kind])).toEqual([['local', 'local'], [backend.url, 'pulled']])
    }, 120_000)

    it('pushes again sending nothing, and says so; with --all sends everything, which the server skips', async () => {
      const before = await teamCounts()
      const total = laptopCount('') + laptopCount(backend.url)
      const again = await push(['--to', team.url])
      expect(again.status).toBe(0)
      expect(again.stdout).toContain(`Nothing new since the last push: all ${n(total)} call logs were pushed there before (--all sends them again; the server skips what it has).`)
      expect(again.stdout).toContain(`  local: 0 of ${n(laptopCount(''))} call logs sent, ${n(laptopCount(''))} pushed there before and not sent again: 0 new on the server`)
      expect((await teamCounts()).imports).toBe(before.imports)

      const all = await push(['--to', team.url, '--all'])
      expect(all.status).toBe(0)
      expect(all.stdout).toContain(`Nothing new: the server already had all ${n(total)} call logs.`)
      expect(all.stdout).toContain(`  local: ${n(laptopCount(''))} of ${n(laptopCount(''))} call logs sent: 0 new on the server, ${n(laptopCount(''))} already there, 0 refused`)
      expect((await teamCounts()).bySource).toEqual(before.bySource)
    }, 180_000)

    it('sends only what was stored since the last push, and everything again when the store no longer holds where it got to', async () => {
      const before = (await teamCounts()).bySource
      const tenant = laptop.sqlite.prepare("select tenant_id from call_logs where source = '' limit 1").pluck().get() as string
      const fresh = [1, 2, 3].map((i) => JSON.stringify({
        id: `00000000-0000-4000-8000-00000000000${i}`, tenant_id: tenant, log_type: 'llm', log_level: 'error', message: `pushed later ${i}`,
        timestamp: `2026-11-26T10:00:0${i}.000Z`, agent_id: null, session_id: null, call_id: null, details: {}, user_id: null, trace_id: null, request_id: null,
      }))
      const imported = await fetch(`${laptop.url}/imports/call-logs?format=ndjson`, { method: 'POST', headers: { Authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/x-ndjson' }, body: fresh.join('\n') })
      expect(imported.status).toBe(201)
      expect(await imported.json()).toMatchObject({ inserted: 3, invalid: 0 })
      const local = laptopCount('')
      const later = await push(['--to', team.url])
      expect(later.status).toBe(0)
      expect(later.stdout).toContain(`  local: 3 of ${n(local)} call logs sent, ${n(local - 3)} pushed there before and not sent again: 3 new on the server, 0 already there, 0 refused (1 upload)`)
      expect((await teamCounts()).bySource).toEqual({ ...before, local: before.local! + 3 })

      // The newest pushed line deleted on the laptop: where the push got to is gone, so all is sent (and skipped there).
      laptop.sqlite.prepare("delete from call_logs where id = '00000000-0000-4000-8000-000000000003'").run()
      const restarted = await push(['--to', team.url, '--source', 'local'])
      expect(restarted.status).toBe(0)
      expect(restarted.stdout).toContain(`  local: ${n(local - 1)} of ${n(local - 1)} call logs sent: 0 new on the server, ${n(local - 1)} already there, 0 refused`)
      expect(restarted.stdout).toContain('    this store no longer holds the last record pushed there, so every record is sent again (the server skips what it has)')
    }, 180_000)

    it('refuses a viewer token and a tenant token with the server\'s 403, and a token bound to another source, writing nothing', async () => {
      const tenant = '0b7c8a52-5d64-4d7f-9a55-3c2b1e0f4a11'
      // The team server has no tenant of its own; one is made for the tenant token to name.
      if (store === 'sqlite') {
        const db = new Database(teamDb)
        db.prepare("insert into tenants (id, name, billing_plan, created_at, updated_at) values (?, 'Team tenant', 'pro', '2026-11-01T00:00:00.000Z', '2026-11-01T00:00:00.000Z')").run(tenant)
        db.close()
      } else {
        await read(`insert into tenants (id, name, billing_plan, created_at, updated_at) values ('${tenant}', 'Team tenant', 'pro', '2026-11-01T00:00:00.000Z', '2026-11-01T00:00:00.000Z')`)
      }
      const viewer = await runCliAsync(['token', 'create', '-n', 'viewer', '-r', 'viewer', '--db', teamDb], env)
      const scoped = await runCliAsync(['token', 'create', '-n', 'tenant', '-r', 'tenant', '-t', tenant, '--db', teamDb], env)
      expect([viewer.status, scoped.status]).toEqual([0, 0])
      const before = await teamCounts()
      for (const token of [viewer.stdout.trim(), scoped.stdout.trim()]) {
        const refused = await push(['--to', team.url], token)
        expect(refused.status).toBe(1)
        expect(refused.stderr).toContain('The server refused the token for uploads (403: Not enough permissions: this operation needs an admin token)')
        expect(refused.stderr).toContain('it needs an admin token of the server (callscope token create --role admin, run there)')
        expect(refused.stdout).toBe('')
      }
      expect(await teamCounts()).toEqual(before)

      // An admin token bound to one source writes that source only: the first other upload is refused before any row.
      const bound = await runCliAsync(['token', 'create', '-n', 'bound', '-r', 'admin', '--source', backend.url, '--db', teamDb], env)
      expect(bound.status).toBe(0)
      const outside = await push(['--to', team.url, '--all'], bound.stdout.trim())
      expect(outside.status).toBe(1)
      expect(outside.stderr).toContain(`The server refused the upload of local (403: Not enough permissions: this request may write only the source '${backend.url}', not 'local'): push the source this token may write with --source`)
      expect(outside.stdout).toContain('  local: 0 of ')
      const inside = await push(['--to', team.url, '--source', backend.url, '--all'], bound.stdout.trim())
      expect(inside.status).toBe(0)
      expect(inside.stdout).toContain(`  ${backend.url}: ${n(laptopCount(backend.url))} of ${n(laptopCount(backend.url))} call logs sent: 0 new on the server`)
      expect((await teamCounts()).bySource).toEqual(before.bySource)
    }, 180_000)

    it('says what is wrong, and exits non-zero, for a wrong token, a server that is not there and a bad address', async () => {
      const wrong = await push(['--to', team.url], 'cs_not-a-token')
      expect(wrong.status).toBe(1)
      expect(wrong.stderr).toContain('The server refused the token (401: Invalid or revoked token): it is wrong, revoked or expired')

      const away = await push(['--to', 'http://127.0.0.1:9'])
      expect(away.status).toBe(1)
      expect(away.stderr).toContain('Nothing answers at http://127.0.0.1:9: check that the team server runs (callscope serve)')

      const notCallscope = await push(['--to', `${laptop.url}/no-such-path`])
      expect(notCallscope.status).toBe(1)
      expect(notCallscope.stderr).toContain(`${laptop.url}/no-such-path answered, but not as a Callscope server (GET /healthz gave 404): check the address`)

      const bad = await push(['--to', 'ftp://team.example'])
      expect(bad.status).toBe(2)
      expect(bad.stderr).toContain('error: --to: the base URL must be http or https, not ftp:')

      const unknown = await push(['--to', team.url, '--source', 'http://never-pulled.example'])
      expect(unknown.status).toBe(2)
      expect(unknown.stderr).toContain(`error: --source: Unknown source 'http://never-pulled.example': this store has 'local', '${backend.url}'`)

      const noToken = await runCliAsync(['push', '--to', team.url, '--db', laptop.dbPath])
      expect(noToken.status).toBe(2)
      expect(noToken.stderr).toContain('a token is needed: pass --token or set CALLSCOPE_TEAM_TOKEN')
    }, 180_000)
  })
}
