import { readdirSync, readFileSync } from 'node:fs'
import { getPriority } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { tempDir } from '../../test/helpers/temp-dir'
import { openStore } from '../db/connection'
import { writerEntry } from '../writer/writer-entry'
import { lowerWorkerPriority, WORKER_NICE } from './thread-priority'

/** The nice value of each thread of this process, from /proc (field 19 of each thread's stat). */
const niceOfThreads = (): number[] =>
  readdirSync('/proc/self/task').map((tid) => {
    const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8')
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16])
  })

describe.runIf(process.platform === 'linux')('database threads below the main thread', () => {
  it('leaves the main thread as it is', () => {
    const before = getPriority()
    expect(lowerWorkerPriority()).toBe(false)
    expect(getPriority()).toBe(before)
  })

  it('runs the writer and every reader at the lower priority, and only them', async () => {
    const before = niceOfThreads().filter((n) => n === WORKER_NICE).length
    const handle = await openStore({ path: join(tempDir(), 'store.sqlite'), readers: 2, writerEntry: writerEntry() })
    try {
      // A reader lowers itself when it starts: one query on each makes sure both have.
      await Promise.all([1, 2].map(() => handle.db.selectFrom('sqlite_master' as never).selectAll().execute()))
      expect(niceOfThreads().filter((n) => n === WORKER_NICE).length - before).toBe(3)
      expect(getPriority()).toBe(0)
    } finally {
      await handle.close()
    }
  })
})
