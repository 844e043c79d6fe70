import { pulledDocumentsQuerySchema, pullRequestSchema, syncRequestSchema } from '../../../src-shared/schemas/pull'
import { z } from '../../../src-shared/schemas/zod'
import { adminProcedure, router } from '../../kit/trpc'
import type { PullSyncsService } from './pull-syncs.service'
import type { PullsService } from './pulls.service'

const byId = z.object({ id: z.uuid() })

/** Pulls from the console: started in the background, followed through list/get. Admin only: a pull writes the store. */
export const pullsRouter = (pulls: PullsService, syncs: PullSyncsService) =>
  router({
    start: adminProcedure.input(pullRequestSchema).mutation(({ input }) => pulls.start(input)),
    cancel: adminProcedure.input(byId).mutation(({ input }) => pulls.cancel(input.id)),
    list: adminProcedure.input(z.object({ limit: z.number().int().min(1).max(200).default(20) }).optional()).query(({ input }) => pulls.list(input?.limit)),
    get: adminProcedure.input(byId).query(({ input }) => pulls.get(input.id)),
    /** What a source's pulls kept as JSON (sessions, squad analytics, SIP trunks), a page at a time. */
    documents: adminProcedure.input(pulledDocumentsQuerySchema).query(({ input }) => pulls.documentsPage(input)),
    /** "Keep in sync": a source pulled again every interval until switched off; the token stays in this process's memory only. */
    syncStart: adminProcedure.input(syncRequestSchema).mutation(({ input: { intervalSeconds, ...pull } }) => syncs.start({ ...pull, intervalMs: intervalSeconds * 1000 })),
    syncStop: adminProcedure.input(z.object({ source: z.string().min(1).max(2000) })).mutation(({ input }) => syncs.stop(input.source)),
    /** Every source kept in sync, now or before, with its state and last sync. */
    syncs: adminProcedure.query(() => syncs.list()),
  })
