import { describe, expect, it } from 'vitest'
import { createTimeSlicer } from './time-slicer'

const busy = (ms: number) => {
  const end = performance.now() + ms
  while (performance.now() < end);
}

describe('createTimeSlicer', () => {
  it('lets a pending timer run once the budget is spent, not before', async () => {
    const slicer = createTimeSlicer({ budgetMs: 5 })
    let fired = false
    setImmediate(() => (fired = true))
    await slicer.tick()
    expect(fired).toBe(false)
    busy(6)
    await slicer.tick()
    expect(fired).toBe(true)
  })

  it('stops the work with the abort reason once the signal aborts', async () => {
    const controller = new AbortController()
    const slicer = createTimeSlicer({ budgetMs: 0, signal: controller.signal })
    await slicer.tick()
    controller.abort(new Error('superseded'))
    await expect(slicer.tick()).rejects.toThrow('superseded')
  })
})
