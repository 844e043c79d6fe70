import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { DatabaseHandle } from '../../db/connection'
import { migratedDb } from '../../../test/helpers/migrated-db'
import { baseUrlEnvVar, createCredentialsService, CredentialError } from './credentials.service'
import { createMemorySecretBox } from './secret-box'

const KEY = '0123456789abcdef0123456789abcdef01234567'

describe('credentials', () => {
  let handle: DatabaseHandle
  let env: NodeJS.ProcessEnv = {}
  let credentials: ReturnType<typeof createCredentialsService>
  beforeAll(async () => {
    handle = await migratedDb()
    credentials = createCredentialsService(handle.db, { secretBox: createMemorySecretBox(), env: () => env })
  })
  afterAll(() => handle.close())

  it('reports nothing configured at first', async () => {
    expect(await credentials.status('stt', 'deepgram')).toEqual({
      configured: false, source: null, key_hint: null, env_var: 'DEEPGRAM_API_KEY', base_url: null,
    })
    expect(await credentials.resolve('stt', 'deepgram')).toEqual({ found: false, envVar: 'DEEPGRAM_API_KEY', baseUrl: null })
  })

  it('reads the catalog environment variable, and the base URL override variable', async () => {
    env = { DEEPGRAM_API_KEY: ` ${KEY}\n`, CALLSCOPE_STT_DEEPGRAM_BASE_URL: 'http://127.0.0.1:9' }
    expect(await credentials.status('stt', 'deepgram')).toEqual({
      configured: true, source: 'environment', key_hint: '012…4567', env_var: 'DEEPGRAM_API_KEY', base_url: 'http://127.0.0.1:9',
    })
    expect(await credentials.resolve('stt', 'deepgram')).toMatchObject({ found: true, key: KEY, source: 'environment', envVar: 'DEEPGRAM_API_KEY' })
    expect((await credentials.list()).find((e) => e.provider === 'deepgram')).toMatchObject({ source: 'environment', key_hint: '012…4567' })
  })

  it('stores the key sealed, with only a hint in clear, and prefers it to the environment', async () => {
    env = { DEEPGRAM_API_KEY: 'f'.repeat(40) }
    const stored = await credentials.set({ kind: 'stt', provider: 'deepgram', key: `${KEY}\n`, baseUrl: 'http://127.0.0.1:1234/' })
    expect(stored).toMatchObject({ kind: 'stt', provider: 'deepgram', source: 'stored', key_hint: '012…4567', base_url: 'http://127.0.0.1:1234' })
    expect(JSON.stringify(stored)).not.toContain(KEY)
    const row = handle.sqlite.prepare("select * from provider_credentials where provider = 'deepgram'").get() as Record<string, string>
    expect(JSON.stringify(row)).not.toContain(KEY)
    expect(row.secret).toMatch(/^aesgcm1:/)
    expect(await credentials.resolve('stt', 'deepgram')).toMatchObject({ found: true, key: KEY, source: 'stored', baseUrl: 'http://127.0.0.1:1234' })
    expect(await credentials.status('stt', 'deepgram')).toMatchObject({ source: 'stored', key_hint: '012…4567' })
    const list = await credentials.list()
    expect(list.filter((e) => e.provider === 'deepgram')).toHaveLength(1)
    expect(JSON.stringify(list)).not.toContain(KEY)
  })

  it('replaces a stored key, keeping its creation time', async () => {
    const before = handle.sqlite.prepare("select created_at from provider_credentials where provider = 'deepgram'").get()
    await credentials.set({ kind: 'stt', provider: 'deepgram', key: 'a'.repeat(40) })
    expect(handle.sqlite.prepare("select created_at from provider_credentials where provider = 'deepgram'").get()).toEqual(before)
    expect(await credentials.resolve('stt', 'deepgram')).toMatchObject({ key: 'a'.repeat(40), baseUrl: null })
  })

  it('reports a stored key it cannot open instead of falling back silently', async () => {
    handle.sqlite.prepare("update provider_credentials set secret = 'aesgcm1:AAAA:BBBB:CCCC' where provider = 'deepgram'").run()
    const lookup = await credentials.resolve('stt', 'deepgram')
    expect(lookup).toMatchObject({ found: false, problem: expect.stringMatching(/cannot be decrypted/) })
  })

  it('removes stored keys', async () => {
    expect(await credentials.remove('stt', 'deepgram')).toBe(true)
    expect(await credentials.remove('stt', 'deepgram')).toBe(false)
  })

  it.each([
    [{ kind: 'stt', provider: 'nope', key: 'k' }, /unknown stt provider "nope"; known: deepgram/],
    [{ kind: 'llm', provider: 'deepgram', key: 'k' }, /unknown llm provider/],
    [{ kind: 'stt', provider: 'deepgram', key: '  ' }, /empty/],
    [{ kind: 'stt', provider: 'deepgram', key: 'ab cd' }, /whitespace/],
    [{ kind: 'stt', provider: 'deepgram', key: 'k', baseUrl: 'ftp://x' }, /http or https/],
    [{ kind: 'stt', provider: 'deepgram', key: 'k', baseUrl: 'not a url' }, /not a valid URL/],
  ] as const)('refuses %j', async (input, message) => {
    await expect(credentials.set(input)).rejects.toThrow(CredentialError)
    await expect(credentials.set(input)).rejects.toThrow(message)
  })

  it('names base URL variables after kind and provider', () => {
    expect(baseUrlEnvVar('stt', 'deepgram')).toBe('CALLSCOPE_STT_DEEPGRAM_BASE_URL')
    expect(baseUrlEnvVar('llm', 'azure_openai')).toBe('CALLSCOPE_LLM_AZURE_OPENAI_BASE_URL')
  })
})
