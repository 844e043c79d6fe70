import { spawn } from 'node:child_process'
import { copyFileSync } from 'node:fs'
import { once } from 'node:events'
import { join } from 'node:path'
import BetterSqlite3 from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest'
import { CLI, runCliAsync, type ServeProcess, startServe } from './cli'
import { createPgDatabase } from './pg-database'
import { readTeamStore } from './push-scenario'
import { tempDir } from './temp-dir'

/*
 * Issue 36, point 6: `kill -9` of `callscope push` part way, to a team server on SQLite
 * (test/integration/killed-push.test.ts) or PostgreSQL (test/pg/killed-push.test.ts). Each upload
 * is one import on the team server: the server ends the cut one and keeps the batches it had
 * committed. The team store must then hold only rows the laptop has, none twice, each import's
 * record counting exactly its rows; the laptop's cursor must claim no row the server lacks; and the
 * same push again completes with the server holding every laptop row.
 */

const TOKEN = 'killed-push-team-token'
type Row = Record<string, unknown>

export function describeKilledPushTo(store: 'sqlite' | 'postgres'): void {
  describe(`kill -9 during callscope push to a team server on ${store === 'sqlite' ? 'SQLite' : 'PostgreSQL'}`, () => {
    const dir = tempDir()
    const laptop = join(dir, 'laptop.sqlite')
    let teamDb: string
    let team: ServeProcess

    beforeAll(async () => {
      copyFileSync(inject('demoTemplate'), laptop)
      teamDb = store === 'postgres' ? await createPgDatabase({ seed: false }) : join(dir, 'team.sqlite')
      team = await startServe(['--db', teamDb, '--no-seed'], { CALLSCOPE_TOKEN: TOKEN, CALLSCOPE_KEY_FILE: join(dir, 'team.key') })
    }, 120_000)
    afterAll(() => team?.stop())

    function onLaptop<T>(work: (db: BetterSqlite3.Database) => T): T {
      const db = new BetterSqlite3(laptop, { readonly: true, fileMustExist: true })
      try {
        return work(db)
      } finally {
        db.close()
      }
    }
    /** One read of the team server's store, SQLite file or PostgreSQL database, while serve writes it. */
    const onTeam = (query: string) => readTeamStore(store, teamDb, query)
    const teamCount = async (query: string) => Number((await onTeam(query))[0]!.n)
    const teamIds = async () => (await onTeam('select id from call_logs')).map((r) => r.id as string).sort()

    it('the team store holds whole imports of laptop rows, the cursor claims none it lacks; the push again completes', async () => {
      const ids = onLaptop((db) => db.prepare("select id from call_logs where source = '' order by id").pluck().all() as string[]).sort()
      expect(ids.length).toBeGreaterThan(10_000)
      // Uploads of 1,000 call logs: killed once three have landed, most likely while a fourth is on its way.
      const child = spawn(process.execPath, [CLI, 'push', '--to', team.url, '--source', 'local', '--chunk', '1000', '--db', laptop], {
        env: { ...process.env, CALLSCOPE_TOKEN: '', CALLSCOPE_TEAM_TOKEN: TOKEN },
        stdio: ['ignore', 'ignore', 'pipe'],
      })
      let stderr = ''
      child.stderr!.on('data', (chunk) => (stderr += chunk))
      const exited = once(child, 'exit')
      try {
        await vi.waitUntil(
          async () => {
            if (child.exitCode !== null) throw new Error(`push ended (${child.exitCode}) before it could be killed: ${stderr}`)
            return (await teamCount('select count(*) as n from call_logs')) >= 3000
          },
          { timeout: 90_000, interval: 10 },
        )
      } finally {
        child.kill('SIGKILL')
        await exited
      }
      // The server notices the cut upload and ends its import.
      await expect.poll(() => teamCount("select count(*) as n from imports where status = 'running'"), { timeout: 30_000 }).toBe(0)

      const stored = await teamIds()
      expect(stored.length).toBeGreaterThanOrEqual(3000)
      expect(stored.length).toBeLessThan(ids.length)
      expect(new Set(stored).size).toBe(stored.length)
      const mine = new Set(ids)
      expect(stored.filter((id) => !mine.has(id))).toEqual([])
      // Every import's record counts exactly the rows it left, the cut one too.
      const imports = await onTeam('select i.id, i.status, i.inserted, (select count(*) from call_logs c where c.import_id = i.id) as n from imports i order by i.started_at')
      for (const i of imports) expect(Number(i.inserted), `import ${String(i.id)} (${String(i.status)})`).toBe(Number(i.n))
      expect(imports.reduce((n, i) => n + Number(i.n), 0)).toBe(stored.length)

      // The laptop's cursor (the last record the server confirmed): every local row up to it is on the server.
      const cursor = onLaptop((db) => db.prepare("select value from settings where key like 'push.cursor %'").pluck().get() as string | undefined)
      if (cursor) {
        const { seq } = JSON.parse(cursor) as { seq: number }
        const upTo = onLaptop((db) => db.prepare("select id from call_logs where source = '' and seq <= ?").pluck().all(seq) as string[])
        const onServer = new Set(stored)
        expect(upTo.filter((id) => !onServer.has(id))).toEqual([])
      }

      const again = await runCliAsync(['push', '--to', team.url, '--source', 'local', '--db', laptop], { CALLSCOPE_TEAM_TOKEN: TOKEN }, 170_000)
      // stderr holds its progress lines only.
      expect(again.stderr).not.toMatch(/error/i)
      expect(again.status).toBe(0)
      expect(await teamIds()).toEqual(ids)
      expect(await teamCount('select count(*) as n from imports i where inserted != (select count(*) from call_logs c where c.import_id = i.id)')).toBe(0)
    }, 180_000)
  })
}
