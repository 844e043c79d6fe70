import { z } from '../../../src-shared/schemas/zod'
import { adminProcedure, router } from '../../transport/trpc'

/** The console's import history; uploads go through POST /imports/call-logs (a file is a stream). */
export const importsRouter = router({
  list: adminProcedure.input(z.object({ limit: z.number().int().min(1).max(200).default(50) }).optional()).query(({ ctx, input }) => ctx.service.imports.list(input?.limit)),
  get: adminProcedure.input(z.object({ id: z.uuid() })).query(({ ctx, input }) => ctx.service.imports.get(input.id)),
})
