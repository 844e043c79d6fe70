import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { SttValidationResult } from '../../../src-shared/schemas/providers'
import { closedPortUrl, type FakeProvider, startFakeProvider } from '../../../test/helpers/fake-provider'
import { migratedDb } from '../../../test/helpers/migrated-db'
import type { DatabaseHandle } from '../../db/connection'
import type { Principal } from '../../kit/access'
import { createProvidersService } from './providers.service'

const admin: Principal = { role: 'admin', tenantId: null, tokenId: null }
const GOOD = '0123456789abcdef0123456789abcdef01234567'
const BAD = 'f'.repeat(40)

const check = (result: SttValidationResult, name: string) => result.checks.find((c) => c.name === name)!
const statuses = (result: SttValidationResult) => Object.fromEntries(result.checks.map((c) => [c.name, c.status]))

describe('STT validation', () => {
  let handle: DatabaseHandle
  let fake: FakeProvider
  let env: NodeJS.ProcessEnv = {}
  let providers: ReturnType<typeof createProvidersService>
  const validate = (body: Record<string, string>, online?: boolean) =>
    providers.validateStt(admin, { provider: 'deepgram', model: 'nova-3', ...body }, { online })

  beforeAll(async () => {
    handle = await migratedDb()
    fake = await startFakeProvider(GOOD)
    providers = createProvidersService(handle.db, { dbPath: ':memory:', env: () => env, keyCheckTimeoutMs: 300 })
  })
  afterAll(async () => {
    await fake.close()
    await handle.close()
  })

  it('reports all six checks in order, offline by default, and is never valid offline', async () => {
    env = { DEEPGRAM_API_KEY: GOOD }
    const result = await validate({})
    expect(result).toMatchObject({ valid: false, verified: false, provider: 'deepgram', provider_type: 'stt', model: 'nova-3', mode: 'offline' })
    expect(statuses(result)).toEqual({
      provider_known: 'pass', provider_type_is_stt: 'pass', model_available: 'pass',
      api_key_present: 'pass', api_key_well_formed: 'pass', api_key_accepted: 'skipped',
    })
    expect(result.checks.map((c) => c.name)).toEqual([
      'provider_known', 'provider_type_is_stt', 'model_available', 'api_key_present', 'api_key_well_formed', 'api_key_accepted',
    ])
    expect(check(result, 'api_key_accepted').reason).toMatch(/offline mode; pass \?online=true/)
    expect(check(result, 'api_key_present').reason).toMatch(/environment variable DEEPGRAM_API_KEY/)
    expect(result.model_info).toMatchObject({ id: 'nova-3', streaming: true, batch: true, languages: expect.arrayContaining(['en', 'de']) })
    expect(result.latency_ms).toBeGreaterThanOrEqual(0)
    expect(result.suggestions).toBeUndefined()
  })

  it('is valid and verified online when the provider accepts the key', async () => {
    env = { DEEPGRAM_API_KEY: GOOD, CALLSCOPE_STT_DEEPGRAM_BASE_URL: fake.url }
    const result = await validate({}, true)
    expect(result).toMatchObject({ valid: true, verified: true, mode: 'online' })
    expect(result.checks.every((c) => c.status === 'pass')).toBe(true)
    expect(check(result, 'api_key_accepted')).toMatchObject({ status: 'pass', latency_ms: expect.any(Number) })
    expect(fake.requests.at(-1)!.headers.authorization).toBe(`Token ${GOOD}`)
  })

  it('goes online by default under CALLSCOPE_ONLINE_CHECKS=1, unless the call says offline', async () => {
    env = { DEEPGRAM_API_KEY: GOOD, CALLSCOPE_STT_DEEPGRAM_BASE_URL: fake.url, CALLSCOPE_ONLINE_CHECKS: '1' }
    expect((await validate({})).mode).toBe('online')
    expect((await validate({}, false)).mode).toBe('offline')
  })

  it('fails api_key_accepted when the provider rejects the key', async () => {
    env = { DEEPGRAM_API_KEY: BAD, CALLSCOPE_STT_DEEPGRAM_BASE_URL: fake.url }
    const result = await validate({}, true)
    expect(result).toMatchObject({ valid: false, verified: false })
    expect(check(result, 'api_key_accepted')).toMatchObject({ status: 'fail', reason: expect.stringMatching(/^key rejected/) })
  })

  it.each([
    ['a hanging provider', async (url: string) => `${url}/hang`, /could not verify: no answer within 300 ms/],
    ['an unreachable provider', async () => closedPortUrl(), /could not verify: connection refused/],
    ['a failing provider', async (url: string) => `${url}/status/503`, /could not verify: the provider answered HTTP 503/],
  ])('is unverified, and not valid, with %s', async (_label, base, reason) => {
    env = { DEEPGRAM_API_KEY: GOOD, CALLSCOPE_STT_DEEPGRAM_BASE_URL: await base(fake.url) }
    const result = await validate({}, true)
    expect(result).toMatchObject({ valid: false, verified: false, mode: 'online' })
    expect(check(result, 'api_key_accepted')).toMatchObject({ status: 'unverified', reason: expect.stringMatching(reason) })
  })

  it('uses the stored credential and its base URL before the environment', async () => {
    env = { DEEPGRAM_API_KEY: BAD, CALLSCOPE_STT_DEEPGRAM_BASE_URL: await closedPortUrl() }
    await providers.credentials.set({ kind: 'stt', provider: 'deepgram', key: GOOD, baseUrl: fake.url })
    const result = await validate({}, true)
    expect(result).toMatchObject({ valid: true, verified: true })
    expect(check(result, 'api_key_present').reason).toBe('a stored key (012…4567) is configured')
    await providers.credentials.remove('stt', 'deepgram')
  })

  it('fails provider_known for an unknown provider, suggests close ids, and skips what depends on it', async () => {
    env = {}
    const result = await validate({ provider: 'deepgramm' }, true)
    expect(statuses(result)).toEqual({
      provider_known: 'fail', provider_type_is_stt: 'pass', model_available: 'skipped',
      api_key_present: 'skipped', api_key_well_formed: 'skipped', api_key_accepted: 'skipped',
    })
    expect(result.suggestions).toEqual(['deepgram'])
    expect(check(result, 'provider_known').reason).toMatch(/'deepgramm' is not an STT provider.*Did you mean 'deepgram'\?/)
    expect(result.valid).toBe(false)
    const tts = await validate({ provider: 'cartesia' })
    expect(check(tts, 'provider_known').reason).toMatch(/'cartesia' is a text-to-speech \(tts\) provider/)
  })

  it('fails provider_type_is_stt for another type', async () => {
    env = { DEEPGRAM_API_KEY: GOOD }
    const result = await validate({ provider_type: 'tts' })
    expect(check(result, 'provider_type_is_stt')).toMatchObject({ status: 'fail', reason: expect.stringMatching(/provider_type is 'tts'/) })
    expect(result.provider_type).toBe('tts')
    expect(check(await validate({ provider_type: 'STT' }), 'provider_type_is_stt').status).toBe('pass')
  })

  it('fails model_available with close suggestions', async () => {
    const result = await validate({ model: 'nova-4' })
    expect(check(result, 'model_available')).toMatchObject({ status: 'fail', reason: expect.stringMatching(/'nova-4' is not a Deepgram model; available: nova-3, nova-2, flux-general-en\. Did you mean 'nova-2' or 'nova-3'\?/) })
    expect(result.suggestions).toEqual(['nova-2', 'nova-3'])
    expect(result.model_info).toBeUndefined()
    expect((await validate({ model: 'whisper-1' })).suggestions).toBeUndefined()
  })

  it('fails api_key_present with where to put a key', async () => {
    env = {}
    const result = await validate({}, true)
    expect(check(result, 'api_key_present')).toMatchObject({
      status: 'fail',
      reason: 'no key: store one with `callscope provider set-key --kind stt --provider deepgram` or set the environment variable DEEPGRAM_API_KEY',
    })
    expect(statuses(result)).toMatchObject({ api_key_well_formed: 'skipped', api_key_accepted: 'skipped' })
  })

  it('fails api_key_well_formed offline; the provider accepting the key overrides a stale pattern', async () => {
    const odd = `${GOOD}-x`
    env = { DEEPGRAM_API_KEY: odd, CALLSCOPE_STT_DEEPGRAM_BASE_URL: fake.url }
    const offline = await validate({})
    expect(check(offline, 'api_key_well_formed')).toMatchObject({ status: 'fail', reason: expect.stringMatching(/does not match Deepgram's key format/) })
    // The fake accepts any request carrying GOOD, so this one too.
    const online = await validate({}, true)
    expect(check(online, 'api_key_well_formed')).toMatchObject({ status: 'pass', reason: expect.stringMatching(/provider accepted it/) })
    expect(online.valid).toBe(true)
  })

  it('is unverified for a base URL with a placeholder (Azure {region}) and says how to fix it', async () => {
    env = { AZURE_SPEECH_KEY: 'a'.repeat(32) }
    const result = await providers.validateStt(admin, { provider: 'azure', model: 'realtime' }, { online: true })
    expect(check(result, 'api_key_accepted')).toMatchObject({
      status: 'unverified',
      reason: expect.stringMatching(/placeholder.*--base-url URL` or CALLSCOPE_STT_AZURE_BASE_URL/),
    })
    expect(result.valid).toBe(false)
  })

  it('checks Google keys through the query parameter', async () => {
    const key = `AIza${'B'.repeat(35)}`
    env = { GOOGLE_API_KEY: key, CALLSCOPE_STT_GOOGLE_BASE_URL: `${fake.url}/status/400/key-invalid` }
    const result = await providers.validateStt(admin, { provider: 'google', model: 'chirp_3' }, { online: true })
    expect(check(result, 'api_key_accepted')).toMatchObject({ status: 'fail', reason: expect.stringMatching(/API_KEY_INVALID/) })
    expect(fake.requests.at(-1)!.url).toBe(`/status/400/key-invalid/v1/operations?key=${key}`)
    expect(JSON.stringify(result)).not.toContain(key)
  })

  it('fails api_key_present for a stored key it cannot open', async () => {
    await providers.credentials.set({ kind: 'stt', provider: 'deepgram', key: GOOD })
    handle.sqlite.prepare("update provider_credentials set secret = 'aesgcm1:AAAA:BBBB:CCCC'").run()
    const result = await validate({}, true)
    expect(check(result, 'api_key_present')).toMatchObject({ status: 'fail', reason: expect.stringMatching(/stored key exists but cannot be used.*set it again/) })
    await providers.credentials.remove('stt', 'deepgram')
  })

  it('never puts the key in a result', async () => {
    for (const base of [fake.url, `${fake.url}/hang`, await closedPortUrl()]) {
      env = { DEEPGRAM_API_KEY: GOOD, CALLSCOPE_STT_DEEPGRAM_BASE_URL: base }
      for (const online of [false, true]) expect(JSON.stringify(await validate({}, online))).not.toContain(GOOD)
    }
  })
})
