import type { StoreHealthStatus } from '../../../src-shared/schemas/store-health'
import type { StoreHealth } from '../../db/store-faults'

/**
 * What the store's health (db/store-faults.ts, filled by the writer, the readers and the check on
 * open) tells the console: damage and the last refused write, or neither. Every signed-in caller
 * may ask: the banner is on every page, and a 503 or 507 says the same to anyone.
 */
export function createStoreHealthService(health: StoreHealth) {
  return {
    status(): StoreHealthStatus {
      return { damage: health.damage, writeFault: health.writeFault }
    },
  }
}

export type StoreHealthService = ReturnType<typeof createStoreHealthService>
