import { describe, expect, it } from 'vitest'
import { untilAborted } from './until-aborted'

async function* counting(signal: AbortSignal) {
  for (let i = 1; ; i++) {
    signal.throwIfAborted()
    yield i
    await new Promise((resolve) => setImmediate(resolve))
  }
}

describe('untilAborted', () => {
  it('ends a stream whose source throws after the abort, even for a read asked for before it', async () => {
    const controller = new AbortController()
    const stream = untilAborted(counting(controller.signal), controller.signal)
    expect(await stream.next()).toEqual({ value: 1, done: false })
    // The read ahead tRPC's ping race makes: pending when the client hangs up.
    const ahead = stream.next()
    controller.abort('Error: aborted')
    expect(await ahead).toEqual({ value: undefined, done: true })
    expect(await stream.next()).toEqual({ value: undefined, done: true })
  })

  it('passes on an error thrown while the reader is still there', async () => {
    const controller = new AbortController()
    async function* failing() {
      yield 1
      throw new Error('disk gone')
    }
    const stream = untilAborted(failing(), controller.signal)
    expect(await stream.next()).toEqual({ value: 1, done: false })
    await expect(stream.next()).rejects.toThrow('disk gone')
  })

  it('without it, the same read ahead rejects with the abort reason', async () => {
    const controller = new AbortController()
    const bare = counting(controller.signal)
    await bare.next()
    await bare.next()
    controller.abort('Error: aborted')
    await expect(bare.next()).rejects.toBe('Error: aborted')
  })
})
