import type { Kysely } from 'kysely'
import type { LlmProviderDetails } from '../../../src-shared/schemas/providers'
import type { Database } from '../../db/schema'
import { NotFoundError } from '../../kit/errors'
import type { Principal } from '../../kit/access'
import { findLlmProvider, llmCatalog } from './catalog'
import type { CredentialsService } from './credentials.service'
import { agentsUsingLlmProvider } from './llm-providers.repo'

export function createLlmProvidersService(db: Kysely<Database>, credentials: CredentialsService) {
  return {
    /**
     * A language-model provider as the catalog describes it, whether a key is configured (masked),
     * and which agents use it. A tenant-scoped principal sees only its own tenant's agents.
     */
    async details(principal: Principal, providerId: string): Promise<LlmProviderDetails> {
      const provider = findLlmProvider(providerId)
      if (!provider) throw new NotFoundError('LLM provider')
      const [status, agents] = await Promise.all([
        credentials.status('llm', provider.id),
        agentsUsingLlmProvider(db, provider.id, principal.tenantId),
      ])
      return {
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
      }
    },
  }
}

export type LlmProvidersService = ReturnType<typeof createLlmProvidersService>
