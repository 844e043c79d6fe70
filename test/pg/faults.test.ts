import { randomBytes } from 'node:crypto'
import { closeSync, openSync, writeFileSync, writeSync } from 'node:fs'
import { join } from 'node:path'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest'
import { runCliAsync } from '../helpers/cli'
import { record } from '../helpers/call-log-files'
import { type PgCluster, startPgCluster } from '../helpers/pg-cluster'
import { createPgDatabase } from '../helpers/pg-database'
import { canMountSmallDisk, smallDisk } from '../helpers/small-disk'
import { tempDir } from '../helpers/temp-dir'

/*
 * Issue 36, the fault table's `import logs --db postgres://` row: a full disk under the server and
 * a damaged table, met by `callscope import logs FILE --db postgres://…`, checked against the rows.
 */

const RECORDS = 60_000

function fileOf(dir: string, name: string, records: number): string {
  const lines: string[] = []
  for (let n = 1; n <= records; n++) lines.push(record(n))
  const path = join(dir, name)
  writeFileSync(path, `${lines.join('\n')}\n`)
  return path
}

async function query<T = Record<string, unknown>>(url: string, statement: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    return (await client.query(statement, params)).rows as T[]
  } finally {
    await client.end()
  }
}

const count = async (url: string, statement: string) => Number((await query<{ n: string }>(url, statement))[0]!.n)

/** Resolves once the server takes connections again, false if it has not within `ms`. */
async function serverUp(url: string, ms: number): Promise<boolean> {
  try {
    await vi.waitUntil(() => query(url, 'select 1').then(() => true, () => false), { timeout: ms, interval: 250 })
    return true
  } catch {
    return false
  }
}

describe.skipIf(!canMountSmallDisk)('import logs into PostgreSQL on a full disk', { timeout: 300_000 }, () => {
  const disk = canMountSmallDisk ? smallDisk(320 * 1024 * 1024) : (null as never)
  let cluster: PgCluster
  let url: string
  let big: string

  beforeAll(async () => {
    // A cluster of its own, all of it (tables and WAL) on the small disk, as a laptop's server is.
    cluster = await startPgCluster({ dir: join(disk.dir, 'pg') })
    afterAll(() => cluster.stop())
    await cluster.psql('create database callscope')
    url = cluster.urlOf('callscope')
    const files = tempDir()
    // The first import migrates the new database: record 1 is stored.
    const migrated = await runCliAsync(['import', 'logs', fileOf(files, 'one.ndjson', 1), '--db', url], {}, 120_000)
    expect(migrated.status, migrated.stderr).toBe(0)
    big = fileOf(files, 'big.ndjson', RECORDS)
  }, 180_000)

  it('the server PANICs on its WAL: exit 1 saying the disk is full, the committed batches kept and counted; after room, the same import completes', async () => {
    // Room for one batch of 20,000 (about 80 MiB of rows, indexes and WAL), not for the file.
    disk.fill(120 * 1024 * 1024)
    const failed = await runCliAsync(['import', 'logs', big, '--db', url], {}, 240_000)
    expect(failed.status).toBe(1)
    expect(failed.stderr).toContain('The import failed: the disk holding the store is full')
    // Measured: PostgreSQL 15 cannot create its next WAL segment and PANICs, and says so.
    expect(failed.stderr).toContain('The PostgreSQL server stopped on it (PANIC: could not write to file "pg_wal/xlogtemp.')
    expect(failed.stderr).not.toMatch(/\n\s+at /)

    // The server recovered by itself (the sink waited for it, to record the import's end).
    expect(await serverUp(url, 30_000)).toBe(true)
    const stored = await count(url, 'select count(*) as n from call_logs')
    expect(await count(url, 'select count(distinct id) as n from call_logs')).toBe(stored)
    const [record] = await query<{ status: string; inserted: string; failure: string }>(url, "select status, inserted, failure from imports where source like '%big.ndjson' order by started_at")
    expect(record).toMatchObject({ status: 'failed' })
    expect(record!.failure).toContain('the disk holding the store is full')
    // The record counts exactly the rows its committed batches left (record 1 came before it): whole batches.
    expect(Number(record!.inserted)).toBe(stored - 1)
    expect(stored % 20_000).toBe(0)
    expect(stored).toBeGreaterThan(0)
    expect(stored).toBeLessThan(RECORDS)
    expect(failed.stdout).toContain(`${(stored - 1).toLocaleString('en-US')} new`)

    disk.makeRoom()
    const again = await runCliAsync(['import', 'logs', big, '--db', url], {}, 240_000)
    expect(again.stderr).toBe('')
    expect(again.status).toBe(0)
    expect(again.stdout).toContain(`${RECORDS.toLocaleString('en-US')} records read: ${(RECORDS - stored).toLocaleString('en-US')} new, ${stored.toLocaleString('en-US')} already stored, 0 refused`)
    expect(await count(url, 'select count(*) as n from call_logs')).toBe(RECORDS)
    expect(await count(url, 'select count(distinct id) as n from call_logs')).toBe(RECORDS)
  })
})

describe('import logs into a damaged PostgreSQL store', () => {
  it('on the page where new rows go: exit 1 saying the store is damaged and what to do, nothing of it stored, the readable rows unchanged', { timeout: 180_000 }, async () => {
    const files = tempDir()
    const source = await createPgDatabase({ seed: false })
    const first = await runCliAsync(['import', 'logs', fileOf(files, 'first.ndjson', 1_000), '--db', source], {}, 120_000)
    expect(first.status, first.stderr).toBe(0)
    // Where the rows are, read on the healthy original: the month's partition and how many rows its last page holds.
    const [part] = await query<{ name: string; pages: number }>(source, "select tableoid::regclass::text as name, pg_relation_size(tableoid) / 8192 as pages from call_logs group by tableoid")
    const last = Number(part!.pages) - 1
    const [onLast] = await query<{ n: string }>(source, `select count(*) as n from ${part!.name} where (ctid::text::point)[0] = $1`, [last])
    expect(Number(onLast!.n)).toBeGreaterThan(0)

    // A file-by-file copy (no page of it passes through the server's buffers), its last heap page
    // of call_logs overwritten: where a new row goes when the table has no free space map yet.
    const base = inject('pgBaseUrl')!
    const name = `t_damaged_${randomBytes(4).toString('hex')}`
    await query(`${base}/postgres`, `create database ${name} template ${new URL(source).pathname.slice(1)} strategy file_copy`)
    afterAll(() => query(`${base}/postgres`, `drop database if exists ${name} with (force)`))
    const url = `${base}/${name}`
    const [setting] = await query<{ data_directory: string }>(url, 'show data_directory')
    const [relation] = await query<{ file: string }>(url, `select pg_relation_filepath('${part!.name}') as file`)
    const fd = openSync(join(setting!.data_directory, relation!.file), 'r+')
    try {
      writeSync(fd, Buffer.alloc(8192, 0xee), 0, 8192, last * 8192)
    } finally {
      closeSync(fd)
    }

    // 2,000 records: the first 1,000 already stored, 1,000 new in the same month.
    const result = await runCliAsync(['import', 'logs', fileOf(files, 'second.ndjson', 2_000), '--db', url], {}, 120_000)
    expect(result.status).toBe(1)
    expect(result.stderr).toContain(`The import failed: the store is damaged (${url}: invalid page in block ${last} of relation`)
    expect(result.stderr).toContain('Nothing of it was stored.')
    expect(result.stderr).toContain('restore the database from a pg_dump backup')
    expect(result.stderr).not.toContain('db recover')
    expect(result.stderr).not.toMatch(/\n\s+at /)
    expect(result.stdout).toContain('2,000 records read: 0 new, 0 already stored, 0 refused')

    // True to the rows: the import's record failed with 0, no new id taken, no row of it stored,
    // and every row on the readable pages still there (the damaged page's are beyond reach).
    const [failed, ...more] = await query<{ id: string; status: string; inserted: string; failure: string }>(url, "select id, status, inserted, failure from imports where source like '%second.ndjson'")
    expect(more).toHaveLength(0)
    expect(failed).toMatchObject({ status: 'failed', inserted: '0' })
    expect(failed!.failure).toContain('the store is damaged')
    expect(await count(url, 'select count(*) as n from call_log_ids')).toBe(1_000)
    const client = new pg.Client({ connectionString: url })
    await client.connect()
    try {
      await client.query('begin')
      // Read past the damaged page (superuser only; in memory, and rolled back with the read).
      await client.query('set local zero_damaged_pages = on')
      const readable = await client.query<{ all: string; mine: string }>('select count(*) as all, count(*) filter (where import_id = $1) as mine from call_logs', [failed!.id])
      expect(readable.rows[0]).toEqual({ all: String(1_000 - Number(onLast!.n)), mine: '0' })
      await client.query('rollback')
    } finally {
      await client.end()
    }
  })
})
