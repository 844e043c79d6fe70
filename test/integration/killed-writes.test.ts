import { createHash } from 'node:crypto'
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { createServer } from 'node:http'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { Kysely, SqliteDialect } from 'kysely'
import { describe, expect, inject, it } from 'vitest'
import { logQuery } from '../../src-main/db/migrations/0014-log-query'
import type { SecretShownOnce } from '../../src-shared/schemas/webhooks'
import { runCli, startServe } from '../helpers/cli'
import { inRollbackTransaction, killHard, readStore, startCli, until } from '../helpers/killed-process'
import { listenOnLoopback } from '../helpers/loopback-server'
import { tempDir } from '../helpers/temp-dir'
import { trpcHttp } from '../helpers/trpc-http'
import { independentlySigned } from '../helpers/webhook-receiver'

/*
 * Issue 36, the killed-process column for the writes besides imports: `callscope seed`,
 * `callscope snapshot`, the migrations a store gets on start, and serve's small writes (saved
 * views, tokens, settings). Each is killed with SIGKILL at a moment the test waits for (a journal
 * or a working file appearing, the migration's line on stderr, a response received), then the
 * store is opened and its rows compared with what was promised: as before, or with every write
 * that was answered.
 */

const dir = tempDir('callscope-killed-writes-')
const TOKEN = 'cs_killed_writes_test_token'

/** Every table's rows but the full-text indexes' own (the store as the user sees it). */
function storeRows(path: string): Record<string, unknown[]> {
  return readStore(path, (db) => {
    const tables = db.prepare("select name from sqlite_master where type = 'table' and name not like 'sqlite_%' and name not like '%fts%' and name not like '%trigram%' order by name").pluck().all() as string[]
    return Object.fromEntries(tables.map((t) => [t, db.prepare(`select * from "${t}"`).all()]))
  })
}

const integrity = (path: string) => readStore(path, (db) => db.pragma('integrity_check', { simple: true }))
const schema = (path: string) => readStore(path, (db) => db.prepare('select type, name, sql from sqlite_master order by name').all())
const sha256 = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex')

/** A copy of the demo store, closed (no WAL beside it). */
function demoStore(name: string): string {
  const path = join(dir, name)
  copyFileSync(inject('demoTemplate'), path)
  return path
}

describe('a killed write', { timeout: 240_000 }, () => {
  it('seed, killed mid-seed (its rollback journal written): the store opens with every row as before; a re-run seeds once', async () => {
    const db = join(dir, 'seed.sqlite')
    expect(runCli(['token', 'create', '-n', 'kept', '--db', db]).status).toBe(0)
    const before = storeRows(db)
    const journal = `${db}-journal`
    const seeding = startCli(['seed', '--seed', '3', '--db', db])
    // The seed is one transaction on a rollback journal (seed/index.ts).
    await until('the seed’s transaction', () => inRollbackTransaction(db), seeding)
    await killHard(seeding.child)
    expect(existsSync(journal)).toBe(true)

    const opened = runCli(['token', 'list', '--db', db])
    expect(opened.status).toBe(0)
    expect(opened.stdout).toContain('kept')
    expect(existsSync(journal)).toBe(false)
    expect(integrity(db)).toBe('ok')
    expect(storeRows(db)).toEqual(before)

    const seeded = runCli(['seed', '--seed', '3', '--db', db], {}, 180_000)
    expect(seeded.status).toBe(0)
    const count = (what: string) => Number(new RegExp(`([\\d,]+) ${what}`).exec(seeded.stdout)![1]!.replaceAll(',', ''))
    const after = storeRows(db)
    expect(after.call_logs).toHaveLength(count('call logs'))
    expect(after.tenants).toHaveLength(count('tenants'))
    expect(after.api_tokens).toEqual(before.api_tokens)
  })

  it('snapshot, killed while writing the pack: no file at the pack’s name, only hidden partial files, the store untouched; the next snapshot clears them and writes the pack', async () => {
    const store = demoStore('snapshot-source.sqlite')
    const storeHash = sha256(store)
    const folder = join(dir, 'packs')
    mkdirSync(folder)
    const pack = join(folder, 'pack.sqlite')
    const packing = startCli(['snapshot', pack, '--db', store])
    // The pack is written from a working copy (snapshot-pack.ts): a second file beside the working
    // copy (or the pack's own name) is the pack under way.
    const files = () => readdirSync(folder).filter((name) => !name.endsWith('-journal'))
    await until('the pack being written', () => files().length >= 2 || existsSync(pack), packing)
    await killHard(packing.child)

    expect(existsSync(pack)).toBe(false)
    const left = readdirSync(folder)
    expect(left.length).toBeGreaterThan(0)
    for (const name of left) expect(name).toMatch(/^\.pack\.sqlite\.\d+-[0-9a-f]+\.partial(-journal)?$/)
    // The store was only read: its file is byte for byte the same, and no write waits in a WAL.
    expect(sha256(store)).toBe(storeHash)
    expect(existsSync(`${store}-wal`) ? statSync(`${store}-wal`).size : 0).toBe(0)

    const again = runCli(['snapshot', pack, '--db', store], {}, 180_000)
    expect(again).toMatchObject({ status: 0, stderr: '' })
    expect(readdirSync(folder)).toEqual(['pack.sqlite'])
    expect(integrity(pack)).toBe('ok')
    const count = (path: string) => readStore(path, (db) => db.prepare('select count(*) from call_logs').pluck().get())
    expect(count(pack)).toBe(count(store))
  })

  it('migrations on start, killed mid-way (a store an older build left): the store opens afterwards as the older build left it, and migrates once', async () => {
    const db = demoStore('migrate.sqlite')
    // The store as the build before 0014 left it: no trigram index, 0014 not recorded. Rebuilding
    // that index over the demo's 20,000 messages is the migration's long part.
    const old = new Kysely<any>({ dialect: new SqliteDialect({ database: new Database(db) }) })
    await logQuery.down!(old)
    await old.deleteFrom('kysely_migration').where('name', '=', '0014-log-query').execute()
    await old.destroy()
    const before = storeRows(db)
    const schemaBefore = schema(db)

    const starting = startCli(['token', 'list', '--db', db])
    await until('the migration’s line', () => starting.output().includes("Updating the store's schema (0014-log-query)"), starting)
    await killHard(starting.child)
    // Pending migrations run in one transaction (db/migrate.ts): nothing of it is in the store.
    expect(integrity(db)).toBe('ok')
    expect(schema(db)).toEqual(schemaBefore)
    expect(storeRows(db)).toEqual(before)

    const opened = runCli(['token', 'list', '--db', db])
    expect(opened.status).toBe(0)
    expect(opened.stderr.match(/Updating the store's schema/g)).toEqual(["Updating the store's schema"])
    const migrated = readStore(db, (d) => ({
      applied: d.prepare("select count(*) from kysely_migration where name = '0014-log-query'").pluck().get(),
      substrings: d.prepare("select count(*) from call_logs_trigram where call_logs_trigram match 'timeout'").pluck().get(),
      like: d.prepare("select count(*) from call_logs where message like '%timeout%'").pluck().get(),
    }))
    expect(migrated.applied).toBe(1)
    expect(migrated.substrings).toBe(migrated.like)
    expect(migrated.like).toBeGreaterThan(0)
    expect(runCli(['token', 'list', '--db', db]).stderr).not.toContain('Updating')
  })

  it('serve killed right after answering a saved view, a token, a setting and an inbox event: each answered write is in the store (WAL, synchronous=NORMAL: a process kill loses no commit)', async () => {
    const db = demoStore('small-writes.sqlite')
    const server = await startServe(['--db', db, '--readers', '1'], { CALLSCOPE_TOKEN: TOKEN })
    const trpc = trpcHttp(() => server.url, () => TOKEN)
    const view = await fetch(`${server.url}/views`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Timeouts', state: { query: 'timeout' } }),
    })
    expect(view.status).toBe(201)
    const { id: viewId } = (await view.json()) as { id: string }
    const token = await trpc.mutation<{ token: string; record: { id: string } }>('tokens.create', { name: 'ci', role: 'viewer' })
    await trpc.mutation('webhooks.setSettings', { allow_private_targets: true })
    // An event a backend sent to the inbox, answered 200: the receipt is stored before the answer.
    const tenant = readStore(db, (d) => d.prepare('select id from tenants order by id limit 1').pluck().get() as string)
    const made = await fetch(`${server.url}/tenants/${tenant}/webhook-secret`, { method: 'POST', headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' }, body: '{}' })
    const { secret } = (await made.json()) as SecretShownOnce
    const event = JSON.stringify({ type: 'call.ended', data: { call_id: 'call-killed-1' } })
    const inbox = await fetch(`${server.url}/webhooks/inbox/${tenant}`, { method: 'POST', headers: independentlySigned(secret, 'msg_killed_1', Math.floor(Date.now() / 1000), event), body: event })
    expect(inbox.status).toBe(200)
    // The moment: the last response is in hand. SIGKILL, then stop() (it waits for the exit).
    server.child.kill('SIGKILL')
    await server.stop()
    expect(server.child.signalCode).toBe('SIGKILL')

    // The writes were not checkpointed into the store file: they are only in the WAL, which the
    // next connection reads (a power cut could lose the last of them; a process kill cannot).
    expect(statSync(`${db}-wal`).size).toBeGreaterThan(0)
    const rows = readStore(db, (d) => ({
      journal: d.pragma('journal_mode', { simple: true }),
      view: d.prepare('select name from saved_views where id = ?').pluck().get(viewId),
      token: d.prepare('select name, revoked_at from api_tokens where id = ?').get(token.record.id),
      setting: d.prepare("select value from settings where key = 'webhooks.allow_private_targets'").pluck().get(),
      inbox: d.prepare("select status from webhook_inbox where webhook_id = 'msg_killed_1'").pluck().all(),
      integrity: d.pragma('integrity_check', { simple: true }),
    }))
    expect(rows).toEqual({ journal: 'wal', view: 'Timeouts', token: { name: 'ci', revoked_at: null }, setting: 'true', inbox: ['accepted'], integrity: 'ok' })

    const restarted = await startServe(['--db', db, '--readers', '1'], { CALLSCOPE_TOKEN: TOKEN })
    try {
      // The token made before the kill signs a request in after it.
      const views = await fetch(`${restarted.url}/views`, { headers: { Authorization: `Bearer ${token.token}` } })
      expect(views.status).toBe(200)
      expect(((await views.json()) as { views: Array<{ id: string; name: string }> }).views).toContainEqual(expect.objectContaining({ id: viewId, name: 'Timeouts' }))
    } finally {
      await restarted.stop()
    }
  })

  it('serve killed while a webhook delivery waits on the receiver: after a restart the delivery reads interrupted, nothing lost, and its replay is received once under the same webhook-id', async () => {
    const db = demoStore('delivery.sqlite')
    const auth = { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' }
    const tenant = readStore(db, (d) => d.prepare('select id from tenants order by id limit 1').pluck().get() as string)
    const received: Array<string | undefined> = []
    let holding = true
    let arrived: () => void
    const firstArrived = new Promise<void>((resolve) => (arrived = resolve))
    // A receiver that holds the first request unanswered (the attempt in flight when serve dies), then answers 200.
    const receiver = await listenOnLoopback(
      createServer((req, res) => {
        received.push(req.headers['webhook-id'] as string | undefined)
        req.resume()
        if (holding) return arrived()
        res.writeHead(200).end('ok')
      }),
    )
    let server = await startServe(['--db', db, '--readers', '1'], { CALLSCOPE_TOKEN: TOKEN })
    try {
      expect((await fetch(`${server.url}/tenants/${tenant}/webhook-secret`, { method: 'POST', headers: auth, body: '{}' })).status).toBe(200)
      await trpcHttp(() => server.url, () => TOKEN).mutation('webhooks.setSettings', { allow_private_targets: true })
      const sent = await fetch(`${server.url}/tenants/${tenant}/webhook-deliveries`, { method: 'POST', headers: auth, body: JSON.stringify({ event: 'call.started', url: `${receiver.url}/hooks` }) })
      expect(sent.status).toBe(202)
      const { id } = (await sent.json()) as { id: string }
      await firstArrived
      server.child.kill('SIGKILL')
      await server.stop()

      server = await startServe(['--db', db, '--readers', '1'], { CALLSCOPE_TOKEN: TOKEN })
      const delivery = async (which = id) => (await (await fetch(`${server.url}/webhook-deliveries/${which}`, { headers: auth })).json()) as { status: string; webhook_id: string }
      const killed = await delivery()
      expect(killed.status).toBe('interrupted')
      expect(received).toEqual([killed.webhook_id])

      holding = false
      const replay = await fetch(`${server.url}/webhook-deliveries/${id}/replay`, { method: 'POST', headers: auth, body: '{}' })
      expect(replay.status).toBe(202)
      const { id: again } = (await replay.json()) as { id: string }
      await expect.poll(async () => (await delivery(again)).status).toBe('succeeded')
      expect((await delivery()).status).toBe('interrupted')
      // Received twice in all: the cut attempt and the replay, both under the one webhook-id the receiver dedupes by.
      expect(received).toEqual([killed.webhook_id, killed.webhook_id])
    } finally {
      await server.stop()
      await receiver.close()
    }
  })
})
