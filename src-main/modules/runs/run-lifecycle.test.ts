import { spawnSync } from 'node:child_process'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { migratedDb } from '../../../test/helpers/migrated-db'
import { insert } from '../../../test/helpers/rows'
import type { DatabaseHandle } from '../../db/connection'
import { createRunLifecycle } from './run-lifecycle'
import type { RunRow, RunTable } from './runs.repo'

/** A process id that was alive a moment ago and is not any more: a child that ran and exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', ''])
  if (child.pid === undefined) throw new Error(`could not start a child process: ${child.error?.message}`)
  return child.pid
}

const T = (minute: number) => `2026-11-01T10:${String(minute).padStart(2, '0')}:00.000Z`

/** A minimal run row of either table, started at minute `minute`. */
const runRow = (table: RunTable, id: string, minute: number, pid: number | null, status = 'running') =>
  table === 'imports'
    ? { id, kind: 'call_logs', source: `${id}.ndjson`, format: 'ndjson', status, pid, started_at: T(minute), updated_at: T(minute) }
    : { id, source: 'https://remote.example', since: T(0), until: T(minute), status, pid, started_at: T(minute), updated_at: T(minute) }

let handle: DatabaseHandle
beforeEach(async () => {
  handle = await migratedDb()
})
afterEach(() => handle.close())

describe.each([
  ['imports', 'Import'],
  ['pulls', 'Pull'],
] as const)('the run lifecycle of %s', (table, what) => {
  const lifecycle = () => createRunLifecycle(handle.db, table, what, (row: RunRow<typeof table>) => ({ id: row.id, status: row.status, finishedAt: row.finished_at }))

  it('marks a run whose process is gone as interrupted when the history is listed', async () => {
    insert(handle, table, runRow(table, 'dead', 1, deadPid()))
    insert(handle, table, runRow(table, 'no-pid', 2, null))
    insert(handle, table, runRow(table, 'this-process', 3, process.pid))
    insert(handle, table, runRow(table, 'parent', 4, process.ppid))
    insert(handle, table, runRow(table, 'done', 5, deadPid(), 'completed'))

    const runs = await lifecycle().list(50)
    expect(runs.map((r) => [r.id, r.status])).toEqual([
      ['done', 'completed'],
      ['parent', 'running'],
      ['this-process', 'running'],
      ['no-pid', 'interrupted'],
      ['dead', 'interrupted'],
    ])
    expect(runs.find((r) => r.id === 'dead')!.finishedAt).not.toBeNull()
    expect(runs.find((r) => r.id === 'parent')!.finishedAt).toBeNull()
  })

  it('marks it interrupted when the run is read on its own too, and names the run it cannot find', async () => {
    insert(handle, table, runRow(table, 'dead', 1, deadPid()))
    insert(handle, table, runRow(table, 'alive', 2, process.pid))
    const runs = lifecycle()
    expect(await runs.get('dead')).toMatchObject({ status: 'interrupted' })
    expect(await runs.get('alive')).toMatchObject({ status: 'running', finishedAt: null })
    await expect(runs.get('missing')).rejects.toThrow(`${what} not found`)
  })

  it('finds a run as stored, without reconciling', async () => {
    insert(handle, table, runRow(table, 'dead', 1, deadPid()))
    const runs = lifecycle()
    expect(await runs.find('dead')).toMatchObject({ status: 'running' })
    await expect(runs.find('missing')).rejects.toThrow(`${what} not found`)
  })

  it('lists newest first, the id ordering runs started together, up to the limit', async () => {
    for (const [id, minute] of [['b', 1], ['a', 1], ['c', 2], ['d', 0]] as const) insert(handle, table, runRow(table, id, minute, process.pid, 'completed'))
    expect((await lifecycle().list(3)).map((r) => r.id)).toEqual(['c', 'a', 'b'])
  })
})
