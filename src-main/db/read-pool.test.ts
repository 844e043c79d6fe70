import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql } from 'kysely'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { type DatabaseHandle, openDatabase } from './connection'
import { migrateToLatest } from './migrate'

let dir: string
let handle: DatabaseHandle

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'callscope-read-pool-'))
  handle = openDatabase({ path: join(dir, 'store.sqlite'), readers: 2 })
  await migrateToLatest(handle.db)
})

afterEach(async () => {
  await handle.close()
  rmSync(dir, { recursive: true, force: true })
})

const settingNames = (db = handle.db) => db.selectFrom('settings').select('key').orderBy('key').execute().then((rows) => rows.map((r) => r.key))

describe('the read pool behind kysely', () => {
  it('starts one reader thread per requested reader', () => {
    expect(handle.readPool?.threads).toBe(2)
  })

  it('keeps the event loop turning while a long SELECT runs', async () => {
    let turns = 0
    let running = true
    const turn = () => {
      if (!running) return
      turns++
      setImmediate(turn)
    }
    setImmediate(turn)
    // About 0.2–1 s of SQLite work on one thread.
    const counted = await sql<{ n: number }>`select count(*) as n from (with recursive c(i) as (select 1 union all select i + 1 from c where i < 3000000) select i from c)`.execute(handle.db)
    running = false
    expect(counted.rows[0]!.n).toBe(3_000_000)
    // On the main connection the query would block: not one turn before it resolves.
    expect(turns).toBeGreaterThan(10)
  })

  it('reads committed data on a reader, and a transaction reads its own writes on the writer', async () => {
    await handle.db.insertInto('settings').values({ key: 'committed', value: '1', updated_at: '2026-11-23T00:00:00.000Z' }).execute()
    expect(await settingNames()).toContain('committed')

    // A write left open on the main connection is invisible to readers until it commits.
    handle.sqlite.exec('begin')
    handle.sqlite.prepare("insert into settings (key, value, updated_at) values ('pending', '1', '2026-11-23T00:00:00.000Z')").run()
    expect(await settingNames()).not.toContain('pending')
    handle.sqlite.exec('commit')
    expect(await settingNames()).toContain('pending')

    const inside = await handle.db.transaction().execute(async (trx) => {
      await trx.insertInto('settings').values({ key: 'in-transaction', value: '1', updated_at: '2026-11-23T00:00:00.000Z' }).execute()
      return settingNames(trx)
    })
    expect(inside).toContain('in-transaction')
  })

  it('reports SQLite errors of a read as they are', async () => {
    await expect(sql`select * from no_such_table`.execute(handle.db)).rejects.toThrow(/no such table: no_such_table/)
    // The reader stays usable.
    expect(await settingNames()).toEqual([])
  })

  it('answers JSON reads on a reader with the bytes the calling thread would join', async () => {
    const values = [
      { key: 'plain', value: '{"a":[1,2,{"b":null}]}', updated_at: '2026-11-23T00:00:00.000Z' },
      { key: 'quote " backslash \\ tab \t line \n', value: '"text"', updated_at: '2026-11-23T00:00:01.000Z' },
      { key: 'multilingual 日本語 مرحبا 🎧 \u2028', value: '3.5', updated_at: '2026-11-23T00:00:02.000Z' },
    ]
    await handle.db.insertInto('settings').values(values).execute()
    const json = sql<Uint8Array>`cast(json_object('key', key, 'value', json(value)) as blob)`
    const query = handle.db.selectFrom('settings').select([json.as('json'), 'updated_at']).orderBy('updated_at')
    const pooled = await handle.json.bytes(query, { framing: 'lines', last: ['updated_at'] })
    const inline = openDatabase({ path: handle.path, readonly: true })
    try {
      const here = await inline.json.bytes(query, { framing: 'lines', last: ['updated_at'] })
      expect(inline.readPool).toBeNull()
      expect(Buffer.from(pooled.bytes).equals(Buffer.from(here.bytes))).toBe(true)
    } finally {
      await inline.close()
    }
    const lines = new TextDecoder().decode(pooled.bytes).split('\n')
    expect(lines.pop()).toBe('')
    expect(lines.map((line) => JSON.parse(line))).toEqual(values.map((v) => ({ key: v.key, value: JSON.parse(v.value) })))
    expect(pooled).toMatchObject({ rows: 3, last: { updated_at: '2026-11-23T00:00:02.000Z' } })

    const array = await handle.json.bytes(query, { framing: 'array' })
    expect(JSON.parse(new TextDecoder().decode(array.bytes))).toEqual(lines.map((line) => JSON.parse(line)))
    const none = await handle.json.bytes(query.where('key', '=', 'none'), { framing: 'array' })
    expect(new TextDecoder().decode(none.bytes)).toBe('[]')
    expect(none).toMatchObject({ rows: 0, last: null })
  })

  it('stops its threads when the store closes', async () => {
    const pool = handle.readPool!
    await handle.close()
    await expect(pool.read('select 1', [])).rejects.toThrow()
  })
})
