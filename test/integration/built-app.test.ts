import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { describe, expect, it } from 'vitest'
import { createReadPool } from '../../src-main/db/read-pool'
import { openDatabase } from '../../src-main/db/connection'
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
