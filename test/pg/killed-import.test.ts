import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { createService } from '../../src-main/service'
import { CLI, runCliAsync } from '../helpers/cli'
import { record } from '../helpers/call-log-files'
import { createPgDatabase } from '../helpers/pg-database'
import { tempDir } from '../helpers/temp-dir'

/*
 * Issue 36, point 6: `kill -9` of `callscope import logs FILE --db postgres://…` part way. The rows
 * left must be exactly what the import's record says it committed, and importing the same file
 * again completes with every record stored once.
 */

vi.setConfig({ testTimeout: 180_000 })

const RECORDS = 120_000
let url: string
let client: pg.Client
let file: string

beforeAll(async () => {
  url = await createPgDatabase({ seed: false })
  client = new pg.Client({ connectionString: url })
  await client.connect()
  file = join(tempDir(), 'killed.ndjson')
  const lines: string[] = []
  for (let n = 1; n <= RECORDS; n++) lines.push(record(n))
  writeFileSync(file, `${lines.join('\n')}\n`)
}, 120_000)
afterAll(() => client?.end())

const count = async (sql: string, params: unknown[] = []) => Number((await client.query<{ n: string }>(sql, params)).rows[0]!.n)

describe('kill -9 during callscope import logs --db postgres://', () => {
  it('leaves the rows its record says it committed; the same import again stores the rest, nothing twice', async () => {
    const child = spawn(process.execPath, [CLI, 'import', 'logs', file, '--db', url], { env: { ...process.env, CALLSCOPE_TOKEN: '' }, stdio: 'ignore' })
    const exited = once(child, 'exit')
    try {
      // Killed once some batches have committed: a signal from the store, not a guess at the time.
      await vi.waitUntil(async () => (await count('select count(*) as n from call_logs')) >= 10_000, { timeout: 90_000, interval: 10 })
    } finally {
      child.kill('SIGKILL')
      await exited
    }

    const stored = await count('select count(*) as n from call_logs')
    expect(stored).toBeLessThan(RECORDS)
    const imports = (await client.query<{ id: string; status: string; inserted: number }>('select id, status, inserted from imports')).rows
    expect(imports).toHaveLength(1)
    const killed = imports[0]!
    // What the record says was committed is what is there: no row it does not count, none it counts missing.
    expect(await count('select count(*) as n from call_logs where import_id = $1', [killed.id])).toBe(stored)
    expect(Number(killed.inserted)).toBe(stored)
    expect(await count('select count(distinct id) as n from call_logs')).toBe(stored)

    const again = await runCliAsync(['import', 'logs', file, '--db', url], {}, 170_000)
    expect(again.status).toBe(0)
    expect(again.stdout).toContain(`${RECORDS.toLocaleString('en-US')} records read: ${(RECORDS - stored).toLocaleString('en-US')} new, ${stored.toLocaleString('en-US')} already stored, 0 refused`)
    expect(await count('select count(*) as n from call_logs')).toBe(RECORDS)
    expect(await count('select count(distinct id) as n from call_logs')).toBe(RECORDS)
    // The history read through the service says the killed run was interrupted, with the rows it kept.
    const service = await createService({ dbPath: url, seedNewDatabase: false, readers: 0, poolSize: 2 })
    try {
      const history = await service.imports.list()
      expect(history.find((r) => r.id === killed.id)).toMatchObject({ status: 'interrupted', inserted: stored })
    } finally {
      await service.close()
    }
  })
})
