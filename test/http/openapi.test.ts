import { spawnSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { apiTypesSource } from '../helpers/api-types'
import { servedOpenApiDocument } from '../helpers/openapi-document'
import { tempDir } from '../helpers/temp-dir'

type Operation = { operationId: string; security?: unknown[]; parameters?: Array<{ name: string; in: string; schema: Record<string, unknown> }>; requestBody?: unknown; responses: Record<string, unknown> }
let doc: { openapi: string; info: { version: string }; paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, unknown>; securitySchemes: Record<string, unknown> } }

beforeAll(async () => {
  doc = (await servedOpenApiDocument()) as typeof doc
})

const OPERATIONS: Array<[string, string, string[]]> = [
  ['get', '/tenants/{tenant_id}', ['200', '401', '404', '422']],
  ['post', '/admin/providers/validate/stt', ['200', '401', '403', '422']],
  ['get', '/admin/providers/llm/{provider}', ['200', '401', '403', '422']],
  ['get', '/agents/{agent_id}/sessions', ['200', '401', '404', '422']],
  ['get', '/agents/{agent_id}/conversations', ['200', '401', '404', '422']],
  ['get', '/logs/calls', ['200', '401', '422']],
  ['get', '/squads/{squad_id}/analytics', ['200', '401', '404', '422']],
  ['get', '/agents/sip/list-trunks', ['200', '401']],
]

describe('GET /openapi.json', () => {
  it('is an OpenAPI 3.1.0 document of interface version 1.0.0 with the bearer scheme', () => {
    expect(doc.openapi).toBe('3.1.0')
    expect(doc.info.version).toBe('1.0.0')
    expect(doc.components.securitySchemes.HTTPBearer).toEqual(expect.objectContaining({ type: 'http', scheme: 'bearer' }))
  })

  it.each(OPERATIONS)('documents %s %s with its security and responses', (method, path, statuses) => {
    const operation = doc.paths[path]?.[method]
    expect(operation, `${method} ${path}`).toBeDefined()
    expect(operation!.security).toEqual([{ HTTPBearer: [] }])
    for (const status of statuses) expect(operation!.responses[status], `${method} ${path} ${status}`).toBeDefined()
    const validation = operation!.responses['422'] as { content?: Record<string, { schema: unknown }> } | undefined
    if (validation) expect(validation.content!['application/json']!.schema).toEqual({ $ref: '#/components/schemas/HTTPValidationError' })
  })

  it('describes the spec parameters with their limits and defaults', () => {
    const sessionParams = doc.paths['/agents/{agent_id}/sessions']!.get!.parameters!
    expect(sessionParams.find((p) => p.name === 'limit')!.schema).toMatchObject({ type: 'integer', minimum: 1, maximum: 100, default: 20 })
    expect(sessionParams.find((p) => p.name === 'offset')!.schema).toMatchObject({ type: 'integer', minimum: 0, default: 0 })
    const logParams = doc.paths['/logs/calls']!.get!.parameters!
    expect(logParams.filter((p) => p.name).map((p) => p.name).sort()).toEqual(['agent_id', 'end_date', 'limit', 'start_date'])
    expect(logParams.find((p) => p.name === 'limit')!.schema).toMatchObject({ type: 'integer', minimum: 1, maximum: 1000, default: 100 })
    expect(doc.paths['/admin/providers/validate/stt']!.post!.requestBody).toBeDefined()
  })

  it('lists `?source=` on every operation that takes a token, with the 422 and 403 it can answer, and not on the inbox', () => {
    const parameters = doc.components as unknown as { parameters: Record<string, { name: string; in: string; required: boolean }> }
    expect(parameters.parameters.Source).toMatchObject({ name: 'source', in: 'query', required: false })
    const withToken = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.entries(item).filter(([, operation]) => operation.security?.length).map(([method, operation]) => ({ at: `${method} ${path}`, operation })),
    )
    expect(withToken.length).toBeGreaterThan(OPERATIONS.length)
    for (const { at, operation } of withToken) {
      expect(operation.parameters, at).toContainEqual({ $ref: '#/components/parameters/Source' })
      expect(Object.keys(operation.responses), at).toEqual(expect.arrayContaining(['403', '422']))
    }
    expect(doc.paths['/agents/sip/list-trunks']!.get!.responses['422']).toBeDefined()
    expect(doc.paths['/webhooks/inbox/{tenant_id}']!.post!.parameters ?? []).not.toContainEqual({ $ref: '#/components/parameters/Source' })
  })

  it('carries the ValidationError and HTTPValidationError schemas of the spec', () => {
    expect(doc.components.schemas.ValidationError).toMatchObject({
      type: 'object',
      required: ['loc', 'msg', 'type'],
      properties: { loc: { type: 'array' }, msg: { type: 'string' }, type: { type: 'string' }, input: {}, ctx: { type: 'object' } },
    })
    expect(doc.components.schemas.HTTPValidationError).toMatchObject({
      type: 'object',
      properties: { detail: { type: 'array', items: { $ref: '#/components/schemas/ValidationError' } } },
    })
  })

  it('publishes the event catalog under OpenAPI 3.1 `webhooks`, one signed POST per kind', () => {
    const webhooks = (doc as unknown as { webhooks: Record<string, { post: { requestBody: { content: Record<string, { schema: unknown }> }; parameters: Array<{ name: string; in: string }> } }> }).webhooks
    expect(Object.keys(webhooks)).toEqual(['call.started', 'call.ended', 'call.failed', 'transfer.completed', 'session.ended', 'recording.ready'])
    expect(webhooks['call.ended']!.post.requestBody.content['application/json']!.schema).toEqual({ $ref: '#/components/schemas/CallEndedEvent' })
    expect(webhooks['call.ended']!.post.parameters.map((p) => `${p.in}:${p.name}`)).toEqual(['header:webhook-id', 'header:webhook-timestamp', 'header:webhook-signature'])
    const schemas = doc.components.schemas as Record<string, { properties: Record<string, unknown>; required: string[] }>
    expect(schemas.CallEndedEvent!.required).toEqual(['type', 'timestamp', 'data'])
    expect(schemas.CallEndedEvent!.properties.type).toEqual({ type: 'string', enum: ['call.ended'] })
    expect(schemas.CallEndedData!.required).toEqual(expect.arrayContaining(['call_id', 'tenant_id', 'ended_at', 'transcript']))
  })

  it('documents the inbox without a bearer token, and the other webhook operations with one', () => {
    expect(doc.paths['/webhooks/inbox/{tenant_id}']!.post!.security).toEqual([])
    expect(Object.keys(doc.paths['/webhooks/inbox/{tenant_id}']!.post!.responses).sort()).toEqual(['200', '401', '404', '409', '413', '422'])
    for (const [method, path] of [['post', '/tenants/{tenant_id}/webhook-deliveries'], ['get', '/webhook-deliveries/{delivery_id}'], ['post', '/tenants/{tenant_id}/webhook-secret']] as const) {
      expect(doc.paths[path]![method]!.security, path).toEqual([{ HTTPBearer: [] }])
    }
  })

  it('passes the Redocly linter without errors', () => {
    const file = join(tempDir(), 'openapi.json')
    writeFileSync(file, JSON.stringify(doc))
    const bin = join(import.meta.dirname, '../../node_modules/.bin/redocly')
    const result = spawnSync(bin, ['lint', file, '--config', join(import.meta.dirname, '../../redocly.yaml'), '--format', 'json'], {
      encoding: 'utf8',
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
      timeout: 60_000,
    })
    const report = JSON.parse(result.stdout.slice(result.stdout.indexOf('{'))) as { totals: { errors: number; warnings: number }; problems: Array<{ message: string; severity: string }> }
    expect(report.problems.filter((p) => p.severity === 'error')).toEqual([])
    expect(report.totals.errors).toBe(0)
    expect(result.status).toBe(0)
  })

  it('matches the committed client types (regenerate with `npm run generate:api-types`)', async () => {
    const committed = readFileSync(join(import.meta.dirname, '../generated/openapi.ts'), 'utf8')
    expect(await apiTypesSource(doc)).toBe(committed)
  })
})
