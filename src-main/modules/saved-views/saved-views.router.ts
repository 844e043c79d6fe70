import { savedViewIdParamsSchema, savedViewInputSchema, savedViewPatchSchema } from '../../../src-shared/schemas/saved-view'
import { z } from '../../../src-shared/schemas/zod'
import { procedure, router } from '../../kit/trpc'
import type { SavedViewsService } from './saved-views.service'

/** The explorer's saved views: the same service and schemas as `/views` on REST. */
export const savedViewsRouter = (views: SavedViewsService) =>
  router({
    list: procedure.query(({ ctx }) => views.list(ctx.principal)),
    get: procedure.input(savedViewIdParamsSchema).query(({ ctx, input }) => views.get(ctx.principal, input.id)),
    create: procedure.input(savedViewInputSchema).mutation(({ ctx, input }) => views.create(ctx.principal, input)),
    update: procedure
      .input(z.object({ id: savedViewIdParamsSchema.shape.id, patch: savedViewPatchSchema }))
      .mutation(({ ctx, input }) => views.update(ctx.principal, input.id, input.patch)),
    remove: procedure.input(savedViewIdParamsSchema).mutation(async ({ ctx, input }) => {
      await views.remove(ctx.principal, input.id)
      return { id: input.id }
    }),
  })
