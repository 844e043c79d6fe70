import { readdirSync, readFileSync } from 'node:fs'
import { getPriority } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { tempDir } from '../../test/helpers/temp-dir'
import { openStore } from '../db/connection'
import { writerEntry } from '../writer/writer-entry'
import { BACKGROUND_NICE, lowerWorkerPriority, READER_NICE } from './thread-priority.mjs'

/** The nice value of each thread of this process, from /proc (field 19 of each thread's stat). */
const niceOfThreads = (): number[] =>
  readdirSync('/proc/self/task').map((tid) => {
    const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8')
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16])
  })

describe.runIf(process.platform === 'linux')('database threads below the main thread', () => {
  it('leaves the main thread as it is', () => {
    const before = getPriority()
    expect(lowerWorkerPriority(BACKGROUND_NICE)).toBe(false)
    expect(getPriority()).toBe(before)
  })

  it('runs the writer in the background and every reader just below the main thread, and only them', async () => {
    const count = (nice: number) => niceOfThreads().filter((n) => n === nice).length
    const before = { readers: count(READER_NICE), writer: count(BACKGROUND_NICE) }
    const handle = await openStore({ path: join(tempDir(), 'store.sqlite'), readers: 2, writerEntry: writerEntry() })
    try {
      // A reader lowers itself when it starts: one query on each makes sure both have.
      await Promise.all([1, 2].map(() => handle.db.selectFrom('sqlite_master' as never).selectAll().execute()))
      expect(count(READER_NICE) - before.readers).toBe(2)
      expect(count(BACKGROUND_NICE) - before.writer).toBe(1)
      expect(getPriority()).toBe(0)
    } finally {
      await handle.close()
    }
  })
})
