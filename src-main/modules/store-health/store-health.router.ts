import { storeHealthSchema } from '../../../src-shared/schemas/store-health'
import { procedure, router } from '../../kit/trpc'
import type { StoreHealthService } from './store-health.service'

export const storeHealthRouter = (storeHealth: StoreHealthService) =>
  router({
    /** Damage and the last write the disk refused, for the banner on every page (issue 36). */
    status: procedure.output(storeHealthSchema).query(() => storeHealth.status()),
  })
