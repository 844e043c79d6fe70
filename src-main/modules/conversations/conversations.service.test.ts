import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { migratedDb } from '../../../test/helpers/migrated-db'
import { IDS, insert, insertParents, rows } from '../../../test/helpers/rows'
import type { DatabaseHandle } from '../../db/connection'
import { NotFoundError } from '../../kit/errors'
import type { Principal } from '../../kit/access'
import { createConversationsService } from './conversations.service'

const ADMIN: Principal = { role: 'admin', tenantId: null, tokenId: null }
const TENANT: Principal = { role: 'tenant', tenantId: IDS.tenant, tokenId: 'k1' }
const OTHER: Principal = { role: 'tenant', tenantId: IDS.otherTenant, tokenId: 'k2' }

let handle: DatabaseHandle
let service: ReturnType<typeof createConversationsService>

beforeEach(async () => {
  handle = await migratedDb()
  service = createConversationsService(handle.db)
  insertParents(handle)
  insert(handle, 'tenants', rows.tenant({ id: IDS.otherTenant, name: 'Globex' }))
  // Inserted out of order on purpose: the transcript follows `position`, not insertion order.
  insert(handle, 'messages', rows.message({ id: 'm3', position: 3, role: 'tool', content: '', tool_name: 'lookup_order', tool_call_id: 'c1', tool_result: '{"status":"shipped"}', latency_ms: 420 }))
  insert(handle, 'messages', rows.message({ id: 'm0', position: 0, role: 'user', content: 'مرحبا، أين طلبي؟', language: 'ar' }))
  insert(handle, 'messages', rows.message({ id: 'm2', position: 2, role: 'assistant', content: 'لحظة من فضلك', language: 'ar', tool_name: 'lookup_order', tool_call_id: 'c1', tool_arguments: '{"order_id":"A-17"}' }))
  insert(handle, 'messages', rows.message({ id: 'm1', position: 1, role: 'assistant', content: 'أهلا', language: 'ar' }))
  insert(handle, 'calls', rows.call({ conversation_id: IDS.conversation, agent_id: IDS.agent }))
  insert(handle, 'transfers', rows.transfer())
  handle.sqlite.prepare('update conversations set language = ?, squad_id = ?, resolved = 1, wait_ms = 1500 where id = ?').run('ar', IDS.squad, IDS.conversation)
})
afterEach(() => handle.close())

describe('conversations.get', () => {
  it('returns the messages in position order with tool calls parsed', async () => {
    const c = await service.get(TENANT, IDS.conversation)
    expect(c.messages.map((m) => m.id)).toEqual(['m0', 'm1', 'm2', 'm3'])
    expect(c.messages[2]).toMatchObject({ tool_name: 'lookup_order', tool_arguments: { order_id: 'A-17' }, tool_result: null })
    expect(c.messages[3]).toMatchObject({ role: 'tool', tool_result: { status: 'shipped' }, latency_ms: 420 })
    expect(c.conversation).toMatchObject({ language: 'ar', resolved: true, wait_ms: 1500, agent_name: 'Aria', tenant_name: 'Acme', squad_name: 'Desk' })
    expect(c.calls.map((x) => x.id)).toEqual([IDS.call])
    expect(c.transfers).toHaveLength(1)
    expect(c.transfers[0]).toMatchObject({ from_agent_name: 'Aria', to_agent_name: 'Mateo', reason: 'language' })
  })

  it('is visible to an admin', async () => {
    expect((await service.get(ADMIN, IDS.conversation)).conversation.id).toBe(IDS.conversation)
  })

  it("hides another tenant's conversation and an unknown id as not found", async () => {
    await expect(service.get(OTHER, IDS.conversation)).rejects.toBeInstanceOf(NotFoundError)
    await expect(service.get(ADMIN, 'no-such-conversation')).rejects.toBeInstanceOf(NotFoundError)
  })
})
