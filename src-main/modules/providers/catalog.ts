import llmJson from '../../../resources/providers/llm.json'
import sttJson from '../../../resources/providers/stt.json'
import ttsJson from '../../../resources/providers/tts.json'
import {
  llmCatalogSchema,
  sttCatalogSchema,
  ttsCatalogSchema,
} from '../../../src-shared/schemas/provider-catalog'

/**
 * The provider catalogs shipped as data. Parsed once at load so a bad edit to the JSON fails at
 * start-up with the offending path, not later inside a request.
 */
export const llmCatalog = llmCatalogSchema.parse(llmJson)
export const sttCatalog = sttCatalogSchema.parse(sttJson)
export const ttsCatalog = ttsCatalogSchema.parse(ttsJson)

export type ProviderKind = 'llm' | 'stt' | 'tts'

/** The LLM provider ids, in catalog order: the allowed values of `GET /admin/providers/llm/{provider}`. */
export const llmProviderIds = llmCatalog.providers.map((p) => p.id) as [string, ...string[]]

export const findLlmProvider = (id: string) => llmCatalog.providers.find((p) => p.id === id)
export const findSttProvider = (id: string) => sttCatalog.providers.find((p) => p.id === id)

/** Provider ids of one kind, in catalog order. */
export function providerIds(kind: ProviderKind): string[] {
  const catalog = kind === 'llm' ? llmCatalog : kind === 'stt' ? sttCatalog : ttsCatalog
  return catalog.providers.map((p) => p.id)
}

/** The environment variable a provider's key is read from; null when the catalog names none (TTS). */
export function keyEnvFor(kind: ProviderKind, id: string): string | null {
  if (kind === 'llm') return findLlmProvider(id)?.auth.key_env ?? null
  if (kind === 'stt') return findSttProvider(id)?.auth.key_env ?? null
  return null
}

/** What the console's pickers need from the catalogs: ids, names and model ids of the LLM and STT providers, in catalog order. */
export function catalogSummary() {
  const summarize = (providers: ReadonlyArray<{ id: string; display_name: string; models: ReadonlyArray<{ id: string; display_name: string }> }>) =>
    providers.map((p) => ({ id: p.id, display_name: p.display_name, models: p.models.map((m) => ({ id: m.id, display_name: m.display_name })) }))
  return { llm: summarize(llmCatalog.providers), stt: summarize(sttCatalog.providers) }
}
