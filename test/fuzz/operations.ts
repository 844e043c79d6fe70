/** What the fuzzer needs of one operation: where its inputs go and what they should look like. */

export type JsonSchema = {
  type?: string | string[]
  format?: string
  enum?: unknown[]
  minimum?: number
  maximum?: number
  maxLength?: number
  examples?: unknown[]
  properties?: Record<string, JsonSchema>
  required?: string[]
  $ref?: string
}

export interface Param {
  name: string
  in: 'path' | 'query'
  required: boolean
  schema: JsonSchema
}

export interface Operation {
  /** operationId, or `METHOD path` for the extensions outside the document. */
  id: string
  method: string
  /** Template with `{name}` placeholders. */
  path: string
  params: Param[]
  body: { kind: 'json'; schema: JsonSchema } | { kind: 'file' } | null
  authenticated: boolean
}

interface DocumentOperation {
  operationId?: string
  parameters?: Array<{ name: string; in: string; required?: boolean; schema?: JsonSchema }>
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> }
  security?: unknown[]
}

export interface OpenApiDocument {
  paths: Record<string, Record<string, DocumentOperation>>
  components?: { schemas?: Record<string, JsonSchema> }
}

/** Every operation of the served document, every path and method, with `$ref` bodies resolved. */
export function documentOperations(doc: OpenApiDocument): Operation[] {
  const operations: Operation[] = []
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      const schema = op.requestBody?.content?.['application/json']?.schema
      operations.push({
        id: op.operationId ?? `${method.toUpperCase()} ${path}`,
        method: method.toUpperCase(),
        path,
        params: (op.parameters ?? [])
          .filter((p) => p.in === 'path' || p.in === 'query')
          .map((p) => ({ name: p.name, in: p.in as Param['in'], required: p.required ?? false, schema: p.schema ?? {} })),
        body: schema ? { kind: 'json', schema: resolve(doc, schema) } : null,
        authenticated: (op.security ?? []).length > 0,
      })
    }
  }
  return operations
}

function resolve(doc: OpenApiDocument, schema: JsonSchema): JsonSchema {
  const name = schema.$ref?.replace('#/components/schemas/', '')
  return name ? (doc.components?.schemas?.[name] ?? {}) : schema
}

const text: JsonSchema = { type: 'string' }
const query = (name: string, schema: JsonSchema = text): Param => ({ name, in: 'query', required: false, schema })

/** The listing's filters, as the console's URL codec names them (src-shared/call-log-view.ts). */
const EXPORT_PARAMS: Param[] = [
  query('from', { type: 'string', examples: ['2026-11-19', '2026-11-19T10:00:00Z'] }),
  query('to', { type: 'string', examples: ['2026-11-19', '2026-11-19T11:00:00Z'] }),
  query('agent', { type: 'string', format: 'uuid' }),
  query('level', { type: 'string', enum: ['error', 'critical', 'warning,error', 'debug,info'] }),
  query('type', { type: 'string', enum: ['call', 'sip,stt', 'llm', 'webhook'] }),
  query('q', { type: 'string', examples: ['timeout', 'retry*', '"provider error"'] }),
  query('query', { type: 'string', examples: ['imeout OR "rate limit"', 'level:error -type:webhook @last 24h', 'details.latency_ms>2000', '(a OR'] }),
  query('call', { type: 'string', format: 'call-id' }),
  query('trace', { type: 'string', format: 'trace-id' }),
  query('session', { type: 'string', format: 'session-id' }),
]

const extension = (method: string, path: string, rest: Partial<Operation> = {}): Operation => ({
  id: `${method} ${path}`,
  method,
  path,
  params: [],
  body: null,
  authenticated: true,
  ...rest,
})

/** Callscope's routes outside the document (docs/api.md "Imports", "Headless console"). */
export const EXTENSION_OPERATIONS: Operation[] = [
  extension('POST', '/imports/call-logs', {
    params: [query('format', { type: 'string', enum: ['ndjson', 'json', 'csv'] }), query('file_name', { type: 'string', examples: ['logs.ndjson', 'logs.csv', 'a.json'] })],
    body: { kind: 'file' },
  }),
  extension('GET', '/export/call-logs.csv', { params: EXPORT_PARAMS }),
  extension('GET', '/export/call-logs.ndjson', { params: EXPORT_PARAMS }),
  extension('GET', '/healthz', { authenticated: false }),
  extension('GET', '/openapi.json', { authenticated: false }),
  extension('GET', '/docs', { authenticated: false }),
  extension('GET', '/docs/assets/{asset}', {
    authenticated: false,
    params: [{ name: 'asset', in: 'path', required: true, schema: { type: 'string', enum: ['swagger-ui.css', 'favicon-32x32.png'] } }],
  }),
  extension('GET', '/console/{page}', {
    authenticated: false,
    params: [{ name: 'page', in: 'path', required: true, schema: { type: 'string', enum: ['', 'index.html', 'favicon.svg', 'logs'] } }],
  }),
]
