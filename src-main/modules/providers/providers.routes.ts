import { createRoute } from '@hono/zod-openapi'
import {
  llmProviderDetailsSchema,
  sttValidationQuerySchema,
  sttValidationRequestSchema,
  sttValidationResultSchema,
} from '../../../src-shared/schemas/providers'
import { z } from '../../../src-shared/schemas/zod'
import { type Authenticate, requireAdmin, requireBearer } from '../../kit/http/auth'
import { createModuleApp, type ModuleApp } from '../../kit/http/module-app'
import { jsonBody } from '../../kit/http/json-body'
import { standardResponses } from '../../kit/http/responses'
import { pulledHeaders } from '../../kit/pulled'
import type { ProvidersService } from './providers.service'
import { llmProviderParam } from './llm-provider-param'

const getLlmProvider = createRoute({
  method: 'get',
  path: '/admin/providers/llm/{provider}',
  operationId: 'get_llm_provider_details',
  tags: ['Providers'],
  summary: 'Get LLM provider details',
  description:
    'A language-model provider from the shipped catalog: models with limits, capabilities and prices, whether a key is configured (masked, never the key), and which agents use it. Admin only. On a mirror (no key and no agent of its own for the provider), the details a pull fetched from the backend, as fetched (headers `Callscope-Pulled-From`, `Callscope-Pulled-At`).',
  security: [{ HTTPBearer: [] }],
  request: { params: z.object({ provider: llmProviderParam }) },
  responses: {
    200: { description: 'Successful Response', content: { 'application/json': { schema: llmProviderDetailsSchema } } },
    ...standardResponses({ forbidden: true }),
  },
})

const validateStt = createRoute({
  method: 'post',
  path: '/admin/providers/validate/stt',
  operationId: 'validate_stt_provider',
  tags: ['Providers'],
  summary: 'Validate STT provider',
  description:
    'Checks one speech-to-text configuration: provider and model known, key present and well formed and, with `online=true`, accepted by the provider. `valid` is true only when every check passes. Admin only.',
  security: [{ HTTPBearer: [] }],
  request: {
    query: sttValidationQuerySchema,
    body: { required: true, content: { 'application/json': { schema: sttValidationRequestSchema } } },
  },
  responses: {
    200: { description: 'Successful Response', content: { 'application/json': { schema: sttValidationResultSchema } } },
    ...standardResponses({ forbidden: true }),
  },
})

/** The `/admin/providers/*` operations: admin tokens only. */
export function providerRoutes(providers: ProvidersService, authenticate: Authenticate): ModuleApp {
  const app = createModuleApp()
  app.use('/admin/providers/llm/:provider', requireBearer(authenticate), requireAdmin)
  app.use('/admin/providers/validate/stt', requireBearer(authenticate), requireAdmin)
  // The body guards only for POST, so another method still gets its 405.
  for (const guard of jsonBody()) app.on('POST', '/admin/providers/validate/stt', guard)
  app.openapi(getLlmProvider, async (c) => {
    const answer = await providers.llmAnswer(c.get('principal'), c.req.valid('param').provider)
    if (answer.kind === 'computed') return c.json(answer.details, 200)
    // A mirror: the backend's details as pulled, saying where from and when.
    return c.body(answer.json, 200, pulledHeaders(answer.pulled)) as never
  })
  app.openapi(validateStt, async (c) =>
    c.json(await providers.validateStt(c.get('principal'), c.req.valid('json'), { online: c.req.valid('query').online }), 200),
  )
  return app
}
