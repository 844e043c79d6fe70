import { copyFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, inject, it } from 'vitest'
import { runCli } from '../helpers/cli'
import { damagedDemoStore, type DamagedStore } from '../helpers/damaged-rows'
import { tempDir } from '../helpers/temp-dir'

/*
 * Issue 36, point 3, on the CLI: `callscope export logs` and `callscope tail` over a store whose
 * call log pages are garbage a few hundred lines in. A command that stops part way says how many
 * rows it wrote before the failure and where they are, exits 1, and never leaves a file with the
 * name asked for that looks like a whole export.
 */

const dir = tempDir()
let store: DamagedStore
beforeAll(() => {
  // The line at rank 800 (newest first) is on a damaged page: the first chunk of 500 lines reads, the second does not.
  store = damagedDemoStore(dir, [800])
  expect(store.firstLost).toBeGreaterThanOrEqual(500)
  expect(store.firstLost).toBeLessThan(1000)
})

const lines = (text: string) => text.split('\n').filter((line) => line !== '')
const DAMAGED = /Reading the store failed: the store is damaged \(.*damaged\.sqlite: database disk image is malformed\)\. Run `callscope db check --db /

describe('callscope export logs on a damaged store', () => {
  it.each([
    ['ndjson', 0],
    ['csv', 1],
  ] as const)('--out FILE (%s): exit 1, FILE not written, FILE.partial holds the rows it says', (format, header) => {
    const out = join(dir, `out.${format}`)
    const result = runCli(['export', 'logs', '--db', store.path, '--format', format, '--out', out])
    expect(result.status).toBe(1)
    expect(result.stderr).toContain(`The export stopped part way (500 rows before it are in ${out}.partial; ${out} was not written): `)
    expect(result.stderr).toMatch(DAMAGED)
    expect(existsSync(out)).toBe(false)
    const partial = lines(readFileSync(`${out}.partial`, 'utf8'))
    expect(partial.length - header).toBe(500)
    if (format === 'ndjson') for (const line of partial) expect(JSON.parse(line)).toHaveProperty('id')
  })

  it('--out FILE over an earlier export: the earlier file is left as it was', () => {
    const out = join(dir, 'kept.ndjson')
    writeFileSync(out, '{"id":"from yesterday"}\n')
    const result = runCli(['export', 'logs', '--db', store.path, '--out', out])
    expect(result.status).toBe(1)
    expect(readFileSync(out, 'utf8')).toBe('{"id":"from yesterday"}\n')
    expect(lines(readFileSync(`${out}.partial`, 'utf8'))).toHaveLength(500)
  })

  it('to standard output: the rows before the damage, then exit 1 saying how many went out', () => {
    const result = runCli(['export', 'logs', '--db', store.path])
    expect(result.status).toBe(1)
    expect(lines(result.stdout)).toHaveLength(500)
    expect(result.stderr).toContain('The export stopped part way (500 rows were written to standard output before it, and nothing after): ')
    expect(result.stderr).toMatch(DAMAGED)
  })

  it('an intact store: FILE whole, no .partial left beside it', () => {
    const intact = join(dir, 'intact.sqlite')
    copyFileSync(inject('demoTemplate'), intact)
    const out = join(dir, 'whole.ndjson')
    const result = runCli(['export', 'logs', '--db', intact, '--out', out])
    expect(result.stderr).toBe('')
    expect(result.status).toBe(0)
    expect(lines(readFileSync(out, 'utf8'))).toHaveLength(store.rows)
    expect(existsSync(`${out}.partial`)).toBe(false)
  })
})

describe('callscope tail on a damaged store', () => {
  it('-n 1000 meets the damage in the backlog: says it stopped, after how many lines, and why; exit 1', () => {
    const result = runCli(['tail', '--db', store.path, '-n', '1000', '--json'])
    expect(result.status).toBe(1)
    expect(result.stdout).toBe('')
    expect(result.stderr).toContain('callscope: error: the tail stopped after 0 lines, and follows no more: ')
    expect(result.stderr).toMatch(DAMAGED)
  })
})
