import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { tempDir } from '../../test/helpers/temp-dir'
import { openDatabase } from '../db/connection'
import { createHostGuard } from '../server/host-guard'
import { createHttpApp } from '../server/http-app'
import { createIpcTrpcHandler, type IpcSenderInfo } from '../server/ipc'
import { startListener } from '../server/listener'
import type { PullReport } from '../modules/pull/pull-report'
import type { Service } from '../service'
import { createDatabaseSession } from './database-session'

/*
 * Issue 19: the app's main process never waits on the database. Every connection better-sqlite3
 * opens on this thread, and every statement it prepares or executes here, is counted while the
 * desktop's own path (database-session.ts, the IPC handler, the HTTP listener's app) opens a new
 * demo database and uses it: reads, writes, an import, an export, a snapshot, a count as it goes, a
 * sync storing what it pulls into a second store. Worker threads load
 * their own copy of better-sqlite3, which this mock does not see: their work is not counted.
 */
const onMain = vi.hoisted(() => ({ opened: [] as string[], statements: [] as string[] }))
vi.mock('better-sqlite3', async (importOriginal) => {
  const Real = ((await importOriginal()) as { default: typeof import('better-sqlite3') }).default
  class Counted extends Real {
    constructor(...args: ConstructorParameters<typeof Real>) {
      super(...args)
      onMain.opened.push(String(args[0]))
    }
  }
  const { prepare, exec } = Real.prototype
  Counted.prototype.prepare = function (this: InstanceType<typeof Real>, source: string) {
    onMain.statements.push(source)
    return prepare.call(this, source)
  } as typeof prepare
  Counted.prototype.exec = function (this: InstanceType<typeof Real>, source: string) {
    onMain.statements.push(source)
    return exec.call(this, source)
  }
  return { default: Counted }
})

const dir = tempDir()
const session = createDatabaseSession()
let service: Service
let ipc: ReturnType<typeof createIpcTrpcHandler>
const event: IpcSenderInfo = { sender: { id: 1 }, senderFrame: { url: 'file:///app/index.html' } }
const exportPath = join(dir, 'export.ndjson')

beforeAll(async () => {
  service = await session.open(join(dir, 'demo.sqlite'), { demo: true })
  ipc = createIpcTrpcHandler({
    service,
    runtime: { mode: 'desktop', listenerUrl: null },
    isTrustedSender: () => true,
    desktop: { listener: { status: () => ({}) } as never, chooseSavePath: async () => exportPath },
  })
})
afterAll(() => session.close())

const inputOf = (input?: unknown) => (input === undefined ? '' : `?input=${encodeURIComponent(JSON.stringify(input))}`)
const query = async (path: string, input?: unknown, handler = ipc) => {
  const response = await handler(event, { url: `/${path}${inputOf(input)}`, method: 'GET' })
  expect(response.status, `${path}: ${response.body}`).toBe(200)
  return (JSON.parse(response.body) as { result: { data: any } }).result.data
}
const mutation = async (path: string, input: unknown) => {
  const response = await ipc(event, { url: `/${path}`, method: 'POST', body: JSON.stringify(input) })
  expect(response.status, `${path}: ${response.body}`).toBe(200)
  return (JSON.parse(response.body) as { result: { data: any } }).result.data
}

describe('the desktop main thread and the database', () => {
  it('holds no connection: the store lives on its writer and reader threads', () => {
    expect(service.handle.writer.threaded).toBe(true)
    expect(service.handle.readPool?.threads).toBeGreaterThan(0)
    expect(() => service.handle.sqlite).toThrow(/writer thread/)
  })

  it('runs no SQL while the console and the HTTP port read, write, import, export and snapshot', async () => {
    // The new demo database was migrated and seeded on the writer thread.
    expect(service.seeded?.callLogs).toBeGreaterThan(1000)
    const tenants = await query('tenants.list')
    expect(tenants.length).toBe(service.seeded!.tenants)
    const page = await query('callLogs.search', { filter: { levels: ['error'] }, limit: 50 })
    expect(page.rows.length).toBe(50)
    expect(page.rows.every((r: { log_level: string }) => r.log_level === 'error')).toBe(true)
    const histogram = await query('callLogs.histogram', { filter: {} })
    const levels = (b: Record<string, number | string>) => Object.values(b).reduce<number>((n, v) => n + (typeof v === 'number' ? v : 0), 0)
    expect(histogram.buckets.reduce((n: number, b: Record<string, number | string>) => n + levels(b), 0)).toBe(service.seeded!.callLogs)
    const created = await mutation('tokens.create', { name: 'on a thread', role: 'viewer' })
    expect((await query('tokens.list')).map((t: { name: string }) => t.name)).toContain('on a thread')

    const hostGuard = createHostGuard('127.0.0.1')
    hostGuard.setPort(80)
    const app = createHttpApp({ service, version: 'test', hostGuard, uiRoot: null })
    const rest = (path: string, init: RequestInit = {}) =>
      app.request(`http://127.0.0.1${path}`, { ...init, headers: { Host: '127.0.0.1', Authorization: `Bearer ${created.token}`, ...init.headers } })
    const listed = await rest('/logs/calls?limit=5')
    expect(listed.status, await listed.clone().text()).toBe(200)
    const logs = (await listed.json()) as Array<{ id: string }>
    expect(logs.length).toBe(5)

    const admin = (await mutation('tokens.create', { name: 'importer', role: 'admin' })).token as string
    const record = { ...logs[0], id: '0f0f0f0f-0f0f-4f0f-8f0f-0f0f0f0f0f0f', message: 'imported on the writer thread' }
    const imported = await app.request('http://127.0.0.1/imports/call-logs', {
      method: 'POST',
      headers: { Host: '127.0.0.1', Authorization: `Bearer ${admin}`, 'Content-Type': 'application/x-ndjson' },
      body: `${JSON.stringify(record)}\n`,
    })
    expect(imported.status).toBe(201)
    expect(await imported.json()).toMatchObject({ status: 'completed', inserted: 1 })
    const found = await query('callLogs.search', { filter: { q: '"imported on the writer thread"' }, limit: 5 })
    expect(found.rows.map((r: { id: string }) => r.id)).toEqual([record.id])

    const exported = await mutation('callLogs.exportToFile', { filter: { levels: ['error'] }, format: 'ndjson' })
    expect(exported.path).toBe(exportPath)
    expect(readFileSync(exportPath, 'utf8').trimEnd().split('\n').length).toBe(exported.rows)

    const snapshot = await service.database.snapshot(join(dir, 'pack.sqlite'), { redact: true })
    expect(existsSync(snapshot.path)).toBe(true)
    expect(snapshot.redacted?.rows).toBeGreaterThan(0)

    expect(onMain.opened).toEqual([])
    expect(onMain.statements).toEqual([])
  })

  it('runs no SQL while a count goes as it comes and a sync stores what it pulls', async () => {
    const total = async (filter: object) => (await query('callLogs.countBy', { filter, by: 'level', top: 10 })).total as number
    // The console's count as it goes (Server-Sent Events, here over IPC), by a key without an index: each line is read.
    const input = { filter: {}, by: 'details.language', top: 5 }
    const stream = await ipc(event, { url: `/callLogs.countByProgress${inputOf(input)}`, method: 'GET' })
    expect(stream.status).toBe(200)
    const events = stream.body.split('\n').filter((line) => line.startsWith('data: {')).map((line) => JSON.parse(line.slice('data: '.length)))
    const steps = events.filter((e) => 'answer' in e)
    expect(steps.length).toBeGreaterThan(1)
    expect(steps.map((s) => s.complete)).toEqual([...steps.slice(1).map(() => false), true])
    expect(steps[0].answer.total).toBeLessThan(steps.at(-1).answer.total)
    expect(steps.at(-1).answer).toEqual(await query('callLogs.countBy', input))
    expect(steps.at(-1).answer.total).toBe(await total({}))

    // "Keep in sync" into a second, new store from this one's own HTTP listener: the mirror's writes go to its writer thread.
    const remoteToken = (await mutation('tokens.create', { name: 'remote', role: 'admin' })).token as string
    const hostGuard = createHostGuard('127.0.0.1')
    const remote = await startListener(createHttpApp({ service, version: 'test', hostGuard, uiRoot: null }), { host: '127.0.0.1', port: 0, hostGuard })
    const mirrorSession = createDatabaseSession()
    try {
      const mirror = await mirrorSession.open(join(dir, 'mirror.sqlite'))
      const mirrorIpc = createIpcTrpcHandler({ service: mirror, runtime: { mode: 'desktop', listenerUrl: null }, isTrustedSender: () => true })
      const since = new Date(Date.now() - 3 * 86_400_000).toISOString()
      let firstCycle!: (pull: PullReport) => void
      const cycled = new Promise<PullReport>((resolve) => (firstCycle = resolve))
      const { done } = await mirror.syncs.begin({ baseUrl: remote.url, token: remoteToken, since, intervalMs: 60_000 }, { onCycle: (pull) => firstCycle(pull) })
      const pull = await cycled
      expect(pull).toMatchObject({ status: 'completed', sync: true, errors: [] })
      const pulled = await total({ from: since })
      expect(pulled).toBeGreaterThan(100)
      expect(pull.counts.callLogs.inserted).toBe(pulled)
      expect((await query('callLogs.countBy', { filter: {}, by: 'level', top: 10 }, mirrorIpc)).total).toBe(pulled)
      expect(await mirror.syncs.stop(remote.url)).toMatchObject({ state: 'stopped' })
      await done
    } finally {
      await mirrorSession.close()
      await remote.close()
    }

    expect(onMain.opened).toEqual([])
    expect(onMain.statements).toEqual([])
  })

  it('sees SQL that does run on this thread (the count above can fail)', async () => {
    const inline = openDatabase({ path: ':memory:' })
    await inline.db.selectFrom('sqlite_master' as never).selectAll().execute()
    await inline.close()
    expect(onMain.opened).toEqual([':memory:'])
    expect(onMain.statements.length).toBeGreaterThan(0)
  })
})
