import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { join } from 'node:path'
import BetterSqlite3 from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import type { PullOptions } from '../../src-main/modules/pull/pulls.service'
import { createService, type Service } from '../../src-main/service'
import { CLI, runCliAsync } from '../helpers/cli'
import { startFaultProxy, type FaultProxy } from '../helpers/fault-proxy'
import { groundTruth } from '../helpers/ground-truth'
import { tempDir } from '../helpers/temp-dir'
import { ADMIN_TOKEN, startTestServer, type TestServer } from '../helpers/test-server'

/*
 * A first pull into a store with no call log loads them in bulk (pull-call-logs.ts walkInBulk):
 * indexes and full-text triggers dropped, commits every CHECKPOINT_RECORDS rows, all built once
 * at the end. What it leaves must be what a window-by-window pull leaves.
 */

// Each test pulls the whole demo remote two or three times (a bulk load, the window-by-window pull
// it is compared with, a resumed one): about 25 s on a loaded 2-core machine, over the default 30 s
// budget when the whole suite runs beside it.
vi.setConfig({ testTimeout: 90_000 })

const SINCE = '2026-10-01'
const QUICK = { rate: 1000, backoffMs: 5, retries: 2 }
const LOG_COLUMNS = 'id, tenant_id, log_type, log_level, log_level_original, message, timestamp, agent_id, session_id, call_id, user_id, trace_id, request_id, details, source'

let remote: TestServer
let proxy: FaultProxy
beforeAll(async () => {
  remote = await startTestServer()
  proxy = await startFaultProxy(remote.url)
})
afterAll(async () => {
  await proxy.close()
  await remote.close()
})

const read = (path: string) => new BetterSqlite3(path, { readonly: true, fileMustExist: true })
/** The store's call logs in insertion order (seq), every stored column but the pull's id. */
const logsInOrder = (db: BetterSqlite3.Database) => db.prepare(`select ${LOG_COLUMNS} from call_logs order by seq`).all()
/** Indexes and triggers of call_logs, by name and definition. */
const schemaObjects = (db: BetterSqlite3.Database) =>
  db.prepare("select type, name, sql from sqlite_master where tbl_name = 'call_logs' and sql is not null order by type, name").all()
/** Every word and substring search agrees with the rows: FTS5's own integrity checks against the content table. */
function checkMessageIndexes(path: string): void {
  // The check is an INSERT of FTS5's: on a writing connection of its own (the store is closed by then).
  const db = groundTruth(path)
  try {
    for (const index of ['call_logs_fts', 'call_logs_trigram']) db.exec(`insert into ${index}(${index}, rank) values ('integrity-check', 1)`)
  } finally {
    db.close()
  }
}
const matches = (db: BetterSqlite3.Database, index: string, query: string) => db.prepare(`select count(*) from ${index} where ${index} match ?`).pluck().get(query)

async function pullInto(path: string, bulk: 'auto' | false, onProgress?: () => void, more: Partial<PullOptions> = {}) {
  const service: Service = await createService({ dbPath: path, seedNewDatabase: false })
  try {
    return await service.pulls.pull({ baseUrl: remote.url, token: ADMIN_TOKEN, since: SINCE, bulk, onProgress, ...QUICK, ...more })
  } finally {
    await service.close()
  }
}

describe('a first pull loads its call logs in bulk', () => {
  it('stores the same rows in the same order as a pull window by window, with every index and the full-text search built', async () => {
    const dir = tempDir()
    const windowByWindow = join(dir, 'windows.sqlite')
    const bulk = join(dir, 'bulk.sqlite')
    const plain = await pullInto(windowByWindow, false)

    // The load is under way while the pull reports its windows: its row is there, the indexes are not.
    let seenUnderWay = 0
    let truth: BetterSqlite3.Database | null = null
    const loaded = await pullInto(bulk, 'auto', () => {
      truth ??= groundTruth(bulk)
      const loads = truth.prepare('select count(*) from call_log_bulk_loads').pluck().get() as number
      const timestampIndex = truth.prepare("select count(*) from sqlite_master where name = 'call_logs_timestamp'").pluck().get() as number
      if (loads === 1 && timestampIndex === 0) seenUnderWay++
    })
    ;(truth as BetterSqlite3.Database | null)?.close()
    expect(seenUnderWay).toBeGreaterThan(0)

    expect(loaded).toMatchObject({ status: 'completed', errors: [] })
    expect(loaded.counts.callLogs).toEqual(plain.counts.callLogs)
    const expected = remote.sqlite.prepare("select count(*) from call_logs where timestamp >= '2026-10-01T00:00:00.000Z'").pluck().get() as number
    expect(loaded.counts.callLogs.inserted).toBe(expected)

    const a = read(windowByWindow)
    const b = read(bulk)
    try {
      expect(logsInOrder(b)).toEqual(logsInOrder(a))
      expect(schemaObjects(b)).toEqual(schemaObjects(a))
      expect(b.prepare('select count(*) from call_log_bulk_loads').pluck().get()).toBe(0)
      // The cursors a resumed or later pull starts from, and the steps the call logs made known.
      const cursorKeys = (db: BetterSqlite3.Database) => db.prepare('select source, key from pull_cursors order by key').all()
      expect(cursorKeys(b)).toEqual(cursorKeys(a))
      checkMessageIndexes(bulk)
      for (const [index, query] of [['call_logs_fts', 'timeout'], ['call_logs_trigram', '"ransf"']] as const) {
        expect(matches(b, index, query)).toBe(matches(a, index, query))
        expect(matches(b, index, query)).toBeGreaterThan(0)
      }
      expect(b.pragma('integrity_check', { simple: true })).toBe('ok')
      // The explorer's newest-first read uses the timestamp index again.
      const plan = b.prepare('explain query plan select id from call_logs order by timestamp desc, seq desc limit 10').all() as Array<{ detail: string }>
      expect(plan.map((p) => p.detail).join(' ')).toMatch(/USING (COVERING )?INDEX call_logs_timestamp/)
    } finally {
      a.close()
      b.close()
    }
  })

  it('takes a follow-up pull window by window, from where the bulk load ended, and stores what is new', async () => {
    const path = join(tempDir(), 'mirror.sqlite')
    await pullInto(path, 'auto')
    const fresh = {
      id: '7b0e4c1e-4a4d-4c5e-9b59-0d8f3f1c2c01', tenant_id: (remote.sqlite.prepare('select id from tenants limit 1').pluck().get() as string),
      log_type: 'call', log_level: 'info', message: 'arrived after the bulk load', timestamp: new Date(Date.now() - 60_000).toISOString(), details: '{}',
    }
    remote.sqlite.prepare('insert into call_logs (id, tenant_id, log_type, log_level, message, timestamp, details) values (@id, @tenant_id, @log_type, @log_level, @message, @timestamp, @details)').run(fresh)
    try {
      const again = await pullInto(path, 'auto')
      expect(again.status).toBe('completed')
      expect(again.counts.callLogs.inserted).toBe(1)
      expect(again.counts.callLogs.windows).toBeLessThanOrEqual(2)
      const db = read(path)
      try {
        expect(db.prepare('select message from call_logs where id = ?').pluck().get(fresh.id)).toBe(fresh.message)
        expect(matches(db, 'call_logs_fts', '"arrived after the bulk load"')).toBe(1)
        checkMessageIndexes(path)
      } finally {
        db.close()
      }
    } finally {
      remote.sqlite.prepare('delete from call_logs where id = ?').run(fresh.id)
    }
  })
})

describe('a bulk load killed in the middle', () => {
  it('leaves a store whose next open puts the indexes back, and the next pull resumes from the last checkpoint', async () => {
    const dir = tempDir()
    const path = join(dir, 'killed.sqlite')
    const total = remote.sqlite.prepare("select count(*) from call_logs where timestamp >= '2026-10-01T00:00:00.000Z'").pluck().get() as number
    const env = { ...process.env, CALLSCOPE_TOKEN: '', CALLSCOPE_REMOTE_TOKEN: ADMIN_TOKEN, CALLSCOPE_BULK_CHECKPOINT_RECORDS: '2000' }
    // Slow enough to be caught between checkpoints: 20 windows a second.
    const child = spawn(process.execPath, [CLI, 'pull', '--base-url', remote.url, '--since', SINCE, '--rate', '20', '--db', path], { env, stdio: 'ignore' })
    const exited = once(child, 'exit')
    try {
      // Killed once two checkpoints are committed: rows and their cursor on disk, the indexes not yet back.
      await vi.waitUntil(
        () => {
          try {
            const db = read(path)
            try {
              db.pragma('busy_timeout = 2000')
              const loads = db.prepare('select count(*) from call_log_bulk_loads').pluck().get() as number
              return loads === 1 && (db.prepare('select count(*) from call_logs').pluck().get() as number) >= 4000
            } finally {
              db.close()
            }
          } catch {
            return false
          }
        },
        { timeout: 40_000, interval: 50 },
      )
    } finally {
      child.kill('SIGKILL')
      await exited
    }

    const killed = read(path)
    const committed = killed.prepare('select count(*) from call_logs').pluck().get() as number
    killed.close()
    expect(committed).toBeLessThan(total)

    const resumed = await runCliAsync(['pull', '--base-url', remote.url, '--since', SINCE, '--rate', '1000', '--db', path], { CALLSCOPE_REMOTE_TOKEN: ADMIN_TOKEN })
    expect(resumed.stderr).toContain('Rebuilding the call log indexes a pull killed while loading in bulk left out')
    expect(resumed.status).toBe(0)
    // Only what the killed pull had not committed came again (and the overlap a resumed walk re-reads).
    const inserted = Number(/: ([\d,]+) new,/.exec(resumed.stdout)?.[1]?.replace(/,/g, ''))
    expect(inserted).toBe(total - committed)

    const db = read(path)
    const reference = join(dir, 'reference.sqlite')
    await pullInto(reference, false)
    const ref = read(reference)
    try {
      expect(db.prepare('select count(*) from call_logs').pluck().get()).toBe(total)
      expect(db.prepare('select count(*) from call_log_bulk_loads').pluck().get()).toBe(0)
      expect(schemaObjects(db)).toEqual(schemaObjects(ref))
      expect(db.prepare(`select ${LOG_COLUMNS} from call_logs order by id`).all()).toEqual(ref.prepare(`select ${LOG_COLUMNS} from call_logs order by id`).all())
      checkMessageIndexes(path)
      expect(matches(db, 'call_logs_fts', 'timeout')).toBe(matches(ref, 'call_logs_fts', 'timeout'))
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok')
    } finally {
      db.close()
      ref.close()
    }
  })
})

describe('a bulk load whose fetching stops in the middle', () => {
  const total = () => remote.sqlite.prepare("select count(*) from call_logs where timestamp >= '2026-10-01T00:00:00.000Z'").pluck().get() as number

  /** After a pull that stopped: what it stored is kept, indexed and searchable, and a second pull stores the rest, as a pull that never stopped would. */
  async function expectResumed(path: string, stored: number, baseUrl = remote.url) {
    const kept = read(path)
    try {
      expect(kept.prepare('select count(*) from call_logs').pluck().get()).toBe(stored)
      expect(kept.prepare('select count(*) from call_log_bulk_loads').pluck().get()).toBe(0)
    } finally {
      kept.close()
    }
    checkMessageIndexes(path)

    const resumed = await pullInto(path, 'auto', undefined, { baseUrl })
    expect(resumed).toMatchObject({ status: 'completed', errors: [] })
    // The rest, and no more than the overlap a resumed walk reads again.
    expect(resumed.counts.callLogs.inserted).toBe(total() - stored)
    const reference = join(tempDir(), 'reference.sqlite')
    await pullInto(reference, false, undefined, { baseUrl })
    const db = read(path)
    const ref = read(reference)
    try {
      expect(db.prepare(`select ${LOG_COLUMNS} from call_logs order by id`).all()).toEqual(ref.prepare(`select ${LOG_COLUMNS} from call_logs order by id`).all())
      expect(schemaObjects(db)).toEqual(schemaObjects(ref))
      expect(matches(db, 'call_logs_fts', 'timeout')).toBe(matches(ref, 'call_logs_fts', 'timeout'))
    } finally {
      db.close()
      ref.close()
    }
    checkMessageIndexes(path)
  }

  // In bulk (each window stored with the load's checkpoints) and window by window (each in its own
  // transaction): the worker fetches for both, and dies after handing over three windows with records.
  it.each([
    ['a bulk load', 'auto', 'died.sqlite'],
    ['a window-by-window pull', false, 'died-windows.sqlite'],
  ] as const)('reports the fetch worker of %s dying, keeps the windows it stored, and the next pull resumes', async (_, bulk, file) => {
    const path = join(tempDir(), file)
    const fetchWorker = new URL('../helpers/fetch-worker-that-dies.mjs', import.meta.url)
    const report = await pullInto(path, bulk, undefined, { fetchWorker })
    expect(report).toMatchObject({ status: 'failed', failure: 'the thread fetching the call logs stopped (exit code 9)', failureKind: 'fetch' })
    // The windows handed over before it died (three with records) were stored.
    expect(report.counts.callLogs.inserted).toBeGreaterThan(0)
    expect(report.counts.callLogs.inserted).toBe(report.counts.callLogs.fetched)
    await expectResumed(path, report.counts.callLogs.inserted)
  })

  it('reports the remote failing as a window-by-window pull does, keeps what it stored, and the next pull resumes', async () => {
    const path = join(tempDir(), 'garbage.sqlite')
    let calls = 0
    proxy.setFault((r) => (r.url.startsWith('/logs/calls') && ++calls > 20 ? { status: 200, body: '<html>maintenance</html>' } : undefined))
    try {
      const report = await pullInto(path, 'auto', undefined, { baseUrl: proxy.url })
      expect(report).toMatchObject({ status: 'failed', failureKind: 'garbage' })
      expect(report.failure).toMatch(/^GET \/logs\/calls\?.* answered 200 with a body that is not JSON: "<html>maintenance/)
      expect(report.counts.callLogs.inserted).toBeGreaterThan(0)
      proxy.setFault(() => undefined)
      await expectResumed(path, report.counts.callLogs.inserted, proxy.url)
    } finally {
      proxy.setFault(() => undefined)
      proxy.requests.length = 0
    }
  })
})
