import { spawn } from 'node:child_process'
import { copyFileSync } from 'node:fs'
import { once } from 'node:events'
import { join } from 'node:path'
import BetterSqlite3 from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest'
import { CLI, runCliAsync, type ServeProcess, startServe } from '../helpers/cli'
import { tempDir } from '../helpers/temp-dir'

/*
 * Issue 36, point 6: `kill -9` of `callscope push` part way. Each upload is one import on the team
 * server: the server ends the cut one and keeps what it had committed. The team store must then
 * hold only rows the laptop has, none twice, each import's record counting exactly its rows; the
 * laptop's cursor must claim no row the server lacks; and the same push again completes with the
 * server holding every laptop row.
 */

vi.setConfig({ testTimeout: 180_000 })

const TOKEN = 'killed-push-team-token'
const dir = tempDir()
const laptop = join(dir, 'laptop.sqlite')
const teamDb = join(dir, 'team.sqlite')
let team: ServeProcess

beforeAll(async () => {
  copyFileSync(inject('demoTemplate'), laptop)
  team = await startServe(['--db', teamDb, '--no-seed'], { CALLSCOPE_TOKEN: TOKEN, CALLSCOPE_KEY_FILE: join(dir, 'team.key') })
}, 120_000)
afterAll(() => team.stop())

function read<T>(path: string, work: (db: BetterSqlite3.Database) => T): T {
  const db = new BetterSqlite3(path, { readonly: true, fileMustExist: true })
  db.pragma('busy_timeout = 5000')
  try {
    return work(db)
  } finally {
    db.close()
  }
}
const teamCount = () => read(teamDb, (db) => db.prepare('select count(*) from call_logs').pluck().get() as number)
const laptopIds = () => read(laptop, (db) => db.prepare("select id from call_logs where source = '' order by id").pluck().all() as string[])

describe('kill -9 during callscope push', () => {
  it('the team store holds whole imports of laptop rows, the cursor claims none it lacks; the push again completes', async () => {
    const ids = laptopIds()
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
        () => {
          if (child.exitCode !== null) throw new Error(`push ended (${child.exitCode}) before it could be killed: ${stderr}`)
          return teamCount() >= 3000
        },
        { timeout: 90_000, interval: 10 },
      )
    } finally {
      child.kill('SIGKILL')
      await exited
    }
    // The server notices the cut upload and ends its import.
    await expect.poll(() => read(teamDb, (db) => db.prepare("select count(*) from imports where status = 'running'").pluck().get()), { timeout: 30_000 }).toBe(0)

    read(teamDb, (db) => {
      const stored = db.prepare('select id from call_logs order by id').pluck().all() as string[]
      expect(stored.length).toBeGreaterThanOrEqual(3000)
      expect(stored.length).toBeLessThan(ids.length)
      expect(new Set(stored).size).toBe(stored.length)
      const mine = new Set(ids)
      expect(stored.filter((id) => !mine.has(id))).toEqual([])
      // Every import's record counts exactly the rows it left, the cut one too.
      const imports = db
        .prepare('select i.id, i.status, i.inserted, (select count(*) from call_logs c where c.import_id = i.id) as rows from imports i order by i.started_at')
        .all() as Array<{ id: string; status: string; inserted: number; rows: number }>
      for (const i of imports) expect(i.inserted, `import ${i.id} (${i.status})`).toBe(i.rows)
      expect(imports.reduce((n, i) => n + i.rows, 0)).toBe(stored.length)
    })

    // The laptop's cursor (the last record the server confirmed): every local row up to it is on the server.
    const cursor = read(laptop, (db) => db.prepare("select value from settings where key like 'push.cursor %'").pluck().get() as string | undefined)
    if (cursor) {
      const { seq } = JSON.parse(cursor) as { seq: number }
      const upTo = read(laptop, (db) => db.prepare("select id from call_logs where source = '' and seq <= ? order by id").pluck().all(seq) as string[])
      const onServer = new Set(read(teamDb, (db) => db.prepare('select id from call_logs').pluck().all() as string[]))
      expect(upTo.filter((id) => !onServer.has(id))).toEqual([])
    }

    const again = await runCliAsync(['push', '--to', team.url, '--source', 'local', '--db', laptop], { CALLSCOPE_TEAM_TOKEN: TOKEN }, 170_000)
    // stderr holds its progress lines only.
    expect(again.stderr).not.toMatch(/error/i)
    expect(again.status).toBe(0)
    expect(read(teamDb, (db) => db.prepare('select id from call_logs order by id').pluck().all())).toEqual(ids)
    read(teamDb, (db) => {
      const wrong = db.prepare('select count(*) from imports i where inserted != (select count(*) from call_logs c where c.import_id = i.id)').pluck().get()
      expect(wrong).toBe(0)
    })
  })
})
