import type { Kysely } from 'kysely'
import { type LlmProviderDetails, llmProviderDetailsSchema } from '../../../src-shared/schemas/providers'
import type { Database } from '../../db/schema'
import { NotFoundError } from '../../kit/errors'
import { parsePulled, type PulledFrom } from '../../kit/pulled'
import { type Principal, sourceScope } from '../../kit/access'
import { findLlmProvider, llmCatalog } from './catalog'
import type { CredentialsService } from './credentials.service'
import { agentsUsingLlmProvider, latestPulledLlmProvider } from './llm-providers.repo'

/** A provider's details: this store's own, or a mirror's as a pull fetched them (the JSON text as stored). */
export type LlmProviderAnswer = { kind: 'computed'; details: LlmProviderDetails } | { kind: 'pulled'; json: string; pulled: PulledFrom }

/** The console's view: the same details, saying when they were pulled. */
export type LlmProviderView = LlmProviderDetails & { pulled: PulledFrom | null }

export function createLlmProvidersService(db: Kysely<Database>, credentials: CredentialsService) {
  /**
   * A language-model provider as the catalog describes it, whether a key is configured (masked),
   * and which agents use it. A tenant-scoped principal sees only its own tenant's agents. A mirror
   * (no key of its own for the provider, no agent of its own using it) answers with the details a
   * pull fetched, whole: the backend's models, key status and agents.
   */
  async function answer(principal: Principal, providerId: string): Promise<LlmProviderAnswer> {
    const provider = findLlmProvider(providerId)
    if (!provider) throw new NotFoundError('LLM provider')
    const source = sourceScope(principal)
    // Limited to one pulled backend: what it answered, if a pull asked it.
    if (source !== undefined && source !== '') {
      const pulled = principal.tenantId === null ? await latestPulledLlmProvider(db, provider.id, source) : undefined
      if (!pulled) throw new NotFoundError('LLM provider')
      return { kind: 'pulled', json: pulled.body, pulled: { source: pulled.source, fetchedAt: pulled.fetched_at } }
    }
    const [status, agents] = await Promise.all([
      credentials.status('llm', provider.id),
      agentsUsingLlmProvider(db, provider.id, principal.tenantId),
    ])
    if (source === undefined && !status.configured && agents.count === 0 && principal.tenantId === null) {
      const pulled = await latestPulledLlmProvider(db, provider.id)
      if (pulled) return { kind: 'pulled', json: pulled.body, pulled: { source: pulled.source, fetchedAt: pulled.fetched_at } }
    }
    return {
      kind: 'computed',
      details: {
        provider: provider.id,
        display_name: provider.display_name,
        description: provider.description,
        api_base_url: provider.api_base_url,
        docs_url: provider.docs_url,
        catalog_version: llmCatalog.catalog_version,
        models: provider.models.map((m) => ({
          id: m.id,
          display_name: m.display_name,
          context_window: m.context_window,
          max_output_tokens: m.max_output_tokens,
          supports_tools: m.supports_tools,
          supports_streaming: m.supports_streaming,
          supports_vision: m.supports_vision ?? false,
          input_price_per_mtok: m.input_price_per_mtok,
          output_price_per_mtok: m.output_price_per_mtok,
          released: m.released ?? null,
        })),
        credentials: status,
        agents,
      },
    }
  }

  return {
    answer,

    /** The console's view of answer(): pulled details it can draw only when they are in Callscope's shape. */
    async details(principal: Principal, providerId: string): Promise<LlmProviderView> {
      const a = await answer(principal, providerId)
      if (a.kind === 'computed') return { ...a.details, pulled: null }
      return { ...parsePulled(llmProviderDetailsSchema, a.json, a.pulled, 'details', `GET /admin/providers/llm/${providerId}`), pulled: a.pulled }
    },
  }
}

export type LlmProvidersService = ReturnType<typeof createLlmProvidersService>
