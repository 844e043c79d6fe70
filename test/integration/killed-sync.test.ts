import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { join } from 'node:path'
import BetterSqlite3 from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { CLI, runCliAsync } from '../helpers/cli'
import { tempDir } from '../helpers/temp-dir'
import { ADMIN_TOKEN, startTestServer, type TestServer } from '../helpers/test-server'

/*
 * Issue 36, point 6: `kill -9` during a keep-in-sync (`callscope pull --follow`, which stores window
 * by window with every index live). What the killed process left must be true: rows the source has,
 * none twice, and a pull record and cursor that say no more and no less than the rows; the same
 * pull run again then leaves the store equal to the source.
 */

vi.setConfig({ testTimeout: 120_000 })

const SINCE = '2026-11-01T00:00:00.000Z'
let remote: TestServer
beforeAll(async () => {
  remote = await startTestServer()
})
afterAll(() => remote.close())

const read = (path: string) => {
  const db = new BetterSqlite3(path, { readonly: true, fileMustExist: true })
  db.pragma('busy_timeout = 5000')
  return db
}

/** The call logs stored so far, or -1 while the store is not there yet (or still being created). */
function storedCount(path: string): number {
  try {
    const db = read(path)
    try {
      return db.prepare('select count(*) from call_logs').pluck().get() as number
    } finally {
      db.close()
    }
  } catch {
    return -1
  }
}

describe('kill -9 during pull --follow', () => {
  it.each([1, 2])('leaves rows, pull record and cursor true to each other; the next pull completes equal to the source (kill %i)', async (nth) => {
    const path = join(tempDir(), `killed-${nth}.sqlite`)
    const sourceIds = remote.sqlite.prepare('select id from call_logs where timestamp >= ? order by id').pluck().all(SINCE) as string[]
    // Slow enough to be caught part way: a few windows a second. Killed at a different depth each time.
    const child = spawn(process.execPath, [CLI, 'pull', '--base-url', remote.url, '--since', SINCE, '--rate', '8', '--follow', '--interval', '1h', '--db', path], {
      env: { ...process.env, CALLSCOPE_TOKEN: '', CALLSCOPE_REMOTE_TOKEN: ADMIN_TOKEN },
      stdio: 'ignore',
    })
    const exited = once(child, 'exit')
    try {
      await vi.waitUntil(() => storedCount(path) >= nth * 1500, { timeout: 60_000, interval: 20 })
    } finally {
      child.kill('SIGKILL')
      await exited
    }

    const db = read(path)
    try {
      const local = db.prepare('select id from call_logs order by id').pluck().all() as string[]
      expect(local.length).toBeGreaterThan(0)
      expect(local.length).toBeLessThan(sourceIds.length)
      // No row twice, and none the source does not have.
      expect(new Set(local).size).toBe(local.length)
      const source = new Set(sourceIds)
      expect(local.filter((id) => !source.has(id))).toEqual([])

      // The killed pull's record counts exactly the rows it stored.
      const pull = db.prepare("select id, status, counts from pulls order by started_at desc limit 1").get() as { id: string; status: string; counts: string }
      const counts = JSON.parse(pull.counts) as { callLogs: { inserted: number; duplicates: number } }
      const byPull = db.prepare('select count(*) from call_logs where pull_id = ?').pluck().get(pull.id) as number
      expect(byPull).toBe(local.length)
      expect(counts.callLogs.inserted).toBe(byPull)

      // What the cursor calls covered is all there: every source row from its start up to its end.
      const cover = db.prepare("select value from pull_cursors where key = 'call_logs:*'").pluck().get() as string | undefined
      if (cover) {
        const { from, to } = JSON.parse(cover) as { from: string; to: string }
        const covered = remote.sqlite.prepare('select id from call_logs where timestamp >= ? and timestamp < ? order by id').pluck().all(from, to) as string[]
        const localSet = new Set(local)
        expect(covered.filter((id) => !localSet.has(id))).toEqual([])
      }
    } finally {
      db.close()
    }

    const again = await runCliAsync(['pull', '--base-url', remote.url, '--since', SINCE, '--rate', '1000', '--db', path], { CALLSCOPE_REMOTE_TOKEN: ADMIN_TOKEN })
    expect(again.stderr).toBe('')
    expect(again.status).toBe(0)
    const after = read(path)
    try {
      expect(after.prepare('select id from call_logs order by id').pluck().all()).toEqual(sourceIds)
      expect(after.pragma('integrity_check', { simple: true })).toBe('ok')
    } finally {
      after.close()
    }
  })
})
