import { sttValidationRequestSchema } from '../../../src-shared/schemas/providers'
import { z } from '../../../src-shared/schemas/zod'
import { adminProcedure, router } from '../../kit/trpc'
import { catalogSummary } from './catalog'
import { llmProviderParam } from './llm-provider-param'
import type { ProvidersService } from './providers.service'

export const providersRouter = (providers: ProvidersService) =>
  router({
    /** LLM and STT provider ids, names and model ids from the shipped catalogs (admin, as the rest of /admin/providers). */
    catalog: adminProcedure.query(() => catalogSummary()),
    llmDetails: adminProcedure
      .input(z.object({ provider: llmProviderParam }))
      .query(({ ctx, input }) => providers.llmDetails(ctx.principal, input.provider)),
    /** The REST body, plus `online` (the REST query parameter). */
    validateStt: adminProcedure
      .input(sttValidationRequestSchema.extend({ online: z.boolean().optional() }))
      .mutation(({ ctx, input }) => {
        const { online, ...request } = input
        return providers.validateStt(ctx.principal, request, { online })
      }),
  })
