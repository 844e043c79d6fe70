import { z } from '../../../src-shared/schemas/zod'
import { llmProviderIds } from './catalog'

/**
 * The `{provider}` path parameter: an enum of the catalog's LLM provider ids, so an unknown one is
 * pydantic's `enum` error ("Input should be 'openai', 'anthropic', ... or 'cerebras'").
 */
export const llmProviderParam = z
  .enum(llmProviderIds)
  .openapi({ param: { description: 'LLM provider id from the catalog' }, example: 'openai' })
