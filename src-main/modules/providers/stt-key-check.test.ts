import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { closedPortUrl, type FakeProvider, startFakeProvider } from '../../../test/helpers/fake-provider'
import { findSttProvider } from './catalog'
import { checkKeyWithProvider, keyCheckRequest } from './stt-key-check'

const stt = (id: string) => findSttProvider(id)!
const GOOD = '0123456789abcdef0123456789abcdef01234567'
const BAD = 'f'.repeat(40)

describe('keyCheckRequest', () => {
  it('puts the key where each catalog entry says', () => {
    const deepgram = keyCheckRequest(stt('deepgram'), 'K', 'https://api.deepgram.com/')
    expect(deepgram.url.toString()).toBe('https://api.deepgram.com/v1/projects')
    expect(deepgram.init.headers).toMatchObject({ Authorization: 'Token K' })
    expect(keyCheckRequest(stt('openai'), 'K', 'https://api.openai.com').init.headers).toMatchObject({ Authorization: 'Bearer K' })
    expect(keyCheckRequest(stt('elevenlabs'), 'K', 'https://api.elevenlabs.io').init.headers).toMatchObject({ 'xi-api-key': 'K' })
    const assembly = keyCheckRequest(stt('assemblyai'), 'K', 'https://api.assemblyai.com')
    expect(assembly.url.toString()).toBe('https://api.assemblyai.com/v2/transcript?limit=1')
    expect(assembly.init.headers).toMatchObject({ Authorization: 'K' })
  })

  it('passes a Google key as the ?key= query parameter, not a header', () => {
    const google = keyCheckRequest(stt('google'), 'AIzaK', 'https://speech.googleapis.com')
    expect(google.url.toString()).toBe('https://speech.googleapis.com/v1/operations?key=AIzaK')
    expect(Object.keys(google.init.headers as object)).toEqual(['Accept'])
  })

  it('sends Azure\'s POST with an empty body and refuses the {region} placeholder', () => {
    const azure = stt('azure')
    expect(() => keyCheckRequest(azure, 'K', azure.api_base_url)).toThrow(/placeholder/)
    const request = keyCheckRequest(azure, 'K', 'https://westeurope.api.cognitive.microsoft.com')
    expect(request.init).toMatchObject({ method: 'POST', body: '', headers: { 'Ocp-Apim-Subscription-Key': 'K' } })
  })
})

describe('checkKeyWithProvider', () => {
  let fake: FakeProvider
  beforeAll(async () => {
    fake = await startFakeProvider(GOOD)
  })
  afterAll(() => fake.close())

  it('accepted on 2xx, rejected on 401', async () => {
    expect(await checkKeyWithProvider(stt('deepgram'), GOOD, fake.url, 2000)).toMatchObject({ verdict: 'accepted', latencyMs: expect.any(Number) })
    const rejected = await checkKeyWithProvider(stt('deepgram'), BAD, fake.url, 2000)
    expect(rejected).toMatchObject({ verdict: 'rejected', reason: expect.stringMatching(/key rejected.*401/) })
    expect(fake.requests.at(-1)).toMatchObject({ method: 'GET', url: '/v1/projects' })
    expect(fake.requests.at(-1)!.headers.authorization).toBe(`Token ${BAD}`)
  })

  it('rejected on 403, and on 400 API_KEY_INVALID; other 4xx and 5xx are unverified', async () => {
    const deepgram = stt('deepgram')
    expect(await checkKeyWithProvider(deepgram, GOOD, `${fake.url}/status/403`, 2000)).toMatchObject({ verdict: 'rejected' })
    expect(await checkKeyWithProvider(deepgram, GOOD, `${fake.url}/status/400/key-invalid`, 2000)).toMatchObject({ verdict: 'rejected', reason: expect.stringMatching(/API_KEY_INVALID/) })
    expect(await checkKeyWithProvider(deepgram, GOOD, `${fake.url}/status/400`, 2000)).toMatchObject({ verdict: 'unverified', reason: 'could not verify: the provider answered HTTP 400 to GET /v1/projects' })
    expect(await checkKeyWithProvider(deepgram, GOOD, `${fake.url}/status/429`, 2000)).toMatchObject({ verdict: 'unverified' })
    expect(await checkKeyWithProvider(deepgram, GOOD, `${fake.url}/status/503`, 2000)).toMatchObject({ verdict: 'unverified', reason: expect.stringMatching(/HTTP 503/) })
    expect(await checkKeyWithProvider(deepgram, GOOD, `${fake.url}/status/302`, 2000)).toMatchObject({ verdict: 'unverified', reason: expect.stringMatching(/redirected/) })
  })

  it('unverified when the provider does not answer in time', async () => {
    const started = Date.now()
    const outcome = await checkKeyWithProvider(stt('deepgram'), GOOD, `${fake.url}/hang`, 200)
    expect(outcome).toEqual({ verdict: 'unverified', reason: 'could not verify: no answer within 200 ms' })
    expect(Date.now() - started).toBeLessThan(2000)
  })

  it('unverified when nothing listens', async () => {
    const outcome = await checkKeyWithProvider(stt('deepgram'), GOOD, await closedPortUrl(), 2000)
    expect(outcome).toEqual({ verdict: 'unverified', reason: 'could not verify: connection refused (ECONNREFUSED)' })
  })

  it('never echoes the key, not even one carried in the URL', async () => {
    const key = 'AIzaSyDUMMYKEY0123456789abcdefghijklmno'
    const outcomes = [
      await checkKeyWithProvider(stt('google'), key, `${fake.url}/hang`, 100),
      await checkKeyWithProvider(stt('google'), key, await closedPortUrl(), 1000),
      await checkKeyWithProvider(stt('google'), key, 'http://[::1', 1000),
    ]
    for (const o of outcomes) expect(JSON.stringify(o)).not.toContain(key)
  })
})
