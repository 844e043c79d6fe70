import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { migratedDb } from '../../../test/helpers/migrated-db'
import { IDS, insert, insertParents, rows } from '../../../test/helpers/rows'
import type { DatabaseHandle } from '../../db/connection'
import type { Principal } from '../../kit/access'
import { NotFoundError } from '../../kit/errors'
import { createSessionsService } from './sessions.service'

let handle: DatabaseHandle
const admin: Principal = { role: 'admin', tenantId: null, tokenId: null }
const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes)

beforeEach(async () => {
  handle = await migratedDb()
  insertParents(handle)
})
afterEach(async () => handle.close())

describe('sessions service', () => {
  it('cuts a preview by characters, never inside a character that takes two UTF-16 units', async () => {
    const emoji = '🎧'.repeat(130)
    const arabic = 'مرحبا '.repeat(30)
    insert(handle, 'messages', rows.message({ id: 'm1', position: 0, content: arabic }))
    insert(handle, 'messages', rows.message({ id: 'm2', position: 1, content: emoji }))
    insert(handle, 'messages', rows.message({ id: 'm3', position: 2, content: '' }))
    const service = createSessionsService(handle.db, handle.json)
    const page = await service.listForAgent(admin, IDS.agent, { limit: 10, offset: 0 })
    expect(page).toEqual({
      sessions: [{ conversation_id: IDS.conversation, created_at: rows.conversation().created_at, updated_at: rows.conversation().updated_at, message_count: 3, last_message_preview: `${'🎧'.repeat(119)}…` }],
      total: 1,
      limit: 10,
      offset: 0,
    })
    // The REST body is the same JSON, fields in the spec's order.
    const text = decode(await service.listForAgentJson(admin, IDS.agent, { limit: 10, offset: 0 }))
    expect(JSON.parse(text)).toEqual(page)
    expect(text.startsWith('{"sessions":[{"conversation_id":')).toBe(true)
    expect(text.endsWith(',"total":1,"limit":10,"offset":0}')).toBe(true)
  })

  it('answers an empty page past the end, and Not Found for an unknown agent or another tenant\'s', async () => {
    const service = createSessionsService(handle.db, handle.json)
    expect(await service.listForAgent(admin, IDS.agent, { limit: 5, offset: 5 })).toEqual({ sessions: [], total: 1, limit: 5, offset: 5 })
    await expect(service.listForAgent(admin, '99999999-9999-4999-8999-999999999999', { limit: 5, offset: 0 })).rejects.toThrow(NotFoundError)
    const other: Principal = { role: 'tenant', tenantId: IDS.otherTenant, tokenId: 'k' }
    await expect(service.listForAgentJson(other, IDS.agent, { limit: 5, offset: 0 })).rejects.toThrow(NotFoundError)
  })
})
