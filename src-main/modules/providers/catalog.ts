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
