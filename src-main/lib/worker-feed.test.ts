import { Worker } from 'node:worker_threads'
import { describe, expect, it } from 'vitest'
import { readFeed } from './worker-feed'

/** A worker from plain JavaScript (an eval worker cannot load the TypeScript sources): `body` runs with `port`. */
const workerOf = (body: string) => new Worker(`const { parentPort: port } = require('node:worker_threads');\n${body}`, { eval: true })

const collect = async (feed: AsyncGenerator<unknown>) => {
  const seen: unknown[] = []
  try {
    for await (const batch of feed) seen.push(batch)
  } catch (error) {
    return { seen, error: error as Error }
  }
  return { seen, error: null }
}

const reader = {
  failure: (m: { message: string }) => new Error(`failed: ${m.message}`),
  stopped: (code: number) => new Error(`stopped with ${code}`),
}

describe('readFeed', () => {
  it('yields the batches in order, acknowledging each, and passes the other messages on in order', async () => {
    // The worker posts batch n + 1 only once batch n is acknowledged: the feed must ack as it goes.
    const worker = workerOf(`
      let n = 0
      const next = () => (n < 3 ? port.postMessage({ type: 'batch', batch: ++n }) : port.postMessage({ type: 'done' }))
      port.on('message', (m) => { if (m.type === 'ack') { port.postMessage({ type: 'note', n }); next() } })
      next()`)
    const notes: number[] = []
    const { seen, error } = await collect(readFeed<number, object, { type: 'note'; n: number }>(worker, { ...reader, other: (m) => notes.push(m.n) }))
    expect(error).toBeNull()
    expect(seen).toEqual([1, 2, 3])
    expect(notes).toEqual([1, 2, 3])
  })

  it('throws what the worker says when it fails, after the batches before', async () => {
    const worker = workerOf(`port.postMessage({ type: 'batch', batch: 'a' }); port.postMessage({ type: 'failed', message: 'the remote went away' })`)
    const { seen, error } = await collect(readFeed(worker, reader))
    expect(seen).toEqual(['a'])
    expect(error?.message).toBe('failed: the remote went away')
  })

  it('throws, rather than waiting for ever, when the worker dies without a word', async () => {
    const worker = workerOf(`port.postMessage({ type: 'batch', batch: 'a' }); port.postMessage({ type: 'batch', batch: 'b' }); process.exit(9)`)
    const { seen, error } = await collect(readFeed(worker, reader))
    expect(seen).toEqual(['a', 'b'])
    expect(error?.message).toBe('stopped with 9')
  })

  it('throws the error a worker dies of', async () => {
    const worker = workerOf(`throw new RangeError('out of something')`)
    const { error } = await collect(readFeed(worker, reader))
    expect(error).toBeInstanceOf(RangeError)
    expect(error?.message).toBe('out of something')
  })

  it('ends the worker when the caller stops early', async () => {
    const worker = workerOf(`setInterval(() => port.postMessage({ type: 'batch', batch: 1 }), 5)`)
    for await (const batch of readFeed(worker, reader)) if (batch === 1) break
    // A terminated worker's thread id is -1.
    expect(worker.threadId).toBe(-1)
  })
})
