import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { tempDir } from '../../test/helpers/temp-dir'
import { writerEntry } from '../writer/writer-entry'
import { seedJob } from '../modules/database/database.write-jobs'
import { type DatabaseHandle, openStore } from './connection'
import { migrateToLatest } from './migrate'

let handle: DatabaseHandle

beforeEach(async () => {
  handle = await openStore({ path: join(tempDir(), 'store.sqlite'), readers: 1, writerEntry: writerEntry() })
  await migrateToLatest(handle.db)
})
afterEach(() => handle.close())

const setting = (key: string, value: unknown) => handle.db.insertInto('settings').values({ key, value: JSON.stringify(value), updated_at: '2026-11-23T00:00:00.000Z' })
const keys = async () => (await handle.db.selectFrom('settings').select('key').orderBy('key').execute()).map((r) => r.key)

describe('the writer thread behind kysely', () => {
  it('commits a transaction whole, and rolls a failed one back whole', async () => {
    await setting('a', 1).execute()
    await handle.db.transaction().execute(async (trx) => {
      await trx.insertInto('settings').values({ key: 'b', value: '2', updated_at: 'x' }).execute()
    })
    await expect(
      handle.db.transaction().execute(async (trx) => {
        await trx.insertInto('settings').values({ key: 'c', value: '3', updated_at: 'x' }).execute()
        await trx.insertInto('settings').values({ key: 'a', value: '1', updated_at: 'x' }).execute()
      }),
    ).rejects.toMatchObject({ name: 'SqliteError', code: 'SQLITE_CONSTRAINT_PRIMARYKEY' })
    expect(await keys()).toEqual(['a', 'b'])
  })

  it('runs a write job only after the transaction under way has ended, never inside it', async () => {
    const order: string[] = []
    let letCommit!: () => void
    const held = new Promise<void>((resolve) => (letCommit = resolve))
    let begun!: () => void
    const inside = new Promise<void>((resolve) => (begun = resolve))
    const transaction = handle.db.transaction().execute(async (trx) => {
      await trx.insertInto('settings').values({ key: 'during', value: '1', updated_at: 'x' }).execute()
      begun()
      await held
      order.push('commit')
    })
    await inside
    const job = handle.writer.run(seedJob, { scale: 'small', seed: 2, anchor: Date.parse('2026-11-20T12:00:00Z') }).then((r) => {
      order.push('seed')
      return r
    })
    // The reader pool answers meanwhile: it sees neither the transaction nor the seed yet.
    expect(await keys()).toEqual([])
    letCommit()
    const [, seeded] = await Promise.all([transaction, job])
    expect(order).toEqual(['commit', 'seed'])
    expect(await keys()).toEqual(['during'])
    const { n } = await handle.db.selectFrom('call_logs').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()
    expect(Number(n)).toBe(seeded.callLogs)
  })

  it("passes a job's progress reports back while it runs", async () => {
    const reports: Array<{ logs: number; targetLogs: number }> = []
    await handle.writer.run(seedJob, { scale: 'small', seed: 2, anchor: Date.parse('2026-11-20T12:00:00Z') }, (p) => reports.push(p as (typeof reports)[number]))
    expect(reports.length).toBeGreaterThan(1)
    expect(reports.at(-1)!.logs).toBeGreaterThanOrEqual(reports.at(-1)!.targetLogs)
    expect(reports.map((r) => r.logs)).toEqual([...reports.map((r) => r.logs)].sort((a, b) => a - b))
  })

  it('refuses work once closed, with the reason', async () => {
    await handle.close()
    await expect(handle.writer.run(seedJob, { scale: 'small', seed: 2, anchor: 0 })).rejects.toThrow('The store is closed')
  })

  it('reports a store that cannot be opened instead of starting', async () => {
    const dir = tempDir()
    await expect(openStore({ path: dir, readers: 1, writerEntry: writerEntry() })).rejects.toThrow(/unable to open|directory/i)
  })
})
