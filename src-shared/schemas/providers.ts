import { PROVIDER_KINDS } from '../constants'
import { z } from './zod'
import { booleanParam } from './params'

/**
 * Shapes of the provider administration operations (`/admin/providers/*`). Decisions on what the
 * spec leaves open are recorded in docs/api.md, "Providers".
 */

// ---------------------------------------------------------------------------------------------
// Credentials (never the key itself: only a masked hint and where the key comes from)

export const CREDENTIAL_SOURCES = ['stored', 'environment'] as const
export type CredentialSource = (typeof CREDENTIAL_SOURCES)[number]

export const credentialStatusSchema = z
  .object({
    configured: z.boolean().openapi({ description: 'Whether an API key is available for this provider' }),
    source: z
      .enum(CREDENTIAL_SOURCES)
      .nullable()
      .openapi({ description: 'Where the key comes from: stored in Callscope (encrypted) or an environment variable' }),
    key_hint: z
      .string()
      .nullable()
      .openapi({ description: 'Masked key, at most the first 3 and last 4 characters (`sk-…a1b2`)', example: 'sk-…a1b2' }),
    env_var: z.string().openapi({ description: 'Environment variable read when no key is stored', example: 'OPENAI_API_KEY' }),
    base_url: z
      .string()
      .nullable()
      .openapi({ description: 'Base URL override in effect (stored with the key, or CALLSCOPE_<KIND>_<PROVIDER>_BASE_URL); null for the catalog URL' }),
  })
  .openapi('ProviderCredentialStatus')

/** A stored credential as listings show it. */
export const credentialSummarySchema = z.object({
  kind: z.enum(PROVIDER_KINDS),
  provider: z.string(),
  source: z.enum(CREDENTIAL_SOURCES),
  key_hint: z.string(),
  base_url: z.string().nullable(),
  env_var: z.string().nullable(),
  updated_at: z.string().nullable(),
})

// ---------------------------------------------------------------------------------------------
// GET /admin/providers/llm/{provider}

export const llmModelDetailsSchema = z
  .object({
    id: z.string(),
    display_name: z.string(),
    context_window: z.number().int().openapi({ description: 'Tokens' }),
    max_output_tokens: z.number().int().openapi({ description: 'Tokens' }),
    supports_tools: z.boolean().openapi({ description: 'Tool (function) calling' }),
    supports_streaming: z.boolean(),
    supports_vision: z.boolean().openapi({ description: 'Image input' }),
    input_price_per_mtok: z.number().openapi({ description: 'USD per million input tokens (indicative list price)' }),
    output_price_per_mtok: z.number().openapi({ description: 'USD per million output tokens (indicative list price)' }),
    released: z.string().nullable().openapi({ description: 'Release date, YYYY-MM-DD, when known' }),
  })
  .openapi('LlmModelDetails')

export const providerAgentsSchema = z
  .object({
    count: z.number().int().openapi({ description: 'Agents whose language model comes from this provider' }),
    ids: z.array(z.string()).openapi({ description: 'Their ids, sorted; at most 1000 (count is always the full number)' }),
  })
  .openapi('ProviderAgents')

export const llmProviderDetailsSchema = z
  .object({
    provider: z.string().openapi({ example: 'openai' }),
    display_name: z.string(),
    description: z.string(),
    api_base_url: z.string(),
    docs_url: z.string(),
    catalog_version: z.string().openapi({ description: 'Version (date) of the shipped provider catalog' }),
    models: z.array(llmModelDetailsSchema),
    credentials: credentialStatusSchema,
    agents: providerAgentsSchema,
  })
  .openapi('LlmProviderDetails')

// ---------------------------------------------------------------------------------------------
// POST /admin/providers/validate/stt

/** Generous bound on each field: beyond it no catalog id can match, and the echo stays small. */
export const STT_FIELD_MAX_LENGTH = 255

const field = (description: string) => z.string().max(STT_FIELD_MAX_LENGTH).openapi({ description })

/**
 * The request as the spec names it. `provider` and `model` are required; `provider_type` defaults
 * to "stt"; `voice_id` is accepted and ignored (it means nothing to speech-to-text). Unknown fields
 * are ignored, as pydantic does by default.
 */
export const sttValidationRequestSchema = z
  .object({
    provider: field('STT provider id from the catalog, e.g. `deepgram`').openapi({ example: 'deepgram' }),
    provider_type: field('Kind of provider; must be `stt` for this operation').default('stt').openapi({ example: 'stt' }),
    voice_id: field('Accepted for compatibility and ignored: speech-to-text has no voice').nullable().optional(),
    model: field('Model id from the provider\'s catalog entry, e.g. `nova-3`').openapi({ example: 'nova-3' }),
  })
  .openapi('SttValidationRequest')

export const sttValidationQuerySchema = z.object({
  online: booleanParam(
    "Also ask the provider whether it accepts the key (one cheap authenticated request). Default false, or true when the server runs with CALLSCOPE_ONLINE_CHECKS=1.",
  ),
})

export const STT_CHECK_NAMES = [
  'provider_known',
  'provider_type_is_stt',
  'model_available',
  'api_key_present',
  'api_key_well_formed',
  'api_key_accepted',
] as const
export type SttCheckName = (typeof STT_CHECK_NAMES)[number]

/**
 * `pass` and `fail` are verdicts; `skipped` means the check was not run (offline, or an earlier
 * check it depends on failed); `unverified` means it ran but could not reach a verdict (network
 * error, timeout, unexpected answer).
 */
export const CHECK_STATUSES = ['pass', 'fail', 'skipped', 'unverified'] as const
export type CheckStatus = (typeof CHECK_STATUSES)[number]

export const sttValidationCheckSchema = z
  .object({
    name: z.enum(STT_CHECK_NAMES),
    status: z.enum(CHECK_STATUSES),
    reason: z.string(),
    latency_ms: z.number().int().optional().openapi({ description: "The provider's answer time (api_key_accepted only)" }),
  })
  .openapi('SttValidationCheck')

export const sttModelInfoSchema = z
  .object({
    id: z.string(),
    display_name: z.string(),
    streaming: z.boolean(),
    batch: z.boolean(),
    languages: z.array(z.string()),
    price_per_minute_usd: z.number().nullable().openapi({ description: 'Indicative list price' }),
  })
  .openapi('SttModelInfo')

export const sttValidationResultSchema = z
  .object({
    valid: z.boolean().openapi({
      description: 'True only when every check passed, including the provider accepting the key (so never in offline mode)',
    }),
    verified: z.boolean().openapi({ description: 'Whether the provider itself was asked and accepted the key' }),
    provider: z.string(),
    provider_type: z.string(),
    model: z.string(),
    mode: z.enum(['offline', 'online']),
    latency_ms: z.number().int().openapi({ description: 'Time the whole validation took' }),
    checks: z.array(sttValidationCheckSchema),
    suggestions: z
      .array(z.string())
      .optional()
      .openapi({ description: 'Close matches for an unknown provider or an unavailable model, best first' }),
    model_info: sttModelInfoSchema.optional(),
  })
  .openapi('SttValidationResult')

export type CredentialStatus = z.infer<typeof credentialStatusSchema>
export type CredentialSummary = z.infer<typeof credentialSummarySchema>
export type LlmModelDetails = z.infer<typeof llmModelDetailsSchema>
export type LlmProviderDetails = z.infer<typeof llmProviderDetailsSchema>
export type SttValidationRequest = z.input<typeof sttValidationRequestSchema>
export type SttValidationCheck = z.infer<typeof sttValidationCheckSchema>
export type SttModelInfo = z.infer<typeof sttModelInfoSchema>
export type SttValidationResult = z.infer<typeof sttValidationResultSchema>
