import { PassThrough, Readable } from 'node:stream'
import { setTimeout as delay } from 'node:timers/promises'
import { describe, expect, it } from 'vitest'
import { parseInWorker } from './parse-in-worker'
import { collect, inChunks, mixedFile, record, uuid } from '../../../test/helpers/call-log-files'
import { parsedBatches, unpackBatch } from './parsed-batches'
import { ImportFormatError } from './record-readers'

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
        for await (const batch of parseInWorker(inChunks(text, 40), 'json', 2)) seen.push(...unpackBatch(batch).rows)
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

  it('reads ahead of the worker only as far as it has taken chunks (16, then one more for each taken), and stops when the input breaks meanwhile', async () => {
    // A worker that takes its first 10 chunks and then no more, as one still loading its parser takes none.
    const slowWorker = new URL(
      `data:text/javascript,${encodeURIComponent(
        "import { parentPort } from 'node:worker_threads'; let n = 0; parentPort.on('message', (m) => { if (m.type === 'chunk' && ++n <= 10) parentPort.postMessage({ type: 'consumed' }) })",
      )}`,
    )
    let pulled = 0
    let reached: () => void
    const allRead = new Promise<void>((resolve) => (reached = resolve))
    const input = new Readable({
      objectMode: true,
      highWaterMark: 1,
      read() {
        if (++pulled === 38) reached()
        this.push(Buffer.alloc(65536, 0x20))
      },
    })
    const batches = parseInWorker(input, 'ndjson', 1000, slowWorker)
    const ended = batches.next()
    await allRead
    // Nothing signals that reading stopped: the window is checked a while later.
    await delay(300)
    // 16 + 10 taken + 10 more once they were: 36 sent, one held while the pump waits, one the stream read ahead.
    expect(pulled).toBe(38)
    // The input breaking while the reader waits on the worker still ends the import, with why.
    input.destroy(new Error('stopped by the test'))
    await expect(ended).rejects.toThrow('stopped by the test')
  })
})
