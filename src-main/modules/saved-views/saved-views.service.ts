import { randomUUID } from 'node:crypto'
import type { Kysely } from 'kysely'
import type { SavedViewState } from '../../../src-shared/explorer-state'
import {
  SAVED_VIEWS_MAX,
  type SavedView,
  type SavedViewInput,
  type SavedViewPatch,
  savedViewNameKey,
} from '../../../src-shared/schemas/saved-view'
import type { Database, SavedViewRow } from '../../db/schema'
import { assertAdmin, assertNotTenantScoped, type Principal } from '../../kit/access'
import { restated } from '../../../src-shared/store-faults'
import { ConflictError, NotFoundError } from '../../kit/errors'
import * as repo from './saved-views.repo'

/*
 * Saved views of the log explorer (issue 17 pt 5). Store-wide, like the store's settings: admin
 * and viewer tokens read them; a tenant token is refused, since a view's name and query may name
 * other tenants. Saving, changing and deleting write the store: admin only, as every write is.
 * Inputs arrive checked by the shared schemas (src-shared/schemas/saved-view.ts); the service
 * checks what depends on the store: a name's uniqueness and the number of views.
 */

const toView = (row: SavedViewRow): SavedView => ({
  id: row.id,
  name: row.name,
  description: row.description,
  state: JSON.parse(row.state) as SavedViewState,
  created_at: row.created_at,
  updated_at: row.updated_at,
})

/** A state as stored: its fields in the schema's order, absent ones left out. */
const stateText = (state: SavedViewState) => JSON.stringify(state)

export interface SavedViewsServiceOptions {
  /** The clock (epoch ms) of created_at / updated_at. */
  now?: () => number
}

export function createSavedViewsService(db: Kysely<Database>, options: SavedViewsServiceOptions = {}) {
  const isoNow = () => new Date((options.now ?? Date.now)()).toISOString()
  const canRead = (principal: Principal) => assertNotTenantScoped(principal, 'saved views')

  /** Refuses a name another view has, in any case; `self` is the view being renamed. */
  function checkName(views: Array<Pick<SavedViewRow, 'id' | 'name'>>, name: string, self: string | null): void {
    const key = savedViewNameKey(name)
    const clash = views.find((v) => v.id !== self && savedViewNameKey(v.name) === key)
    if (clash) throw new ConflictError(`A view named "${clash.name}" already exists: choose another name, or update that view`)
  }

  async function get(principal: Principal, id: string): Promise<SavedView> {
    canRead(principal)
    const row = await repo.findView(db, id)
    if (!row) throw new NotFoundError('View')
    return toView(row)
  }

  async function create(principal: Principal, input: SavedViewInput): Promise<SavedView> {
    assertAdmin(principal)
    const at = isoNow()
    const row: SavedViewRow = { id: randomUUID(), name: input.name, description: input.description ?? null, state: stateText(input.state), created_at: at, updated_at: at }
    // One transaction: the names read are the names the insert lands among.
    await db
      .transaction()
      .execute(async (trx) => {
        const views = await repo.viewNames(trx)
        if (views.length >= SAVED_VIEWS_MAX) throw new ConflictError(`The store holds ${SAVED_VIEWS_MAX} saved views, the most it keeps: delete one first`)
        checkName(views, input.name, null)
        await repo.insertView(trx, row)
      })
      .catch((error: unknown) => {
        throw restated(error, 'Saving the view')
      })
    return toView(row)
  }

  /** Changes what the patch gives (PATCH), or everything (PUT: a description left out becomes none). */
  async function update(principal: Principal, id: string, patch: SavedViewPatch): Promise<SavedView> {
    assertAdmin(principal)
    const fields: Partial<SavedViewRow> = { updated_at: isoNow() }
    if (patch.name !== undefined) fields.name = patch.name
    if (patch.description !== undefined) fields.description = patch.description
    if (patch.state !== undefined) fields.state = stateText(patch.state)
    return db
      .transaction()
      .execute(async (trx) => {
        const current = await repo.findView(trx, id)
        if (!current) throw new NotFoundError('View')
        if (patch.name !== undefined) checkName(await repo.viewNames(trx), patch.name, id)
        await repo.updateView(trx, id, fields)
        return toView({ ...current, ...fields })
      })
      .catch((error: unknown) => {
        throw restated(error, 'Changing the view')
      })
  }

  return {
    async list(principal: Principal): Promise<SavedView[]> {
      canRead(principal)
      return (await repo.listViews(db)).map(toView)
    },
    get,
    create,
    update,
    replace: (principal: Principal, id: string, input: SavedViewInput) => update(principal, id, { ...input, description: input.description ?? null }),
    async remove(principal: Principal, id: string): Promise<void> {
      assertAdmin(principal)
      // Deleting writes too: the WAL takes the change before the page is freed.
      const deleted = await repo.deleteView(db, id).catch((error: unknown) => {
        throw restated(error, 'Deleting the view')
      })
      if (deleted === 0) throw new NotFoundError('View')
    },
  }
}

export type SavedViewsService = ReturnType<typeof createSavedViewsService>
