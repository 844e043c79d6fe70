import { existsSync } from 'node:fs'
import { PassThrough, Readable } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { parseInWorker } from './parse-in-worker'
import { type ParsedBatch, parsedBatches } from './parsed-batches'
import { ImportFormatError } from './record-readers'

const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`
const record = (n: number, o: Record<string, unknown> = {}) =>
  JSON.stringify({
    id: uuid(n),
    tenant_id: '11111111-1111-4111-8111-111111111111',
    log_type: 'stt',
    log_level: 'info',
    message: `Transcrição número ${n} — ok`,
    timestamp: `2026-11-01T10:00:${String(n % 60).padStart(2, '0')}.000Z`,
    details: { n },
    ...o,
  })

/** A file of valid and broken records, CRLF line ends, a BOM, blank lines, no final newline. */
function mixedFile(valid: number): string {
  const lines = ['\uFEFF' + record(1)]
  for (let n = 2; n <= valid; n++) {
    lines.push(record(n))
    if (n % 97 === 0) lines.push('{"id": "broken')
    if (n % 89 === 0) lines.push(record(100_000 + n, { log_level: 'loud' }))
    if (n % 50 === 0) lines.push('')
  }
  return lines.join('\r\n')
}

/** The text cut into small chunks: lines and multi-byte characters split across chunks. */
const inChunks = (text: string, size = 61) => {
  const bytes = Buffer.from(text)
  const chunks: Buffer[] = []
  for (let i = 0; i < bytes.length; i += size) chunks.push(bytes.subarray(i, i + size))
  return Readable.from(chunks)
}

async function collect(batches: AsyncGenerator<ParsedBatch>) {
  const rows: Array<Array<string | null>> = []
  const positions: number[] = []
  const refused: unknown[] = []
  let recordsRead = 0
  let count = 0
  for await (const batch of batches) {
    count++
    rows.push(...batch.rows)
    positions.push(...batch.positions)
    refused.push(...batch.refused)
    recordsRead = batch.recordsRead
  }
  return { rows, positions, refused, recordsRead, count }
}

const BUNDLED = new URL('../../../out/main/parse-worker.js', import.meta.url)

describe('parsing on a worker thread', () => {
  it('yields exactly what parsing on this thread yields, across chunk borders', async () => {
    const text = mixedFile(3000)
    const here = await collect(parsedBatches(inChunks(text), 'ndjson', 500))
    const there = await collect(parseInWorker(inChunks(text), 'ndjson', 500))
    expect(there).toEqual(here)
    expect(here.rows).toHaveLength(3000)
    expect(here.refused).toHaveLength(30 + 33)
    expect(here.recordsRead).toBe(3063)
    expect(here.count).toBeGreaterThanOrEqual(7)
    // The multi-byte message survived the small chunks; record 1 lost its BOM, not its id.
    expect(here.rows[0]).toContain('Transcrição número 1 — ok')
    expect(here.rows[0]![0]).toBe(uuid(1))
    // Lines 1–51 hold records 1–50, line 52 is blank; the loud level after n = 89 is record 90.
    expect(here.refused[0]).toEqual({ record: 90, line: 91, reason: expect.stringContaining('log_level') })
    expect(here.refused[1]).toEqual({ record: 99, line: 100, reason: expect.stringContaining('not valid JSON') })
    // n = 98, the 98th valid row, comes after those two: record 100, line 101.
    expect(here.positions.slice(2 * 97, 2 * 97 + 2)).toEqual([100, 101])
  })

  it('hands over the records before a break in a JSON array, then fails naming the line', async () => {
    const text = `[\n${[1, 2, 3].map((n) => record(n)).join(',\n')},\n{"id": "x", "message": "never closed"\n`
    const seen: unknown[] = []
    const failure = await (async () => {
      try {
        for await (const batch of parseInWorker(inChunks(text, 40), 'json', 2)) seen.push(...batch.rows)
      } catch (error) {
        return error
      }
    })()
    expect(seen).toHaveLength(3)
    expect(failure).toBeInstanceOf(ImportFormatError)
    expect((failure as Error).message).toBe('line 6: the array is not closed ("]" missing)')
  })

  it('stops with the input when it fails, instead of waiting for the rest', async () => {
    const input = new PassThrough()
    input.write(`${record(1)}\n${record(2)}\n`)
    setTimeout(() => input.destroy(new Error('disk went away')), 50)
    await expect(collect(parseInWorker(input, 'ndjson', 1000))).rejects.toThrow('disk went away')
  })

  it('runs the bundled worker the desktop app starts (out/main/parse-worker.js)', async () => {
    expect(existsSync(BUNDLED), 'build first: npm run build').toBe(true)
    const text = mixedFile(1200)
    const here = await collect(parsedBatches(inChunks(text, 4096), 'ndjson', 300))
    const bundled = await collect(parseInWorker(inChunks(text, 4096), 'ndjson', 300, BUNDLED))
    expect(bundled).toEqual(here)
  })
})
