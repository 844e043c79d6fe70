import { MessageChannel, type MessagePort } from 'node:worker_threads'
import { once } from 'node:events'
import { describe, expect, it } from 'vitest'
import { type ParsedBatch, packBatch, packedBuffers, unpackBatch } from './parsed-batches'

const batch: ParsedBatch = { rows: [['0f0f0f0f-0f0f-4f0f-8f0f-0f0f0f0f0f0f', 'Transcrição', '42', null]], positions: [3, 4], refused: [{ record: 2, line: 3, reason: 'not valid JSON' }], recordsRead: 2 }

async function send(port: MessagePort, to: MessagePort, message: unknown, transfer: ArrayBuffer[]): Promise<unknown> {
  const arrived = once(to, 'message')
  port.postMessage(message, transfer)
  return (await arrived)[0]
}

describe('a packed batch between threads', () => {
  it('moves in its own buffer: the bytes arrive whole and the sender keeps none', async () => {
    const own = { packed: new Uint8Array(packBatch(batch).packed) }
    expect(packedBuffers(own)).toEqual([own.packed.buffer])
    const { port1, port2 } = new MessageChannel()
    const arrived = await send(port1, port2, own, packedBuffers(own))
    expect(own.packed.byteLength).toBe(0)
    expect(unpackBatch(arrived as typeof own)).toEqual(batch)
    port1.close()
  })

  it('is copied when its bytes share a buffer, and a parsed batch has nothing to move', () => {
    const bytes = packBatch(batch).packed
    const shared = new Uint8Array(bytes.byteLength + 8)
    shared.set(bytes, 8)
    expect(packedBuffers({ packed: shared.subarray(8) })).toEqual([])
    expect(packedBuffers(batch)).toEqual([])
  })
})
