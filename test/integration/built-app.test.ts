import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { describe, expect, it } from 'vitest'
import { createReadPool } from '../../src-main/db/read-pool'
import { openDatabase, openStore } from '../../src-main/db/connection'
import { migrateToLatest } from '../../src-main/db/migrate'
import { seedJob } from '../../src-main/modules/database/database.write-jobs'
import { tempDir } from '../helpers/temp-dir'
import { CONTENT_SECURITY_POLICY } from '../../src-main/desktop/content-security-policy'
import { parseInWorker } from '../../src-main/modules/imports/parse-in-worker'
import { parsedBatches } from '../../src-main/modules/imports/parsed-batches'
import { collect, inChunks, mixedFile } from '../helpers/call-log-files'

/** What `npm run build` (electron-vite) wrote: these tests read the built app, not its sources. */
const OUT = join(import.meta.dirname, '../../out')
const BUNDLED_WORKER = pathToFileURL(join(OUT, 'main/parse-worker.js'))

describe('the content security policy', () => {
  it('is in the built console page: scripts from the app only, no eval, no frames', () => {
    const html = readFileSync(join(OUT, 'renderer/index.html'), 'utf8')
    expect(html).toContain(`<meta http-equiv="Content-Security-Policy" content="${CONTENT_SECURITY_POLICY}" />`)
    expect(CONTENT_SECURITY_POLICY).toContain("script-src 'self';")
    expect(CONTENT_SECURITY_POLICY).not.toContain('unsafe-eval')
    expect(CONTENT_SECURITY_POLICY).toContain("object-src 'none'")
  })
})

describe('the bundled parse worker', () => {
  it('runs the bundled worker the desktop app starts (out/main/parse-worker.js)', async () => {
    expect(existsSync(BUNDLED_WORKER), 'build first: npm run build').toBe(true)
    const text = mixedFile(1200)
    const here = await collect(parsedBatches(inChunks(text, 4096), 'ndjson', 300))
    const bundled = await collect(parseInWorker(inChunks(text, 4096), 'ndjson', 300, BUNDLED_WORKER))
    expect(bundled).toEqual(here)
  })
})

describe('the bundled read worker', () => {
  it('answers reads from out/main/read-worker.js, where the bundled main process looks for it', async () => {
    const worker = join(OUT, 'main/read-worker.js')
    expect(existsSync(worker), 'build first: npm run build').toBe(true)
    // The bundle resolves './read-worker.js' against the module holding the pool's code: it must sit beside it.
    const holder = ['main/index.js'].find((f) => readFileSync(join(OUT, f), 'utf8').includes('"./read-worker.js"'))
    expect(holder).toBe('main/index.js')

    const path = join(tempDir(), 'store.sqlite')
    const writer = openDatabase({ path })
    writer.sqlite.exec("create table t (x); insert into t values (1), (2), (3)")
    const pool = createReadPool({ path, readers: 1, entry: worker })
    try {
      expect(await pool.read('select sum(x) as total from t', [])).toEqual([{ total: 6 }])
    } finally {
      await pool.close()
      await writer.close()
    }
  })
})

describe('the bundled writer worker', () => {
  it('migrates, seeds and writes from out/main/writer-worker.js, where the bundled main process looks for it', async () => {
    const worker = join(OUT, 'main/writer-worker.js')
    expect(existsSync(worker), 'build first: npm run build').toBe(true)
    // service.ts resolves './writer-worker.js' against the bundle that holds it: index.js, beside the worker.
    expect(readFileSync(join(OUT, 'main/index.js'), 'utf8')).toContain('"./writer-worker.js"')

    const handle = await openStore({ path: join(tempDir(), 'store.sqlite'), readers: 1, writerEntry: pathToFileURL(worker) })
    try {
      expect(handle.writer.threaded).toBe(true)
      await migrateToLatest(handle.db)
      const seeded = await handle.writer.run(seedJob, { scale: 'small', seed: 3, anchor: Date.parse('2026-11-20T12:00:00Z') })
      const { n } = await handle.db.selectFrom('call_logs').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()
      expect(Number(n)).toBe(seeded.callLogs)
      // A job the bundle does not know is refused by name, not by a crash of the thread.
      await expect(handle.writer.run({ name: 'no.such.job', run: () => null }, {})).rejects.toThrow('Unknown write job no.such.job')
      await handle.db.insertInto('settings').values({ key: 'bundled', value: '"yes"', updated_at: new Date().toISOString() }).execute()
      expect(await handle.db.selectFrom('settings').select('value').where('key', '=', 'bundled').executeTakeFirst()).toEqual({ value: '"yes"' })
    } finally {
      await handle.close()
    }
  })
})
