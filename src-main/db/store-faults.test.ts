import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { StoreFullError } from '../../src-shared/store-faults'
import { canMountSmallDisk, smallDisk } from '../../test/helpers/small-disk'
import { createStoreHealth, freeBytesBeside } from './store-faults'

/** A refused write as the writer names it: the room on the disk read at that moment. */
const refused = (storePath: string) => new StoreFullError('Writing to the store failed: the disk holding the store is full', { storePath, freeBytes: freeBytesBeside(storePath) })

describe.skipIf(!canMountSmallDisk)("the store's health on a disk that fills", () => {
  const disk = canMountSmallDisk ? smallDisk(8 * 1024 * 1024) : (null as never)
  const store = () => join(disk.dir, 'store.sqlite')

  it('keeps saying the disk is full while small writes still get through, until room is made', () => {
    disk.clear()
    disk.fill(64 * 1024)
    const health = createStoreHealth(store())
    health.note(refused(store()))
    expect(health.writeFault?.kind).toBe('full')
    // A write into the WAL's free frames: the disk is as full as it was.
    health.writeSucceeded()
    expect(health.writeFault?.message).toContain('the disk holding the store is full')
    disk.makeRoom()
    // Room made ends the fault at once, with no write needed.
    expect(health.writeFault).toBeNull()
  })
})

describe("the store's health where the disk's room cannot be read", () => {
  it('ends the fault on the next write that gets through (PostgreSQL)', () => {
    const health = createStoreHealth('postgres://callscope@127.0.0.1:5432/team')
    health.note(new StoreFullError('The import failed: the disk holding the store is full', { storePath: 'postgres://callscope@127.0.0.1:5432/team', freeBytes: null }))
    expect(health.writeFault?.kind).toBe('full')
    health.writeSucceeded()
    expect(health.writeFault).toBeNull()
  })
})
