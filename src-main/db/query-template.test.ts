import { sql } from 'kysely'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { migratedDb } from '../../test/helpers/migrated-db'
import { IDS, insertParents } from '../../test/helpers/rows'
import type { DatabaseHandle } from './connection'
import { queryTemplate } from './query-template'

let handle: DatabaseHandle
beforeEach(async () => {
  handle = await migratedDb()
  insertParents(handle)
})
afterEach(async () => handle.close())

type P = { tenant: string; limit: number }

describe('a query template', () => {
  it('gives the SQL and parameters of the query built with the values, constants kept in place', () => {
    const build = (p: P) =>
      handle.db.selectFrom('agents').select(['id', sql<number>`${7}`.as('seven')]).where('tenant_id', '=', p.tenant).limit(p.limit)
    const template = queryTemplate(['tenant', 'limit'], build)
    for (const params of [{ tenant: IDS.tenant, limit: 5 }, { tenant: 'another', limit: 50 }]) {
      const direct = build(params).compile()
      const filled = template(params)
      expect(filled.sql).toBe(direct.sql)
      expect(filled.parameters).toEqual(direct.parameters)
    }
  })

  it('runs: the rows are those of the query built with the values', async () => {
    const build = (p: P) => handle.db.selectFrom('agents').select('id').where('tenant_id', '=', p.tenant).orderBy('id').limit(p.limit)
    const template = queryTemplate(['tenant', 'limit'], build)
    const expected = await build({ tenant: IDS.tenant, limit: 1 }).execute()
    expect(expected).toHaveLength(1)
    expect((await handle.db.executeQuery(template({ tenant: IDS.tenant, limit: 1 }))).rows).toEqual(expected)
    expect((await handle.db.executeQuery(template({ tenant: 'no such tenant', limit: 1 }))).rows).toEqual([])
  })

  it('refuses a parameter the query does not bind (its value would be lost)', () => {
    const template = queryTemplate(['tenant', 'limit'], (p: P) => handle.db.selectFrom('agents').select('id').where('tenant_id', '=', p.tenant))
    expect(() => template({ tenant: IDS.tenant, limit: 3 })).toThrow('limit not bound as a parameter')
  })
})
