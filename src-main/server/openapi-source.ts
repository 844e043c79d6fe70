import type { ModuleApp } from '../kit/http/module-app'
import { SOURCE_HEADER } from '../../src-shared/schemas/sources'

/** The `?source=` parameter as /openapi.json lists it, once, under components (docs/api.md, "Sources"). */
export const SOURCE_PARAMETER = {
  name: 'source',
  in: 'query' as const,
  required: false,
  description:
    'Callscope extension: read only one source of this store, `local` or a pulled backend\'s base URL ' +
    `(scheme and trailing slash optional). An unknown source is a 422; a token bound to another source gets 403. ` +
    `The console sends the same value in the \`${SOURCE_HEADER}\` header.`,
  schema: { type: 'string' as const, minLength: 1, examples: ['local', 'http://staging.example.com:8000'] },
}

type OpenApiDocument = ReturnType<ModuleApp['getOpenAPI31Document']>

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const

/**
 * sourceParam (kit/http/source-param.ts) is one middleware over every route, so no route's zod
 * definition names `source`; this adds it to every operation that takes a bearer token (the
 * signature-checked inbox reads no source), with the 422 and 403 it can answer.
 */
export function withSourceParameter(doc: OpenApiDocument): OpenApiDocument {
  doc.components ??= {}
  doc.components.parameters = { ...doc.components.parameters, Source: { ...SOURCE_PARAMETER } }
  for (const item of Object.values(doc.paths ?? {})) {
    for (const method of METHODS) {
      const operation = item[method]
      if (!operation?.security?.length) continue
      operation.parameters = [...(operation.parameters ?? []), { $ref: '#/components/parameters/Source' }]
      operation.responses ??= {}
      operation.responses['422'] ??= {
        description: 'Validation Error',
        content: { 'application/json': { schema: { $ref: '#/components/schemas/HTTPValidationError' } } },
      }
      operation.responses['403'] ??= {
        description: 'The token is bound to another source',
        content: { 'application/json': { schema: { $ref: '#/components/schemas/HTTPError' } } },
      }
    }
  }
  return doc
}
