import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { createService, type Service } from '../../src-main/service'
import { createAppRouter } from '../../src-main/server/app-router'
import { createHttpApp, type HttpApp } from '../../src-main/server/http-app'
import { createCallerFactory } from '../../src-main/kit/trpc'
import { closedPortUrl, type FakeProvider, startFakeProvider } from '../helpers/fake-provider'
import { IDS, insert, rows } from '../helpers/rows'

const ADMIN = 'test-token'
const GOOD = '0123456789abcdef0123456789abcdef01234567'
const BAD = 'fedcba9876543210fedcba9876543210fedcba98'
const OPENAI_KEY = 'sk-proj-SECRETSECRETSECRET0123456789wxyz'
const LLM_IDS = "'openai', 'anthropic', 'google', 'groq', 'azure_openai', 'mistral', 'deepseek' or 'cerebras'"

/** Everything written to the console or the standard streams while the tests run. */
const logged: string[] = []
const capture = (...args: unknown[]) => {
  logged.push(args.map((a) => (a instanceof Error ? `${a.message}\n${a.stack}` : typeof a === 'string' ? a : JSON.stringify(a))).join(' '))
}
/** Every response body the tests received. */
const bodies: string[] = []

let service: Service
let app: HttpApp
let fake: FakeProvider
let viewer: string

beforeAll(async () => {
  for (const method of ['log', 'info', 'warn', 'error', 'debug'] as const) vi.spyOn(console, method).mockImplementation(capture)
  for (const stream of [process.stdout, process.stderr]) {
    const write = stream.write.bind(stream)
    vi.spyOn(stream, 'write').mockImplementation(((chunk: unknown, ...rest: unknown[]) => {
      capture(String(chunk))
      return (write as (...a: unknown[]) => boolean)(chunk, ...rest)
    }) as typeof stream.write)
  }
  service = await createService({ dbPath: ':memory:', envToken: ADMIN, seedNewDatabase: false })
  app = createHttpApp({ service, version: 'test' })
  fake = await startFakeProvider(GOOD)
  viewer = (await service.tokens.create({ name: 'viewer', role: 'viewer' })).token
  insert(service.handle, 'tenants', rows.tenant())
  insert(service.handle, 'agents', rows.agent())
  insert(service.handle, 'agents', rows.agent({ id: IDS.agent2, name: 'Mateo', llm_provider: 'groq', llm_model: 'llama-3.3-70b-versatile' }))
})

afterEach(() => {
  vi.unstubAllEnvs()
})

afterAll(async () => {
  // The keys were used in requests, stored and checked, yet appear in no body and no log line.
  expect(bodies.length).toBeGreaterThan(40)
  for (const key of [GOOD, BAD, OPENAI_KEY]) {
    for (const body of bodies) expect(body).not.toContain(key)
    for (const line of logged) expect(line).not.toContain(key)
  }
  vi.restoreAllMocks()
  await fake.close()
  await service.close()
})

function stubProviderEnv(values: Record<string, string>) {
  for (const name of ['DEEPGRAM_API_KEY', 'OPENAI_API_KEY', 'CALLSCOPE_STT_DEEPGRAM_BASE_URL', 'CALLSCOPE_ONLINE_CHECKS', 'CALLSCOPE_PROVIDER_TIMEOUT_MS']) {
    vi.stubEnv(name, values[name] ?? '')
  }
}

async function call(method: string, path: string, options: { body?: unknown; raw?: string; token?: string | null; contentType?: string } = {}) {
  const headers: Record<string, string> = {}
  if (options.token !== null) headers.Authorization = `Bearer ${options.token ?? ADMIN}`
  let body: string | undefined = options.raw
  if (options.body !== undefined) body = JSON.stringify(options.body)
  if (body !== undefined) headers['Content-Type'] = options.contentType ?? 'application/json'
  const response = await app.request(path, { method, headers, body })
  const text = await response.text()
  bodies.push(text)
  return { status: response.status, headers: response.headers, json: text ? (JSON.parse(text) as any) : undefined }
}

const validate = (body: unknown, query = '') => call('POST', `/admin/providers/validate/stt${query}`, { body })

describe('GET /admin/providers/llm/{provider}', () => {
  it('describes the provider, its models, masked credentials and the agents using it', async () => {
    stubProviderEnv({ OPENAI_API_KEY: OPENAI_KEY })
    const { status, json } = await call('GET', '/admin/providers/llm/openai')
    expect(status).toBe(200)
    expect(Object.keys(json).sort()).toEqual(
      ['agents', 'api_base_url', 'catalog_version', 'credentials', 'description', 'display_name', 'docs_url', 'models', 'provider'].sort(),
    )
    expect(json).toMatchObject({ provider: 'openai', display_name: 'OpenAI', api_base_url: 'https://api.openai.com/v1', docs_url: 'https://platform.openai.com/docs' })
    expect(json.models).toContainEqual(expect.objectContaining({ id: 'gpt-4.1-mini', context_window: expect.any(Number), supports_tools: true }))
    expect(json.credentials).toEqual({ configured: true, source: 'environment', key_hint: 'sk-…wxyz', env_var: 'OPENAI_API_KEY', base_url: null })
    expect(json.agents).toEqual({ count: 1, ids: [IDS.agent] })
  })

  it('reports a stored key by its hint only', async () => {
    stubProviderEnv({})
    await service.providers.credentials.set({ kind: 'llm', provider: 'openai', key: OPENAI_KEY })
    const { json } = await call('GET', '/admin/providers/llm/openai')
    expect(json.credentials).toMatchObject({ configured: true, source: 'stored', key_hint: 'sk-…wxyz' })
    await service.providers.credentials.remove('llm', 'openai')
    expect((await call('GET', '/admin/providers/llm/openai')).json.credentials).toMatchObject({ configured: false, source: null, key_hint: null })
  })

  it.each(['anthropic', 'google', 'groq', 'azure_openai', 'mistral', 'deepseek', 'cerebras'])('serves %s', async (id) => {
    const { status, json } = await call('GET', `/admin/providers/llm/${id}`)
    expect(status).toBe(200)
    expect(json.provider).toBe(id)
    expect(json.models.length).toBeGreaterThan(0)
  })

  it.each(['nope', 'OpenAI', 'openai '])('answers %j with pydantic\'s enum error', async (value) => {
    const { status, json } = await call('GET', `/admin/providers/llm/${encodeURIComponent(value)}`)
    expect(status).toBe(422)
    expect(json).toEqual({
      detail: [{ type: 'enum', loc: ['path', 'provider'], msg: `Input should be ${LLM_IDS}`, input: value, ctx: { expected: LLM_IDS } }],
    })
  })

  it('needs a token (401) and the admin role (403)', async () => {
    expect((await call('GET', '/admin/providers/llm/openai', { token: null })).status).toBe(401)
    const forbidden = await call('GET', '/admin/providers/llm/openai', { token: viewer })
    expect(forbidden.status).toBe(403)
    expect(forbidden.json).toEqual({ detail: 'Not enough permissions: this operation needs an admin token' })
    // Not even a validation error leaks to a viewer.
    expect((await call('GET', '/admin/providers/llm/nope', { token: viewer })).status).toBe(403)
  })
})

describe('POST /admin/providers/validate/stt', () => {
  it('validates offline by default: every check reported, never valid without asking the provider', async () => {
    stubProviderEnv({ DEEPGRAM_API_KEY: GOOD })
    const { status, json } = await validate({ provider: 'deepgram', provider_type: 'stt', voice_id: 'ignored', model: 'nova-3' })
    expect(status).toBe(200)
    expect(json).toMatchObject({ valid: false, verified: false, provider: 'deepgram', provider_type: 'stt', model: 'nova-3', mode: 'offline' })
    expect(json.checks.map((c: { name: string; status: string }) => `${c.name}:${c.status}`)).toEqual([
      'provider_known:pass', 'provider_type_is_stt:pass', 'model_available:pass', 'api_key_present:pass', 'api_key_well_formed:pass', 'api_key_accepted:skipped',
    ])
    expect(json.model_info).toMatchObject({ id: 'nova-3', streaming: true })
    expect(json.latency_ms).toEqual(expect.any(Number))
  })

  it('validates online with ?online=true against the provider: good key valid, bad key rejected', async () => {
    stubProviderEnv({ DEEPGRAM_API_KEY: GOOD, CALLSCOPE_STT_DEEPGRAM_BASE_URL: fake.url })
    const good = await validate({ provider: 'deepgram', model: 'nova-3' }, '?online=true')
    expect(good.json).toMatchObject({ valid: true, verified: true, mode: 'online' })
    stubProviderEnv({ DEEPGRAM_API_KEY: BAD, CALLSCOPE_STT_DEEPGRAM_BASE_URL: fake.url })
    const bad = await validate({ provider: 'deepgram', model: 'nova-3' }, '?online=1')
    expect(bad.json).toMatchObject({ valid: false, verified: false })
    expect(bad.json.checks.at(-1)).toMatchObject({ name: 'api_key_accepted', status: 'fail', reason: expect.stringMatching(/^key rejected/) })
  })

  it('uses a stored key (set through the service, as the CLI does) and never returns it', async () => {
    stubProviderEnv({})
    await service.providers.credentials.set({ kind: 'stt', provider: 'deepgram', key: GOOD, baseUrl: fake.url })
    const { json } = await validate({ provider: 'deepgram', model: 'nova-3' }, '?online=true')
    expect(json).toMatchObject({ valid: true, verified: true })
    expect(json.checks[3]).toMatchObject({ name: 'api_key_present', reason: 'a stored key (012…4567) is configured' })
    await service.providers.credentials.remove('stt', 'deepgram')
  })

  it('is unverified (never valid) when the provider hangs past the timeout or cannot be reached', async () => {
    stubProviderEnv({ DEEPGRAM_API_KEY: GOOD, CALLSCOPE_STT_DEEPGRAM_BASE_URL: `${fake.url}/hang`, CALLSCOPE_PROVIDER_TIMEOUT_MS: '250' })
    const hanging = await validate({ provider: 'deepgram', model: 'nova-3' }, '?online=true')
    expect(hanging.json).toMatchObject({ valid: false, verified: false })
    expect(hanging.json.checks.at(-1)).toMatchObject({ status: 'unverified', reason: 'could not verify: no answer within 250 ms' })
    stubProviderEnv({ DEEPGRAM_API_KEY: GOOD, CALLSCOPE_STT_DEEPGRAM_BASE_URL: await closedPortUrl() })
    const unreachable = await validate({ provider: 'deepgram', model: 'nova-3' }, '?online=true')
    expect(unreachable.json).toMatchObject({ valid: false, verified: false })
    expect(unreachable.json.checks.at(-1)).toMatchObject({ status: 'unverified', reason: expect.stringMatching(/^could not verify: connection refused/) })
  })

  it('runs online by default under CALLSCOPE_ONLINE_CHECKS=1; ?online=false still forces offline', async () => {
    stubProviderEnv({ DEEPGRAM_API_KEY: GOOD, CALLSCOPE_STT_DEEPGRAM_BASE_URL: fake.url, CALLSCOPE_ONLINE_CHECKS: '1' })
    expect((await validate({ provider: 'deepgram', model: 'nova-3' })).json.mode).toBe('online')
    expect((await validate({ provider: 'deepgram', model: 'nova-3' }, '?online=false')).json.mode).toBe('offline')
  })

  it('suggests close model ids and provider ids', async () => {
    stubProviderEnv({})
    const model = await validate({ provider: 'deepgram', model: 'nova3' })
    expect(model.json.suggestions[0]).toBe('nova-3')
    const provider = await validate({ provider: 'assembly', model: 'universal' })
    expect(provider.json.suggestions).toEqual(['assemblyai'])
  })

  it('defaults provider_type to stt, ignores voice_id and unknown fields', async () => {
    const { status, json } = await validate({ provider: 'deepgram', model: 'nova-3', voice_id: null, colour: 'blue' })
    expect(status).toBe(200)
    expect(json.provider_type).toBe('stt')
    expect(json).not.toHaveProperty('colour')
  })

  it.each([
    [{ model: 'nova-3' }, [{ type: 'missing', loc: ['body', 'provider'], msg: 'Field required', input: null }]],
    [{}, [
      { type: 'missing', loc: ['body', 'provider'], msg: 'Field required', input: null },
      { type: 'missing', loc: ['body', 'model'], msg: 'Field required', input: null },
    ]],
    [{ provider: 1, model: 'nova-3' }, [{ type: 'string_type', loc: ['body', 'provider'], msg: 'Input should be a valid string', input: 1 }]],
    [{ provider: 'deepgram', model: 'nova-3', provider_type: false }, [{ type: 'string_type', loc: ['body', 'provider_type'], msg: 'Input should be a valid string', input: false }]],
    [{ provider: 'deepgram', model: ['nova-3'] }, [{ type: 'string_type', loc: ['body', 'model'], msg: 'Input should be a valid string', input: ['nova-3'] }]],
    [{ provider: 'deepgram', model: 'x'.repeat(256) }, [{ type: 'string_too_long', loc: ['body', 'model'], msg: 'String should have at most 255 characters', input: 'x'.repeat(256), ctx: { max_length: 255 } }]],
    [['deepgram'], [{ type: 'model_attributes_type', loc: ['body'], msg: 'Input should be a valid dictionary or object to extract fields from', input: ['deepgram'] }]],
  ])('answers %j with 422 %j', async (body, detail) => {
    const { status, json } = await validate(body)
    expect(status).toBe(422)
    expect(json).toEqual({ detail })
  })

  it('rejects a bad online flag, an empty body, malformed JSON and other content types', async () => {
    const flag = await validate({ provider: 'deepgram', model: 'nova-3' }, '?online=maybe')
    expect(flag.status).toBe(422)
    expect(flag.json.detail).toEqual([{ type: 'bool_parsing', loc: ['query', 'online'], msg: 'Input should be a valid boolean, unable to interpret input', input: 'maybe' }])
    const empty = await call('POST', '/admin/providers/validate/stt')
    expect(empty.status).toBe(422)
    expect(empty.json.detail[0]).toMatchObject({ type: 'missing', loc: ['body'] })
    const malformed = await call('POST', '/admin/providers/validate/stt', { raw: '{"provider":' })
    expect(malformed.status).toBe(422)
    expect(malformed.json.detail[0]).toMatchObject({ type: 'json_invalid' })
    const text = await call('POST', '/admin/providers/validate/stt', { raw: 'provider=deepgram', contentType: 'text/plain' })
    expect(text.status).toBe(415)
  })

  it('needs a token (401) and the admin role (403); other methods get 405', async () => {
    expect((await call('POST', '/admin/providers/validate/stt', { body: {}, token: null })).status).toBe(401)
    const forbidden = await call('POST', '/admin/providers/validate/stt', { body: { provider: 'deepgram', model: 'nova-3' }, token: viewer })
    expect(forbidden.status).toBe(403)
    const get = await call('GET', '/admin/providers/validate/stt')
    expect(get.status).toBe(405)
    expect(get.headers.get('allow')).toBe('POST')
  })
})

describe('tRPC providers router', () => {
  const caller = (role: 'admin' | 'viewer') =>
    createCallerFactory(createAppRouter(service))({ principal: { role, tenantId: null, tokenId: null } })

  it('serves llmDetails and validateStt over the same services', async () => {
    stubProviderEnv({ DEEPGRAM_API_KEY: GOOD, CALLSCOPE_STT_DEEPGRAM_BASE_URL: fake.url })
    const details = await caller('admin').providers.llmDetails({ provider: 'groq' })
    expect(details.agents).toEqual({ count: 1, ids: [IDS.agent2] })
    const result = await caller('admin').providers.validateStt({ provider: 'deepgram', model: 'nova-3', online: true })
    expect(result).toMatchObject({ valid: true, verified: true, mode: 'online' })
    bodies.push(JSON.stringify(details), JSON.stringify(result))
  })

  it('is admin-only and validates the provider id', async () => {
    await expect(caller('viewer').providers.llmDetails({ provider: 'openai' })).rejects.toMatchObject({ code: 'FORBIDDEN' })
    await expect(caller('viewer').providers.validateStt({ provider: 'deepgram', model: 'nova-3' })).rejects.toMatchObject({ code: 'FORBIDDEN' })
    await expect(caller('admin').providers.llmDetails({ provider: 'nope' as 'openai' })).rejects.toMatchObject({ code: 'BAD_REQUEST' })
  })
})
