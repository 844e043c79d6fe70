import { copyFileSync, existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:http'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { SecretShownOnce } from '../../src-shared/schemas/webhooks'
import { record, uuid } from '../helpers/call-log-files'
import { runCliAsync, type ServeProcess, startServe } from '../helpers/cli'
import { damageMiddleOf, damagePagesOf } from '../helpers/damaged-store'
import { listenOnLoopback } from '../helpers/loopback-server'
import { tempDir } from '../helpers/temp-dir'
import { ADMIN_TOKEN, startTestServer, type TestServer } from '../helpers/test-server'
import { independentlySigned } from '../helpers/webhook-receiver'

/*
 * Issue 36, the fault table's "damaged store" column for every write path: each write runs through
 * its real transport (serve's REST and tRPC, the CLI) against a store with pages overwritten the way
 * test/integration/damaged-store.test.ts overwrites them. SQLite only knows a page is bad when it
 * reads it, so each write either touches no damaged page and succeeds, its rows then in the store,
 * or meets one and fails whole: 503 / SERVICE_UNAVAILABLE / exit 1 with the damaged-store message
 * (what failed, the store, `db check`, `db recover`), the readable rows as they were, never a 500,
 * never a report of rows that are not there, serve still answering after.
 *
 * The stores are small (3,000 call logs). Where a write must meet damage, the damage is where it
 * must read: the last leaf page of the call_logs_id index, where every id above the stored ones
 * goes (the dedupe lookup of an import, an upload, a pull, a push, the seed), or the one page of a
 * small table the write inserts into.
 */

const TOKEN = 'damaged-writes-test-token'
const TENANT = '10000000-0000-4000-8000-000000000001'
const SLOW = 120_000
const dir = tempDir('callscope-damaged-writes-')
const files = tempDir('callscope-damaged-writes-files-')

/** Call logs numbered `from`… with ids uuid(n * step): step 10 leaves room below the top id for new ids between the stored ones. */
const ndjson = (from: number, count: number, step = 1) =>
  `${Array.from({ length: count }, (_, i) => record((from + i) * step, { message: `Line ${(from + i) * step} about the booking` })).join('\n')}\n`

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
/** The one message a damaged store gives: what failed, where, and the two commands to run. */
function expectDamaged(message: string, what: string, store: string): void {
  expect(message).toMatch(new RegExp(`${escape(what)} failed: the store is damaged \\(${escape(store)}: `))
  expect(message).toContain(`callscope db check --db ${store}`)
  expect(message).toContain(`callscope db recover --db ${store} --out NEW.db`)
}

/** Reads a store file on a connection of the test's own; `not indexed` reads call_logs around a damaged index. */
function read<T>(file: string, sql: string): T[] {
  const db = new Database(file, { readonly: true })
  try {
    return db.prepare(sql).all() as T[]
  } finally {
    db.close()
  }
}
const callLogIds = (file: string) => read<{ id: string }>(file, 'select id from call_logs not indexed order by seq').map((r) => r.id)
const rowsOf = (file: string, table: string) => read<Record<string, unknown>>(file, `select * from "${table}" order by rowid`)

/** A copy of `from` (and of the key file sealing its secrets) named `name` in the test's folder, damaged by `damage`. */
function copyOf(from: string, name: string, damage: (file: string) => void = () => {}): string {
  const file = join(dir, name)
  copyFileSync(from, file)
  if (existsSync(`${from}.key`)) copyFileSync(`${from}.key`, `${file}.key`)
  damage(file)
  return file
}

const trpcCall = async (url: string, path: string, input: unknown) => {
  const response = await fetch(`${url}/trpc/${path}`, { method: 'POST', headers: { Authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' }, body: JSON.stringify(input) })
  const body = (await response.json()) as { result?: { data: unknown }; error?: { message: string; data: { code: string; httpStatus: number } } }
  return { status: response.status, data: body.result?.data, error: body.error ? { message: body.error.message, code: body.error.data.code } : null }
}

/** Serve is alive and well after the write: /healthz answers, and a read that meets no damage. */
async function expectServing(serve: ServeProcess): Promise<void> {
  expect(serve.child.exitCode).toBeNull()
  expect((await fetch(`${serve.url}/healthz`)).status).toBe(200)
  expect((await fetch(`${serve.url}/tenants/${TENANT}`, { headers: { Authorization: `Bearer ${TOKEN}` } })).status).toBe(200)
}

/*
 * The base stores, written by the real service before any damage and closed (no WAL beside them):
 * `base` holds 3,000 call logs with ids uuid(10), uuid(20), … uuid(30,000), a tenant with a webhook
 * signing secret, a saved view, a stored token, and loopback webhook targets allowed; `laptop` holds
 * 3,000 other call logs (ids from uuid(100,001)), for pushes.
 */
let base: string
let laptop: string
let secret: string
beforeAll(async () => {
  const server = await startTestServer({ seed: false, dbPath: join(dir, 'base.sqlite') })
  try {
    server.sqlite.prepare(`insert into tenants (id, name, billing_plan, meta_data, created_at, updated_at) values (?, 'Acme', 'pro', '{}', 't', 't')`).run(TENANT)
    const upload = await server.get('/imports/call-logs?format=ndjson&file_name=base.ndjson', { method: 'POST', body: ndjson(1, 3000, 10) })
    expect(upload.status).toBe(201)
    expect((await server.get('/views', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Errors', state: { level: ['error'] } }) })).status).toBe(201)
    const post = (path: string, body: unknown) => server.get(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
    expect((await post('/trpc/tokens.create', { name: 'stored', role: 'viewer' })).status).toBe(200)
    expect((await post('/trpc/webhooks.setSettings', { allow_private_targets: true })).status).toBe(200)
    secret = ((await (await post(`/tenants/${TENANT}/webhook-secret`, {})).json()) as SecretShownOnce).secret
    base = server.dbPath
  } finally {
    await server.close()
  }
  const other = await startTestServer({ seed: false, dbPath: join(dir, 'laptop.sqlite') })
  try {
    expect((await other.get('/imports/call-logs?format=ndjson&file_name=laptop.ndjson', { method: 'POST', body: ndjson(100_001, 3000) })).status).toBe(201)
    laptop = other.dbPath
  } finally {
    await other.close()
  }
  expect(existsSync(`${base}-wal`) || existsSync(`${laptop}-wal`)).toBe(false)
}, SLOW)

describe('serve on a store whose call_logs_id index has its last leaf page damaged', () => {
  let serve: ServeProcess
  let store: string
  let before: string[]
  const auth = { Authorization: `Bearer ${TOKEN}` }
  const upload = (body: string) => fetch(`${serve.url}/imports/call-logs?format=ndjson&file_name=upload.ndjson`, { method: 'POST', headers: auth, body })
  beforeAll(async () => {
    store = copyOf(base, 'index-damaged.sqlite', (file) => damagePagesOf(file, 'call_logs_id', 'last leaf'))
    before = callLogIds(store)
    serve = await startServe(['--db', store, '--no-seed'], { CALLSCOPE_TOKEN: TOKEN, CALLSCOPE_WEBHOOK_RETRY_SCHEDULE_MS: '0' })
  }, SLOW)
  afterAll(() => serve?.stop())

  it('upload: 503 with the damaged-store message and a report of nothing stored; the call logs as they were', async () => {
    const response = await upload(ndjson(200_001, 500))
    expect(response.status).toBe(503)
    const body = (await response.json()) as { detail: string; import: { status: string; inserted: number; duplicates: number } }
    expectDamaged(body.detail, 'The import', store)
    expect(body.import).toMatchObject({ status: 'failed', inserted: 0, duplicates: 0 })
    expect(body.detail).toContain('Nothing of it was stored.')
    expect(callLogIds(store)).toEqual(before)
    const recorded = read<{ status: string; inserted: number }>(store, "select status, inserted from imports where source = 'upload.ndjson'")
    expect(recorded).toEqual([{ status: 'failed', inserted: 0 }])
    await expectServing(serve)
  })

  it('upload in batches: the batch that meets the damage fails, the 6,000 records committed before it are reported and stored, nothing else', async () => {
    // 6,000 ids between the stored ones (uuid(11)…uuid(19), uuid(21)…), in pages far from the
    // damage: the first commit (the upload commits at 5,000 records or more, parsed 2,000 at a
    // time); then 50 above them all, which the damaged last leaf must take.
    const low = Array.from({ length: 6000 }, (_, i) => record(10 * Math.floor(i / 9) + (i % 9) + 1 + 10)).join('\n')
    const response = await upload(`${low}\n${ndjson(300_001, 50)}`)
    expect(response.status).toBe(503)
    const body = (await response.json()) as { detail: string; import: { status: string; inserted: number } }
    expectDamaged(body.detail, 'The import', store)
    expect(body.import).toMatchObject({ status: 'failed', inserted: 6000 })
    expect(body.detail).toContain('The 6,000 new records of the batches before it are stored; the rest of the file was not.')
    const after = callLogIds(store)
    expect(after.length).toBe(before.length + 6000)
    expect(after.slice(0, before.length)).toEqual(before)
    expect(after.every((id) => id < uuid(300_001))).toBe(true)
    before = after
    await expectServing(serve)
  })

  it('writes that touch no damaged page succeed and their rows are stored: a saved view, a token, a setting, an inbox event, a webhook delivery', async () => {
    const view = await fetch(`${serve.url}/views`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Timeouts', state: { query: 'timeout' } }) })
    expect(view.status).toBe(201)
    expect(rowsOf(store, 'saved_views').map((r) => r.name)).toEqual(['Errors', 'Timeouts'])

    const token = await trpcCall(serve.url, 'tokens.create', { name: 'ci', role: 'viewer' })
    expect(token.error).toBeNull()
    expect(rowsOf(store, 'api_tokens').map((r) => r.name)).toEqual(['stored', 'ci'])

    expect((await trpcCall(serve.url, 'webhooks.setSettings', { allow_private_targets: false })).error).toBeNull()
    expect(read(store, "select value from settings where key = 'webhooks.allow_private_targets'")).toEqual([{ value: 'false' }])
    expect((await trpcCall(serve.url, 'webhooks.setSettings', { allow_private_targets: true })).error).toBeNull()

    const event = JSON.stringify({ type: 'call.ended', data: { call_id: 'call-1' } })
    const inbox = await fetch(`${serve.url}/webhooks/inbox/${TENANT}`, { method: 'POST', headers: independentlySigned(secret, 'msg_damaged_1', Math.floor(Date.now() / 1000), event), body: event })
    expect(inbox.status, serve.stderr()).toBe(200)
    expect(rowsOf(store, 'webhook_inbox')).toEqual([expect.objectContaining({ status: 'accepted', webhook_id: 'msg_damaged_1' })])

    const received: string[] = []
    const receiver = await listenOnLoopback(createServer((req, res) => req.on('data', (c: Buffer) => received.push(String(c))).on('end', () => res.writeHead(200).end('ok'))))
    try {
      const sent = await fetch(`${serve.url}/tenants/${TENANT}/webhook-deliveries`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ event: 'call.started', url: `${receiver.url}/hooks` }) })
      expect(sent.status).toBe(202)
      const { id } = (await sent.json()) as { id: string }
      await expect.poll(() => read<{ status: string }>(store, `select status from webhook_deliveries where id = '${id}'`)[0]?.status).toBe('succeeded')
      expect(received).toHaveLength(1)
    } finally {
      await receiver.close()
    }
    expect(callLogIds(store)).toEqual(before)
    await expectServing(serve)
  })

  it('push to it: exit 1 with the server\'s damaged-store message, 0 new, the server\'s call logs as they were', async () => {
    const result = await runCliAsync(['push', '--to', serve.url, '--db', copyOf(laptop, 'push-ok.sqlite')], { CALLSCOPE_TEAM_TOKEN: TOKEN }, SLOW)
    expect(result.status).toBe(1)
    expect(result.stderr).toMatch(/^callscope: error: the server could not store the upload: /)
    expectDamaged(result.stderr, 'The import', store)
    expect(result.stdout).toContain('local: 0 of 3,000 call logs sent: 0 new on the server, 0 already there, 0 refused')
    expect(callLogIds(store)).toEqual(before)
    await expectServing(serve)
  }, SLOW)

  it('push from a laptop whose call_logs table is damaged: exit 1 naming the laptop\'s store, nothing sent', async () => {
    const damagedLaptop = copyOf(laptop, 'push-damaged.sqlite', (f) => damageMiddleOf(f, 'call_logs', 1))
    const result = await runCliAsync(['push', '--to', serve.url, '--db', damagedLaptop], { CALLSCOPE_TEAM_TOKEN: TOKEN }, SLOW)
    expect(result.status).toBe(1)
    expectDamaged(result.stderr, 'Reading the store', damagedLaptop)
    expect(callLogIds(store)).toEqual(before)
  }, SLOW)
})

describe('serve on a store whose small tables are damaged', () => {
  let serve: ServeProcess
  let store: string
  const auth = { Authorization: `Bearer ${TOKEN}` }
  const damaged = ['saved_views', 'api_tokens', 'settings', 'webhook_inbox', 'webhook_deliveries', 'imports']
  let readable: Record<string, unknown[]>
  beforeAll(async () => {
    store = copyOf(base, 'tables-damaged.sqlite', (file) => damaged.forEach((table) => damagePagesOf(file, table)))
    readable = { call_logs: callLogIds(store), tenants: rowsOf(store, 'tenants'), webhook_secrets: rowsOf(store, 'webhook_secrets') }
    serve = await startServe(['--db', store, '--no-seed'], { CALLSCOPE_TOKEN: TOKEN })
  }, SLOW)
  afterAll(() => serve?.stop())
  const unchanged = () => expect({ call_logs: callLogIds(store), tenants: rowsOf(store, 'tenants'), webhook_secrets: rowsOf(store, 'webhook_secrets') }).toEqual(readable)

  it('saved views (REST): 503 with the damaged-store message', async () => {
    const response = await fetch(`${serve.url}/views`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Timeouts', state: { query: 'timeout' } }) })
    expect(response.status).toBe(503)
    expectDamaged(((await response.json()) as { detail: string }).detail, 'Saving the view', store)
    unchanged()
    await expectServing(serve)
  })

  it('tokens and settings (tRPC): SERVICE_UNAVAILABLE with the damaged-store message', async () => {
    const token = await trpcCall(serve.url, 'tokens.create', { name: 'ci', role: 'viewer' })
    expect(token.error?.code).toBe('SERVICE_UNAVAILABLE')
    expectDamaged(token.error!.message, 'Creating the token "ci"', store)
    const setting = await trpcCall(serve.url, 'webhooks.setSettings', { allow_private_targets: false })
    expect(setting.error?.code).toBe('SERVICE_UNAVAILABLE')
    expectDamaged(setting.error!.message, 'Saving the webhook settings', store)
    unchanged()
    await expectServing(serve)
  })

  it('the inbox and a test send: 503, nothing sent', async () => {
    const event = JSON.stringify({ type: 'call.ended', data: { call_id: 'call-1' } })
    const inbox = await fetch(`${serve.url}/webhooks/inbox/${TENANT}`, { method: 'POST', headers: independentlySigned(secret, 'msg_damaged_2', Math.floor(Date.now() / 1000), event), body: event })
    expect(inbox.status, serve.stderr()).toBe(503)
    expect(((await inbox.json()) as { detail: string }).detail).toContain('the store is damaged')

    const received: string[] = []
    const receiver = await listenOnLoopback(createServer((req, res) => (received.push(req.url!), res.writeHead(200).end('ok'))))
    try {
      const sent = await fetch(`${serve.url}/tenants/${TENANT}/webhook-deliveries`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ event: 'call.started', url: `${receiver.url}/hooks` }) })
      expect(sent.status).toBe(503)
      expect(((await sent.json()) as { detail: string }).detail).toContain('the store is damaged')
      expect(received).toEqual([])
    } finally {
      await receiver.close()
    }
    unchanged()
    await expectServing(serve)
  })

  it('upload: its record cannot be written, 503 before the body is stored', async () => {
    const response = await fetch(`${serve.url}/imports/call-logs?format=ndjson&file_name=upload.ndjson`, { method: 'POST', headers: auth, body: ndjson(200_001, 100) })
    expect(response.status).toBe(503)
    expectDamaged(((await response.json()) as { detail: string }).detail, 'The import', store)
    unchanged()
    await expectServing(serve)
  })
})

/** Turns the store back into what a build before migration 0021 left (imports.call_log_source not there, not recorded). */
function beforeMigration0021(file: string): void {
  const old = new Database(file)
  try {
    old.prepare('alter table imports drop column call_log_source').run()
    old.prepare("delete from kysely_migration where name = '0021-import-sources'").run()
  } finally {
    old.close()
  }
}
const migrations = (file: string) => read<{ name: string }>(file, 'select name from kysely_migration order by name').map((m) => m.name)

describe('a store copied without the key file that seals its secrets (as backups are)', () => {
  it('the inbox answers 409 naming the missing key file and what to do, not 500; nothing stored', async () => {
    const file = join(dir, 'without-key.sqlite')
    copyFileSync(base, file)
    const server = await startTestServer({ seed: false, dbPath: file })
    try {
      const event = JSON.stringify({ type: 'call.ended', data: { call_id: 'call-1' } })
      const response = await fetch(`${server.url}/webhooks/inbox/${TENANT}`, { method: 'POST', headers: independentlySigned(secret, 'msg_no_key', Math.floor(Date.now() / 1000), event), body: event })
      expect(response.status).toBe(409)
      const { detail } = (await response.json()) as { detail: string }
      expect(detail).toContain(`the key file ${file}.key is missing`)
      expect(detail).toContain(`callscope webhook secret --tenant ${TENANT} --rotate`)
      expect(server.sqlite.prepare('select count(*) from webhook_inbox').pluck().get()).toBe(0)
    } finally {
      await server.close()
    }
  })
})

describe.concurrent('the CLI on a damaged store', () => {
  const more = join(files, 'more.ndjson')
  beforeAll(() => writeFileSync(more, ndjson(200_001, 500)))

  it('import logs, in batches and in bulk: exit 1 with the damaged-store message, 0 new, the call logs as they were', async () => {
    const batches = copyOf(base, 'import-batches.sqlite', (f) => damagePagesOf(f, 'call_logs_id', 'last leaf'))
    const bulk = copyOf(base, 'import-bulk.sqlite', (f) => damagePagesOf(f, 'call_logs_id', 'last leaf'))
    const before = callLogIds(batches)
    const [a, b] = await Promise.all([runCliAsync(['import', 'logs', more, '--db', batches, '--bulk', 'never'], {}, SLOW), runCliAsync(['import', 'logs', more, '--db', bulk, '--bulk', 'always'], {}, SLOW)])
    for (const [result, store] of [[a, batches], [b, bulk]] as const) {
      expect(result.status, result.stderr).toBe(1)
      expect(result.stderr).toMatch(/^callscope: error: /)
      expectDamaged(result.stderr, 'The import', store)
      expect(result.stderr).toContain('Nothing of it was stored.')
      expect(result.stdout).toMatch(/: 0 new, 0 already stored, 0 refused/)
      expect(callLogIds(store)).toEqual(before)
      expect(read(store, "select status, inserted from imports where source = 'more.ndjson'")).toEqual([{ status: 'failed', inserted: 0 }])
    }
  }, SLOW)

  it('seed --reset: exit 1 with the damaged-store message, every readable row as it was', async () => {
    const store = copyOf(base, 'seed.sqlite', (f) => damagePagesOf(f, 'call_logs_id', 'last leaf'))
    const before = { callLogs: callLogIds(store), tenants: rowsOf(store, 'tenants'), views: rowsOf(store, 'saved_views') }
    const result = await runCliAsync(['seed', '--reset', '--seed', '3', '--db', store], {}, SLOW)
    expect(result.status, result.stderr).toBe(1)
    expectDamaged(result.stderr, 'The seed', store)
    expect(result.stdout).toBe('')
    expect({ callLogs: callLogIds(store), tenants: rowsOf(store, 'tenants'), views: rowsOf(store, 'saved_views') }).toEqual(before)
  }, SLOW)

  it('token create on a store an older build left, damaged where neither writes: the migration and the token both land', async () => {
    const store = copyOf(base, 'migrate-ok.sqlite', (f) => {
      beforeMigration0021(f)
      damagePagesOf(f, 'call_logs_id', 'last leaf')
    })
    const result = await runCliAsync(['token', 'create', '-n', 'ci', '--db', store], {}, SLOW)
    expect(result.status, result.stderr).toBe(0)
    expect(migrations(store)).toContain('0021-import-sources')
    expect(rowsOf(store, 'api_tokens').map((r) => r.name)).toEqual(['stored', 'ci'])
  }, SLOW)

  it('a migration on start that meets the damage: exit 1 with the damaged-store message, no migration applied, the rows as they were', async () => {
    const store = copyOf(base, 'migrate-damaged.sqlite', (f) => {
      beforeMigration0021(f)
      damagePagesOf(f, 'imports')
    })
    const before = { migrations: migrations(store), tokens: rowsOf(store, 'api_tokens'), callLogs: callLogIds(store) }
    const result = await runCliAsync(['token', 'list', '--db', store], {}, SLOW)
    expect(result.status).toBe(1)
    expectDamaged(result.stderr, "Updating the store's schema", store)
    expect(result.stderr).toContain('The store is as it was: no migration was applied.')
    expect({ migrations: migrations(store), tokens: rowsOf(store, 'api_tokens'), callLogs: callLogIds(store) }).toEqual(before)
  }, SLOW)

  it('snapshot and backup of a store with a damaged call_logs page: exit 1 naming the damage, no pack and no backup left', async () => {
    const store = copyOf(laptop, 'copied.sqlite', (f) => damageMiddleOf(f, 'call_logs', 1))
    const out = join(dir, 'copies')
    mkdirSync(out)
    const [snapshot, backup] = await Promise.all([runCliAsync(['snapshot', join(out, 'pack.sqlite'), '--db', store], {}, SLOW), runCliAsync(['backup', join(out, 'backup.sqlite'), '--db', store], {}, SLOW)])
    expect(snapshot.status).toBe(1)
    expectDamaged(snapshot.stderr, 'Writing the snapshot', store)
    expect(snapshot.stderr).toContain('No pack was left, and the store was only read.')
    expect(backup.status).toBe(1)
    expectDamaged(backup.stderr, 'The backup', store)
    expect(readdirSync(out)).toEqual([])
  }, SLOW)
})

describe.concurrent('pull and keep-in-sync into a store whose call_logs_id index is damaged', () => {
  let source: TestServer
  beforeAll(async () => {
    source = await startTestServer()
  }, SLOW)
  afterAll(() => source?.close())
  const pull = (store: string, ...more: string[]) =>
    runCliAsync(['pull', '--base-url', source.url, '--since', '2026-11-15', '--rate', '500', ...more, '--db', store], { CALLSCOPE_REMOTE_TOKEN: ADMIN_TOKEN }, SLOW)
  const pulled = (store: string) => read<{ status: string; counts: string; failure_kind: string }>(store, 'select status, counts, failure_kind from pulls')

  it('pull: exit 1 with the damaged-store message, its report and record 0 new, the call logs as they were', async () => {
    const store = copyOf(base, 'pull.sqlite', (f) => damagePagesOf(f, 'call_logs_id', 'last leaf'))
    const before = callLogIds(store)
    const result = await pull(store)
    expect(result.status).toBe(1)
    expectDamaged(result.stderr, 'The pull', store)
    expect(result.stderr).not.toContain('run the same pull again')
    expect(result.stdout).toMatch(/call logs +[\d,]+ fetched since .*: 0 new, 0 already stored, 0 refused/)
    expect(callLogIds(store)).toEqual(before)
    const [record] = pulled(store)
    expect(record).toMatchObject({ status: 'failed', failure_kind: 'damaged' })
    expect(JSON.parse(record!.counts).callLogs.inserted).toBe(0)
  }, SLOW)

  it('pull --follow: stops after the first cycle (a damaged page does not heal), exit 1, the sync recorded as failed', async () => {
    const store = copyOf(base, 'follow.sqlite', (f) => damagePagesOf(f, 'call_logs_id', 'last leaf'))
    const before = callLogIds(store)
    const result = await pull(store, '--follow', '--interval', '1s')
    expect(result.status).toBe(1)
    const cycles = result.stdout.split('\n').filter((line) => line.includes(' failed: '))
    expect(cycles).toHaveLength(1)
    expect(cycles[0]).toMatch(/ failed: The pull failed: the store is damaged .* · stopping$/)
    expectDamaged(result.stderr, 'The pull', store)
    expect(result.stderr).toContain('(the sync cannot go on)')
    expect(callLogIds(store)).toEqual(before)
    expect(read(store, 'select state, failures from pull_syncs')).toEqual([{ state: 'failed', failures: 1 }])
  }, SLOW)
})
