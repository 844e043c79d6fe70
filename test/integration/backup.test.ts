import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { copyFileSync, existsSync, readdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { describe, expect, inject, it } from 'vitest'
import { CLI, runCli, runCliAsync, startServe } from '../helpers/cli'
import { tempDir } from '../helpers/temp-dir'

/*
 * Issue 36, point 4: `callscope backup` against a `serve` taking writes through its real HTTP API,
 * the restore the README gives, and a backup killed half-way. Ground truth is what the writers
 * were told: each upload (500 call logs, one transaction) and each token is in the backup whole or
 * not at all, and the ones in it are exactly those finished before some instant (a prefix).
 */

const ADMIN = 'cs_backup_test_admin_token'
const auth = { Authorization: `Bearer ${ADMIN}` }
const PER_UPLOAD = 500
const TENANT = '11111111-1111-4111-8111-111111111111'
const dir = tempDir('callscope-backup-it-')

/** Ids of upload `k`: a range of its own, far from the demo set's. */
const idOf = (k: number, i: number) => `0b0b0b0b-0000-4000-8000-${String(k * 1000 + i).padStart(12, '0')}`

/** The late upload (900) has an instant of its own, so a read by time tells whether it survived a restore. */
const timeOf = (k: number) => (k === 900 ? '2026-11-19T09:00:00.000Z' : '2026-11-19T08:00:00.000Z')
const linesAt = async (url: string, k: number) => {
  const response = await fetch(`${url}/logs/calls?start_date=${timeOf(k)}&end_date=${timeOf(k)}&limit=100`, { headers: auth })
  expect(response.status).toBe(200)
  return ((await response.json()) as unknown[]).length
}

function uploadBody(k: number): string {
  const lines: string[] = []
  for (let i = 0; i < PER_UPLOAD; i++) {
    lines.push(JSON.stringify({ id: idOf(k, i), tenant_id: TENANT, log_type: 'stt', log_level: 'info', message: `backup upload ${k} line ${i}`, timestamp: timeOf(k), details: { k, i } }))
  }
  return lines.join('\n')
}

interface Written {
  uploads: number
  tokens: string[]
}

/** Uploads and token creations one after another through serve's API until `until` settles. */
async function writeUntil(url: string, until: Promise<unknown>, first = 0): Promise<Written> {
  let done = false
  void until.finally(() => (done = true))
  const written: Written = { uploads: 0, tokens: [] }
  while (!done) {
    const k = first + written.uploads
    const upload = await fetch(`${url}/imports/call-logs?format=ndjson&file_name=u${k}.ndjson`, { method: 'POST', headers: auth, body: uploadBody(k) })
    expect(upload.status).toBe(201)
    expect(((await upload.json()) as { inserted: number }).inserted).toBe(PER_UPLOAD)
    written.uploads++
    const name = `backup-token-${k}`
    const token = await fetch(`${url}/trpc/tokens.create`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ name, role: 'viewer' }) })
    expect(token.status).toBe(200)
    written.tokens.push(name)
  }
  return written
}

/** What a store file holds of the writes, and whether SQLite finds it sound. */
function storeState(file: string) {
  const db = new Database(file, { readonly: true, fileMustExist: true })
  try {
    const perUpload = db.prepare("select substr(id, 25) / 1000 as k, count(*) as n from call_logs where id like '0b0b0b0b-%' group by k order by k").all() as Array<{ k: number; n: number }>
    const tokens = db.prepare("select name from api_tokens where name like 'backup-token-%' order by created_at, rowid").pluck().all() as string[]
    const tables = db.prepare("select name from sqlite_master where type = 'table' and name not like 'sqlite_%' and name not like '%_fts%' and name not like '%trigram%' order by name").pluck().all() as string[]
    const counts = Object.fromEntries(tables.map((t) => [t, db.prepare(`select count(*) from "${t}"`).pluck().get() as number]))
    // Each upload's import row against the lines it brought: what the row reports is what is there.
    const imports = (
      db.prepare('select i.source, i.status, i.inserted, (select count(*) from call_logs c where c.import_id = i.id) as lines from imports i order by i.rowid').all() as Array<{ source: string; status: string; inserted: number; lines: number }>
    )
      .filter((row) => /\bu\d+\.ndjson$/.test(row.source))
      .map(({ source, ...row }) => ({ file_name: /u\d+\.ndjson$/.exec(source)![0], ...row }))
    return { check: db.pragma('integrity_check', { simple: true }), perUpload, imports, tokens, counts, callLogIds: db.prepare('select id from call_logs order by id').pluck().all() as string[] }
  } finally {
    db.close()
  }
}

describe('callscope backup while serve takes writes', () => {
  const store = join(dir, 'store.sqlite')
  const backup = join(dir, 'backup.sqlite')

  it('copies every upload and token whole or not at all, and the ones finished before it began', async () => {
    copyFileSync(inject('demoTemplate'), store)
    const before = storeState(store)
    const server = await startServe(['--db', store], { CALLSCOPE_TOKEN: ADMIN })
    let written: Written
    let uploadsBeforeBackup: number
    try {
      // Some writes land before the backup starts, more while it runs and after its snapshot.
      const warmUp = await writeUntil(server.url, new Promise((resolve) => setTimeout(resolve, 300)))
      uploadsBeforeBackup = warmUp.uploads
      const running = runCliAsync(['backup', backup, '--db', store])
      const during = writeUntil(server.url, running, uploadsBeforeBackup)
      const result = await running
      written = await during
      expect(result.stderr).toBe('')
      expect(result.status).toBe(0)
      expect(result.stdout).toContain(`Backup of ${store} written to ${backup} (`)
      expect(result.stdout).toContain(`Not in the backup: the sealing key ${store}.key`)
      expect(result.stdout).toContain(`Restore: stop serve and the app, then run \`callscope serve --db ${backup}\``)
      expect(written.uploads).toBeGreaterThan(0)
    } finally {
      expect(await server.stop()).toBe(0)
    }

    // One file, nothing beside it (no journal, WAL or partial), before anything opens it.
    expect(readdirSync(dir).filter((name) => name.startsWith('backup.sqlite') || name.includes('.partial'))).toEqual(['backup.sqlite'])
    const copy = storeState(backup)
    expect(copy.check).toBe('ok')
    // Whole or not at all, and a prefix: uploads 0..j-1 with every one of their lines.
    const j = copy.perUpload.length
    expect(copy.perUpload).toEqual(Array.from({ length: j }, (_, k) => ({ k, n: PER_UPLOAD })))
    expect(j).toBeGreaterThanOrEqual(uploadsBeforeBackup)
    expect(j).toBeLessThanOrEqual(uploadsBeforeBackup + written.uploads)
    // Each token was created after its upload and before the next one.
    expect(copy.tokens).toEqual(Array.from({ length: copy.tokens.length }, (_, k) => `backup-token-${k}`))
    expect([j - 1, j]).toContain(copy.tokens.length)
    expect(copy.counts.call_logs).toBe(before.counts.call_logs! + j * PER_UPLOAD)
    // The import rows are true to the lines: each reports exactly the lines the backup holds for it.
    // An upload's row, its batch (with the count) and its completion are three transactions, so the
    // last row may be 'running' with none or all of its lines, never part of them.
    expect(copy.imports.map((row) => row.file_name)).toEqual(Array.from({ length: copy.imports.length }, (_, k) => `u${k}.ndjson`))
    expect(copy.imports.every((row) => row.inserted === row.lines)).toBe(true)
    expect(copy.imports.slice(0, -1).every((row) => row.status === 'completed' && row.lines === PER_UPLOAD)).toBe(true)
    expect([0, PER_UPLOAD]).toContain(copy.imports.at(-1)!.lines)
    expect(copy.imports.filter((row) => row.lines === PER_UPLOAD)).toHaveLength(j)
  }, 120_000)

  it('refuses to overwrite the backup without --force, and replaces it with --force', () => {
    const refused = runCli(['backup', backup, '--db', store])
    expect(refused.status).toBe(1)
    expect(refused.stderr).toBe(`callscope: error: ${backup} already exists (use --force to replace it once the new backup is complete)\n`)
    const forced = runCli(['backup', backup, '--db', store, '--force'])
    expect(forced.status).toBe(0)
    expect(storeState(backup).counts).toEqual(storeState(store).counts)
  })

  it('restores as the README says: the store copied back has the rows of backup time, the later writes gone', async () => {
    // The backup as it is now is the ground truth; writes after it must not survive the restore.
    const atBackup = storeState(backup)
    const server = await startServe(['--db', store], { CALLSCOPE_TOKEN: ADMIN })
    try {
      const later = await fetch(`${server.url}/imports/call-logs?format=ndjson&file_name=late.ndjson`, { method: 'POST', headers: auth, body: uploadBody(900) })
      expect(later.status).toBe(201)
    } finally {
      expect(await server.stop()).toBe(0)
    }
    expect(storeState(store).perUpload.at(-1)).toEqual({ k: 900, n: PER_UPLOAD })

    // README: stop serve, copy the backup over the store file, remove its -wal and -shm files.
    copyFileSync(backup, store)
    rmSync(`${store}-wal`, { force: true })
    rmSync(`${store}-shm`, { force: true })
    const restored = await startServe(['--db', store], { CALLSCOPE_TOKEN: ADMIN })
    try {
      expect(await linesAt(restored.url, 900)).toBe(0)
      expect(await linesAt(restored.url, 0)).toBe(100)
    } finally {
      expect(await restored.stop()).toBe(0)
    }
    const after = storeState(store)
    expect(after.check).toBe('ok')
    expect(after.counts).toEqual(atBackup.counts)
    expect(after.callLogIds).toEqual(atBackup.callLogIds)
    expect(after.tokens).toEqual(atBackup.tokens)

    // Or serve the backup itself (a copy of it, so the backup stays as it was).
    const served = join(dir, 'served-backup.sqlite')
    copyFileSync(backup, served)
    const fromBackup = await startServe(['--db', served], { CALLSCOPE_TOKEN: ADMIN })
    try {
      expect(fromBackup.banner).toContain(`Database: ${served};`)
      expect(await linesAt(fromBackup.url, 0)).toBe(100)
      expect(await linesAt(fromBackup.url, 900)).toBe(0)
    } finally {
      expect(await fromBackup.stop()).toBe(0)
    }
    expect(storeState(served).counts).toEqual(atBackup.counts)
  }, 120_000)
})

describe('callscope backup killed half-way', () => {
  it('leaves no file that looks complete, and the next backup clears what it left', async () => {
    // Large enough to show progress (64 MiB and more) and to be killed before its copy is checked and renamed.
    const big = join(dir, 'big.sqlite')
    const db = new Database(big)
    db.pragma('journal_mode = WAL')
    db.exec('create table blobs (id integer primary key, body blob not null)')
    const insert = db.prepare('insert into blobs (body) values (randomblob(65536))')
    db.transaction(() => {
      for (let i = 0; i < 4_800; i++) insert.run()
    })()
    db.close()
    const target = join(dir, 'big-backup.sqlite')

    const child = spawn(process.execPath, [CLI, 'backup', target, '--db', big], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, CALLSCOPE_TOKEN: '' } })
    let stderr = ''
    await new Promise<void>((resolve, reject) => {
      child.stderr!.on('data', (chunk) => {
        stderr += chunk
        // Past 0%: the copy's hidden file is there (the 0% line comes before it is created).
        if (/Backing up: .+ \([1-9]\d*%\)/.test(stderr)) resolve()
      })
      child.once('exit', (code) => reject(new Error(`backup ended (${code}) before it showed progress: ${stderr}`)))
    })
    child.kill('SIGKILL')
    await once(child, 'exit')

    expect(stderr).toMatch(/^Backing up: 0 bytes of 30\d MiB \(0%\)\nBacking up: .+ of 30\d MiB \([1-9]0%\)\n/)
    expect(existsSync(target)).toBe(false)
    const left = readdirSync(dir).filter((name) => name.startsWith('.big-backup.sqlite.'))
    expect(left.length).toBeGreaterThan(0)
    expect(left.every((name) => /\.partial(-journal)?$/.test(name))).toBe(true)

    const again = runCli(['backup', target, '--db', big], {}, 120_000)
    expect(again.status).toBe(0)
    expect(again.stderr).toMatch(/Backing up: 30\d MiB of 30\d MiB \(100%\)\n$/)
    expect(readdirSync(dir).filter((name) => name.startsWith('.big-backup.sqlite.'))).toEqual([])
    const copy = new Database(target, { readonly: true })
    try {
      expect(copy.prepare('select count(*) from blobs').pluck().get()).toBe(4_800)
      expect(copy.pragma('quick_check', { simple: true })).toBe('ok')
    } finally {
      copy.close()
    }
  }, 120_000)
})
