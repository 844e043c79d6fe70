import { z } from 'zod'

/** Shapes of the provider catalogs shipped in resources/providers/*.json. */

const auth = z.object({
  scheme: z.string(),
  header: z.string().optional(),
  prefix: z.string().optional(),
  /** For `query-key` auth (Google): the key travels as this query parameter instead of a header. */
  query_param: z.string().optional(),
  key_env: z.string(),
  key_pattern: z.string(),
})

export const llmModelSchema = z.object({
  id: z.string(),
  display_name: z.string(),
  context_window: z.number().int().positive(),
  max_output_tokens: z.number().int().positive(),
  supports_tools: z.boolean(),
  supports_streaming: z.boolean(),
  supports_vision: z.boolean().optional(),
  input_price_per_mtok: z.number().nonnegative(),
  output_price_per_mtok: z.number().nonnegative(),
  released: z.string().optional(),
})

/** What every catalog entry carries, LLM or STT. */
const providerFields = {
  id: z.string(),
  display_name: z.string(),
  description: z.string(),
  api_base_url: z.string(),
  docs_url: z.string(),
  auth,
}

export const llmProviderSchema = z.object({
  ...providerFields,
  models: z.array(llmModelSchema).min(1),
})

export const sttModelSchema = z.object({
  id: z.string(),
  display_name: z.string(),
  streaming: z.boolean(),
  batch: z.boolean(),
  languages: z.array(z.string()).min(1),
  price_per_minute_usd: z.number().nonnegative().optional(),
})

export const sttProviderSchema = z.object({
  ...providerFields,
  key_check: z.object({ method: z.string(), path: z.string(), description: z.string() }),
  models: z.array(sttModelSchema).min(1),
})

export const ttsProviderSchema = z.object({
  id: z.string(),
  display_name: z.string(),
  api_base_url: z.string(),
  models: z
    .array(
      z.object({
        id: z.string(),
        display_name: z.string(),
        languages: z.array(z.string()),
        voices: z.array(z.object({ id: z.string(), name: z.string(), language: z.string() })),
      }),
    )
    .min(1),
})

const catalog = <T extends z.ZodType>(provider: T) =>
  z.object({ catalog_version: z.string(), note: z.string().optional(), providers: z.array(provider).min(1) })

export const llmCatalogSchema = catalog(llmProviderSchema)
export const sttCatalogSchema = catalog(sttProviderSchema)
export const ttsCatalogSchema = catalog(ttsProviderSchema)

export type LlmProvider = z.infer<typeof llmProviderSchema>
export type LlmModel = z.infer<typeof llmModelSchema>
export type SttProvider = z.infer<typeof sttProviderSchema>
export type SttModel = z.infer<typeof sttModelSchema>
export type TtsProvider = z.infer<typeof ttsProviderSchema>
