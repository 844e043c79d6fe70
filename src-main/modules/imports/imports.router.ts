import { z } from '../../../src-shared/schemas/zod'
import { adminProcedure, router } from '../../kit/trpc'
import type { ImportsService } from './imports.service'

/** The console's import history; uploads go through POST /imports/call-logs (a file is a stream). */
export const importsRouter = (imports: ImportsService) =>
  router({
    list: adminProcedure.input(z.object({ limit: z.number().int().min(1).max(200).default(50) }).optional()).query(({ input }) => imports.list(input?.limit)),
    get: adminProcedure.input(z.object({ id: z.uuid() })).query(({ input }) => imports.get(input.id)),
  })
