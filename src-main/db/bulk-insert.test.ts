import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { migratedDb } from '../../test/helpers/migrated-db'
import { beginBulkLoad } from '../modules/call-logs/call-logs.write.repo'
import { withRollbackJournal } from './bulk-insert'
import type { DatabaseHandle } from './connection'

// temp_store: 1 = FILE, 2 = MEMORY (the connection's usual setting, see pragmas.ts).
const tempStore = (handle: DatabaseHandle) => Number(handle.sqlite.pragma('temp_store', { simple: true }))

let handle: DatabaseHandle
beforeEach(async () => {
  handle = await migratedDb()
})
afterEach(async () => handle.close())

describe('large loads sort on disk', () => {
  it('during a bulk load of call logs, and in memory again once it commits or aborts', () => {
    expect(tempStore(handle)).toBe(2)
    const load = beginBulkLoad(handle.sqlite)
    expect(tempStore(handle)).toBe(1)
    load.finish()
    expect(tempStore(handle)).toBe(2)
    const aborted = beginBulkLoad(handle.sqlite)
    expect(tempStore(handle)).toBe(1)
    aborted.abort()
    expect(tempStore(handle)).toBe(2)
  })

  it('during a load with a rollback journal, even one that throws', () => {
    expect(() =>
      withRollbackJournal(handle.sqlite, () => {
        expect(tempStore(handle)).toBe(1)
        throw new Error('load failed')
      }),
    ).toThrow('load failed')
    expect(tempStore(handle)).toBe(2)
  })
})
