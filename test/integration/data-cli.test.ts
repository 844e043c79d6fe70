import { spawn } from 'node:child_process'
import { readFileSync, statSync, writeFileSync } from 'node:fs'
import Database from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import { CLI, runCli } from '../helpers/cli'
import { tempDir } from '../helpers/temp-dir'
import { openDatabase } from '../../src-main/db/connection'
import { migrateToLatest } from '../../src-main/db/migrate'

/** An empty store at the current schema (no demo data), as a first start leaves it. */
async function emptyStore(path: string): Promise<void> {
  const handle = openDatabase({ path })
  await migrateToLatest(handle.db)
  await handle.close()
}

const dbInfo = (db: string) => JSON.parse(runCli(['db', 'info', '--json', '--db', db]).stdout) as { counts: Record<string, number> }
const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`
const line = (n: number) =>
  JSON.stringify({
    id: uuid(n), tenant_id: uuid(0), log_type: 'llm', log_level: 'info', message: `synthetic line ${n} about latency`,
    timestamp: new Date(Date.UTC(2026, 10, 1) + n * 1000).toISOString(), agent_id: null, session_id: null, call_id: null,
    details: { n, padding: 'x'.repeat(200) }, user_id: null, trace_id: null, request_id: null,
  })

describe('callscope import, export and snapshot', () => {
  const dir = tempDir()
  const source = `${dir}/source.sqlite`
  const seeded = runCli(['seed', '--db', source, '--scale', 'small', '--seed', '3', '--anchor', '2026-11-20T12:00:00Z'])

  const exports = new Map<string, string[]>()
  const sortedExport = (db: string) => {
    if (!exports.has(db)) {
      expect(runCli(['export', 'logs', '--db', db, '--format', 'ndjson', '--out', `${db}.ndjson`]).status).toBe(0)
      exports.set(db, readFileSync(`${db}.ndjson`, 'utf8').split('\n').sort())
    }
    return exports.get(db)
  }

  it('round-trips call logs through NDJSON and CSV: same records, and a second import adds nothing', () => {
    expect(seeded.status).toBe(0)
    const total = dbInfo(source).counts.call_logs!
    expect(total).toBeGreaterThan(1000)
    for (const format of ['ndjson', 'csv'] as const) {
      const file = `${dir}/all.${format}`
      expect(runCli(['export', 'logs', '--db', source, '--format', format, '--out', file]).status).toBe(0)
      const target = `${dir}/from-${format}.sqlite`
      const first = runCli(['import', 'logs', file, '--db', target])
      expect(first.status).toBe(0)
      expect(first.stdout).toContain(`${total.toLocaleString('en-US')} records read: ${total.toLocaleString('en-US')} new, 0 already stored, 0 refused`)
      expect(dbInfo(target).counts.call_logs).toBe(total)
      // Exported again from the copy: the same records, field for field (lines with the same
      // timestamp may come in another order: the copy stores them in file order).
      expect(sortedExport(target)).toEqual(sortedExport(source))
      const second = runCli(['import', 'logs', file, '--db', target])
      expect(second.stdout).toContain(`0 new, ${total.toLocaleString('en-US')} already stored`)
      expect(dbInfo(target).counts.call_logs).toBe(total)
    }
  }, 180_000)

  it('exports a filtered view, and refuses a bad filter as a usage error', () => {
    const errors = runCli(['export', 'logs', '--db', source, '--level', 'error,critical']).stdout.trim().split('\n').map((l) => JSON.parse(l))
    expect(errors.length).toBeGreaterThan(0)
    expect(new Set(errors.map((r) => r.log_level))).toEqual(new Set(errors.some((r) => r.log_level === 'critical') ? ['error', 'critical'] : ['error']))
    const bad = runCli(['export', 'logs', '--db', source, '--from', 'last tuesday'])
    expect(bad.status).toBe(2)
    expect(bad.stderr).toMatch(/option '--from'/)
  })

  it('reports refused records with their line and keeps the rest; a file that is not an array fails', () => {
    const file = `${dir}/mixed.ndjson`
    writeFileSync(file, [line(1), '{"id": 1}', line(2), 'not json'].join('\n'))
    const target = `${dir}/mixed.sqlite`
    const result = runCli(['import', 'logs', file, '--db', target])
    expect(result.status).toBe(0)
    expect(result.stdout).toContain('4 records read: 2 new, 0 already stored, 2 refused')
    expect(result.stderr).toContain('record 2, line 2: id: must be a UUID, 8-4-4-4-12 hexadecimal digits (got 1); tenant_id is required')
    expect(result.stderr).toMatch(/record 4, line 4: not valid JSON/)
    writeFileSync(`${dir}/broken.json`, '{"not": "an array"}')
    const broken = runCli(['import', 'logs', `${dir}/broken.json`, '--format', 'json', '--db', target])
    expect(broken.status).toBe(1)
    expect(broken.stderr).toContain('expected a JSON array')
    writeFileSync(`${dir}/csv.ndjson`, 'id,tenant_id\n1,2\n')
    const wrongFormat = runCli(['import', 'logs', `${dir}/csv.ndjson`, '--db', target])
    expect(wrongFormat.status).toBe(1)
    expect(wrongFormat.stderr).toMatch(/line 1: not valid JSON: .*, nor is the next line: not NDJSON \(one JSON record per line\) \(nothing was stored\)/)
    expect(runCli(['import', 'logs', `${dir}/missing.ndjson`, '--db', target]).status).toBe(1)
  })

  it('writes a snapshot that opens as a database of its own, and does not overwrite one', () => {
    const snap = `${dir}/demo-pack.sqlite`
    const result = runCli(['snapshot', snap, '--db', source])
    expect(result.status).toBe(0)
    expect(result.stdout).toMatch(/written to .*demo-pack\.sqlite \([\d.]+ MiB\)/)
    expect(dbInfo(snap).counts).toEqual(dbInfo(source).counts)
    const again = runCli(['snapshot', snap, '--db', source])
    expect(again.status).toBe(1)
    expect(again.stderr).toContain('already exists (use --force to replace it)')
    expect(runCli(['snapshot', snap, '--db', source, '--force']).status).toBe(0)
  })

  it('leaves a consistent store when killed mid-import, and a second run completes it', async () => {
    const total = 60_000
    const file = `${dir}/big.ndjson`
    writeFileSync(file, Array.from({ length: total }, (_, i) => line(i + 1)).join('\n'))
    const target = `${dir}/killed.sqlite`
    await emptyStore(target)
    const child = spawn(process.execPath, [CLI, 'import', 'logs', file, '--db', target], { stdio: 'ignore' })
    const watcher = new Database(target, { readonly: true })
    // Kill it once the first batch has landed and before the last.
    const deadline = Date.now() + 30_000
    let landed = 0
    while (Date.now() < deadline) {
      landed = (watcher.prepare('select coalesce(max(inserted), 0) as n from imports').get() as { n: number }).n
      if (landed > 0) break
      await new Promise((r) => setTimeout(r, 20))
    }
    child.kill('SIGKILL')
    await new Promise((r) => child.once('exit', r))
    watcher.close()
    expect(landed).toBeGreaterThan(0)

    const db = new Database(target)
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok')
    const rows = (db.prepare('select count(*) as n from call_logs').get() as { n: number }).n
    const recorded = db.prepare('select inserted, status from imports').get() as { inserted: number; status: string }
    expect(rows).toBe(recorded.inserted)
    expect(rows).toBeLessThan(total)
    expect(rows % 20_000).toBe(0)
    expect(() => db.prepare("insert into call_logs_fts(call_logs_fts, rank) values ('integrity-check', 1)").run()).not.toThrow()
    db.close()

    const resumed = runCli(['import', 'logs', file, '--db', target])
    expect(resumed.stdout).toMatch(/^Imported big\.ndjson \(ndjson\) in /)
    expect(resumed.stdout).toContain(`${(total - rows).toLocaleString('en-US')} new, ${rows.toLocaleString('en-US')} already stored`)
    const after = new Database(target, { readonly: true })
    expect((after.prepare('select count(*) as n from call_logs').get() as { n: number }).n).toBe(total)
    expect((after.prepare("select count(*) as n from call_logs_fts where call_logs_fts match 'latency'").get() as { n: number }).n).toBe(total)
    after.close()
    expect(dbInfo(target).counts.imports).toBe(2)
  }, 90_000)

  it('keeps nothing of a bulk import killed mid-way, every index in place, and a re-run completes it', async () => {
    const total = 80_000
    const file = `${dir}/bulk.ndjson`
    writeFileSync(file, Array.from({ length: total }, (_, i) => line(i + 1)).join('\n'))
    const target = `${dir}/bulk-killed.sqlite`
    await emptyStore(target)
    const schema = (db: Database.Database) => db.prepare("select type, name, sql from sqlite_master where tbl_name = 'call_logs' order by name").all()
    const fresh = new Database(target, { readonly: true })
    const expected = schema(fresh)
    fresh.close()

    const child = spawn(process.execPath, [CLI, 'import', 'logs', file, '--bulk', 'always', '--db', target], { stdio: 'ignore' })
    // Kill it once rows are being written: the journal (or the WAL, if the mode stayed) grows.
    const deadline = Date.now() + 30_000
    let writing = false
    while (!writing && Date.now() < deadline) {
      // A journal is deleted at each commit: a file gone between two looks counts as size 0.
      const size = (f: string) => statSync(f, { throwIfNoEntry: false })?.size ?? 0
      writing = [`${target}-journal`, `${target}-wal`].some((f) => size(f) > 1_000_000) || size(target) > 20_000_000
      await new Promise((r) => setTimeout(r, 10))
    }
    child.kill('SIGKILL')
    await new Promise((r) => child.once('exit', r))
    expect(writing).toBe(true)

    const db = new Database(target)
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok')
    expect((db.prepare('select count(*) as n from call_logs').get() as { n: number }).n).toBe(0)
    expect(schema(db)).toEqual(expected)
    db.close()

    const resumed = runCli(['import', 'logs', file, '--bulk', 'always', '--db', target])
    expect(resumed.stdout).toMatch(/^Imported bulk\.ndjson \(ndjson, in bulk\) in /)
    expect(resumed.stdout).toContain(`${total.toLocaleString('en-US')} new, 0 already stored`)
    const after = new Database(target, { readonly: true })
    expect((after.prepare("select count(*) as n from call_logs_fts where call_logs_fts match 'latency'").get() as { n: number }).n).toBe(total)
    expect(schema(after)).toEqual(expected)
    after.close()
    const history = JSON.parse(runCli(['db', 'info', '--json', '--db', target]).stdout) as { counts: Record<string, number> }
    expect(history.counts.imports).toBe(2)
  }, 90_000)
})
