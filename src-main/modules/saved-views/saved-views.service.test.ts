import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { migratedDb } from '../../../test/helpers/migrated-db'
import { savedViewInputSchema, savedViewPatchSchema, SAVED_VIEWS_MAX } from '../../../src-shared/schemas/saved-view'
import type { DatabaseHandle } from '../../db/connection'
import { OWNER, type Principal } from '../../kit/access'
import { ConflictError, ForbiddenError, NotFoundError } from '../../kit/errors'
import { createSavedViewsService } from './saved-views.service'

const VIEWER: Principal = { role: 'viewer', tenantId: null, tokenId: 'v' }
const TENANT: Principal = { role: 'tenant', tenantId: '10000000-0000-4000-8000-000000000001', tokenId: 't' }
const MISSING = '00000000-0000-4000-8000-00000000dead'

let handle: DatabaseHandle
let clock: number
beforeEach(async () => {
  handle = await migratedDb()
  clock = Date.parse('2026-11-24T10:00:00.000Z')
})
afterEach(() => handle.close())

const service = () => createSavedViewsService(handle.db, { now: () => clock })
/** What the transports hand the service: input read by the shared schema. */
const input = (body: unknown) => savedViewInputSchema.parse(body)
const patch = (body: unknown) => savedViewPatchSchema.parse(body)
const stored = () => handle.sqlite.prepare('select id, name, description, state, created_at, updated_at from saved_views order by name').all()

describe('saved views service', () => {
  it('saves, lists by name ignoring case, gets, patches, replaces and deletes', async () => {
    const views = service()
    const timeouts = await views.create(OWNER, input({ name: '  timeouts today ', description: 'Rising since 9:00', state: { query: 'imeout level:error', from: 'now-24h', cols: ['time', 'message', 'details.provider'], facet: 'provider', tz: 'europe/paris' } }))
    expect(timeouts).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: 'timeouts today',
      description: 'Rising since 9:00',
      state: { query: 'imeout level:error', from: 'now-24h', cols: ['time', 'message', 'details.provider'], facet: 'provider', tz: 'Europe/Paris' },
      created_at: '2026-11-24T10:00:00.000Z',
      updated_at: '2026-11-24T10:00:00.000Z',
    })
    const acme = await views.create(OWNER, input({ name: 'Acme errors', state: { level: ['error', 'critical'] } }))
    expect(acme.description).toBeNull()
    expect((await views.list(OWNER)).map((v) => v.name)).toEqual(['Acme errors', 'timeouts today'])
    expect(await views.get(VIEWER, timeouts.id)).toEqual(timeouts)

    clock += 60_000
    const renamed = await views.update(OWNER, timeouts.id, patch({ name: 'Timeouts' }))
    expect(renamed).toEqual({ ...timeouts, name: 'Timeouts', updated_at: '2026-11-24T10:01:00.000Z' })
    const restated = await views.update(OWNER, timeouts.id, patch({ state: { query: 'imeout', live: true }, description: '' }))
    expect(restated).toMatchObject({ name: 'Timeouts', description: null, state: { query: 'imeout', live: true } })
    expect(await views.get(OWNER, timeouts.id)).toEqual(restated)

    const replaced = await views.replace(OWNER, acme.id, input({ name: 'Acme', state: {} }))
    expect(replaced).toMatchObject({ name: 'Acme', description: null, state: {}, created_at: acme.created_at })
    await views.remove(OWNER, acme.id)
    expect((await views.list(VIEWER)).map((v) => v.id)).toEqual([timeouts.id])
    expect(stored()).toEqual([{ ...restated, state: JSON.stringify(restated.state) }])
  })

  it('keeps names unique whatever their case, in every script, and lets a view change its own case', async () => {
    const views = service()
    const first = await views.create(OWNER, input({ name: 'Ärger im Büro', state: {} }))
    const other = await views.create(OWNER, input({ name: 'Other', state: {} }))
    const before = stored()
    for (const name of ['ärger im büro', 'ÄRGER IM BÜRO', ' Ärger im Büro  ', 'A\u0308rger im Büro']) {
      await expect(views.create(OWNER, input({ name, state: {} }))).rejects.toThrow(new ConflictError('A view named "Ärger im Büro" already exists: choose another name, or update that view'))
      await expect(views.update(OWNER, other.id, patch({ name }))).rejects.toBeInstanceOf(ConflictError)
    }
    expect(stored()).toEqual(before)
    expect((await views.update(OWNER, first.id, patch({ name: 'ÄRGER im Büro' }))).name).toBe('ÄRGER im Büro')
  })

  it('answers not found for a view that is not there, and changes nothing', async () => {
    const views = service()
    await views.create(OWNER, input({ name: 'Kept', state: {} }))
    const before = stored()
    await expect(views.get(OWNER, MISSING)).rejects.toThrow(new NotFoundError('View'))
    await expect(views.update(OWNER, MISSING, patch({ name: 'x' }))).rejects.toBeInstanceOf(NotFoundError)
    await expect(views.replace(OWNER, MISSING, input({ name: 'x', state: {} }))).rejects.toBeInstanceOf(NotFoundError)
    await expect(views.remove(OWNER, MISSING)).rejects.toBeInstanceOf(NotFoundError)
    expect(stored()).toEqual(before)
  })

  it('lets viewers read and only admins write; tenant tokens see none', async () => {
    const views = service()
    const view = await views.create(OWNER, input({ name: 'Shared', state: { query: 'tenant:"Acme"' } }))
    expect((await views.list(VIEWER)).length).toBe(1)
    await expect(views.create(VIEWER, input({ name: 'Mine', state: {} }))).rejects.toBeInstanceOf(ForbiddenError)
    await expect(views.update(VIEWER, view.id, patch({ name: 'Mine' }))).rejects.toBeInstanceOf(ForbiddenError)
    await expect(views.remove(VIEWER, view.id)).rejects.toBeInstanceOf(ForbiddenError)
    await expect(views.list(TENANT)).rejects.toThrow('Not enough permissions: saved views need an admin or viewer token')
    await expect(views.get(TENANT, view.id)).rejects.toBeInstanceOf(ForbiddenError)
    expect((await views.get(OWNER, view.id)).name).toBe('Shared')
  })

  it(`keeps at most ${SAVED_VIEWS_MAX} views`, async () => {
    const insert = handle.sqlite.prepare(`insert into saved_views (id, name, state, created_at, updated_at) values (?, ?, '{}', 't', 't')`)
    handle.sqlite.transaction(() => {
      for (let i = 0; i < SAVED_VIEWS_MAX; i++) insert.run(`id-${i}`, `view ${i}`)
    })()
    await expect(service().create(OWNER, input({ name: 'One more', state: {} }))).rejects.toThrow(`The store holds ${SAVED_VIEWS_MAX} saved views, the most it keeps: delete one first`)
    expect(handle.sqlite.prepare('select count(*) from saved_views').pluck().get()).toBe(SAVED_VIEWS_MAX)
  })

  it('has the store refuse what the schemas refuse: empty or long names, non-object state, an ASCII case twin', () => {
    const insert = (name: string, state = '{}', description: string | null = null) =>
      handle.sqlite.prepare(`insert into saved_views (id, name, description, state, created_at, updated_at) values (lower(hex(randomblob(8))), ?, ?, ?, 't', 't')`).run(name, description, state)
    insert('Timeouts')
    expect(() => insert('')).toThrow(/CHECK constraint/)
    expect(() => insert('x'.repeat(101))).toThrow(/CHECK constraint/)
    expect(() => insert('ok', '[]')).toThrow(/CHECK constraint/)
    expect(() => insert('ok', '{')).toThrow(/CHECK constraint/)
    expect(() => insert('ok', '{}', '')).toThrow(/CHECK constraint/)
    expect(() => insert('TIMEOUTS')).toThrow(/UNIQUE constraint/)
  })
})
