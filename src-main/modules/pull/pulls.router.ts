import { pulledDocumentsQuerySchema, pullRequestSchema } from '../../../src-shared/schemas/pull'
import { z } from '../../../src-shared/schemas/zod'
import { adminProcedure, router } from '../../transport/trpc'

/** Pulls from the console: started in the background, followed through list/get. Admin only: a pull writes the store. */
export const pullsRouter = router({
  start: adminProcedure.input(pullRequestSchema).mutation(({ ctx, input }) => ctx.service.pulls.start(input)),
  cancel: adminProcedure.input(z.object({ id: z.uuid() })).mutation(({ ctx, input }) => ctx.service.pulls.cancel(input.id)),
  list: adminProcedure.input(z.object({ limit: z.number().int().min(1).max(200).default(20) }).optional()).query(({ ctx, input }) => ctx.service.pulls.list(input?.limit)),
  get: adminProcedure.input(z.object({ id: z.uuid() })).query(({ ctx, input }) => ctx.service.pulls.get(input.id)),
  /** What a source's pulls kept as JSON (sessions, squad analytics, SIP trunks), a page at a time. */
  documents: adminProcedure.input(pulledDocumentsQuerySchema).query(({ ctx, input }) => ctx.service.pulls.documentsPage(input)),
})
