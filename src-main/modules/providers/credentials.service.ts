import type { Kysely } from 'kysely'
import type { CredentialStatus, CredentialSummary } from '../../../src-shared/schemas/providers'
import type { Database } from '../../db/schema'
import { isoNow } from '../../lib/clock'
import { keyEnvFor, type ProviderKind, providerIds } from './catalog'
import * as repo from './credentials.repo'
import { keyHint } from './key-hint'
import type { SecretBox } from './secret-box'

/** A usage error in what was asked of the credential store (unknown provider, bad key or URL). */
export class CredentialError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'CredentialError'
  }
}

export interface SetCredentialInput {
  kind: ProviderKind
  provider: string
  key: string
  /** Overrides the catalog's API base URL for this provider (a proxy, a region, a test server). */
  baseUrl?: string | null
}

/** A key ready to use. Internal to the main process: no operation returns it. */
export interface ResolvedKey {
  key: string
  source: 'stored' | 'environment'
  hint: string
  /** The environment variable it came from, when it did. */
  envVar: string | null
  baseUrl: string | null
}

export type KeyLookup =
  | ({ found: true } & ResolvedKey)
  | { found: false; envVar: string | null; baseUrl: string | null; /** Why a stored key could not be used. */ problem?: string }

export interface CredentialsOptions {
  secretBox: SecretBox
  /** Read on every call, so a changed environment (or a test's stub) is seen. */
  env: () => NodeJS.ProcessEnv
}

const MAX_KEY_LENGTH = 4096

/** `CALLSCOPE_STT_DEEPGRAM_BASE_URL`: overrides a provider's base URL without storing anything. */
export function baseUrlEnvVar(kind: ProviderKind, provider: string): string {
  return `CALLSCOPE_${kind.toUpperCase()}_${provider.toUpperCase().replace(/[^A-Z0-9]/g, '_')}_BASE_URL`
}

const context = (kind: string, provider: string) => `provider_credentials:${kind}:${provider}`

export function normalizeBaseUrl(text: string): string {
  let url: URL
  try {
    url = new URL(text.trim())
  } catch {
    throw new CredentialError(`base URL "${text}" is not a valid URL`)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new CredentialError(`base URL must use http or https, not ${url.protocol.replace(/:$/, '')}`)
  }
  return url.toString().replace(/\/+$/, '')
}

export function createCredentialsService(db: Kysely<Database>, options: CredentialsOptions) {
  const { secretBox } = options

  const envValue = (name: string | null): string | null => {
    if (!name) return null
    const value = options.env()[name]?.trim()
    return value ? value : null
  }

  function requireKnown(kind: ProviderKind, provider: string): void {
    const known = providerIds(kind)
    if (!known.includes(provider)) {
      throw new CredentialError(`unknown ${kind} provider "${provider}"; known: ${known.join(', ')}`)
    }
  }

  const effectiveBaseUrl = (kind: ProviderKind, provider: string, row: { base_url: string | null } | undefined) =>
    row?.base_url ?? envValue(baseUrlEnvVar(kind, provider))

  return {
    /** What protects stored keys. */
    protection: secretBox.description,

    /** Stores (or replaces) a provider's key, sealed. Returns the listing entry, never the key. */
    async set(input: SetCredentialInput): Promise<CredentialSummary> {
      requireKnown(input.kind, input.provider)
      const key = input.key.trim()
      if (key.length === 0) throw new CredentialError('the key is empty')
      if (key.length > MAX_KEY_LENGTH) throw new CredentialError(`the key is longer than ${MAX_KEY_LENGTH} characters`)
      // eslint-disable-next-line no-control-regex
      if (/[\s\u0000-\u001f\u007f]/.test(key)) throw new CredentialError('the key contains whitespace or control characters')
      const baseUrl = input.baseUrl ? normalizeBaseUrl(input.baseUrl) : null
      const now = isoNow()
      const hint = keyHint(key)
      await repo.upsertCredential(db, {
        provider_kind: input.kind,
        provider: input.provider,
        secret: await secretBox.seal(key, context(input.kind, input.provider)),
        key_hint: hint,
        base_url: baseUrl,
        created_at: now,
        updated_at: now,
      })
      return {
        kind: input.kind,
        provider: input.provider,
        source: 'stored',
        key_hint: hint,
        base_url: baseUrl,
        env_var: keyEnvFor(input.kind, input.provider),
        updated_at: now,
      }
    },

    /** Deletes a stored key; false when there was none. Environment variables are not touched. */
    remove(kind: ProviderKind, provider: string): Promise<boolean> {
      return repo.deleteCredential(db, kind, provider)
    },

    /** Stored keys, then keys available from the catalog's environment variables. Never a key. */
    async list(): Promise<CredentialSummary[]> {
      const stored = await repo.listCredentials(db)
      const entries: CredentialSummary[] = stored.map((row) => ({
        kind: row.provider_kind as ProviderKind,
        provider: row.provider,
        source: 'stored',
        key_hint: row.key_hint,
        base_url: row.base_url,
        env_var: keyEnvFor(row.provider_kind as ProviderKind, row.provider),
        updated_at: row.updated_at,
      }))
      for (const kind of ['llm', 'stt', 'tts'] as const) {
        for (const provider of providerIds(kind)) {
          if (stored.some((r) => r.provider_kind === kind && r.provider === provider)) continue
          const envVar = keyEnvFor(kind, provider)
          const value = envValue(envVar)
          if (!value) continue
          entries.push({
            kind,
            provider,
            source: 'environment',
            key_hint: keyHint(value),
            base_url: envValue(baseUrlEnvVar(kind, provider)),
            env_var: envVar,
            updated_at: null,
          })
        }
      }
      return entries
    },

    /** Whether a key is configured, and where from; reads the stored hint, decrypts nothing. */
    async status(kind: ProviderKind, provider: string): Promise<CredentialStatus> {
      const row = await repo.findCredential(db, kind, provider)
      const envVar = keyEnvFor(kind, provider)
      const baseUrl = effectiveBaseUrl(kind, provider, row)
      if (row) return { configured: true, source: 'stored', key_hint: row.key_hint, env_var: envVar ?? '', base_url: baseUrl }
      const value = envValue(envVar)
      return {
        configured: value !== null,
        source: value !== null ? 'environment' : null,
        key_hint: value !== null ? keyHint(value) : null,
        env_var: envVar ?? '',
        base_url: baseUrl,
      }
    },

    /**
     * The key to use: a stored one wins over the environment variable. A stored key that cannot
     * be opened is reported, not silently replaced by the environment's.
     */
    async resolve(kind: ProviderKind, provider: string): Promise<KeyLookup> {
      const row = await repo.findCredential(db, kind, provider)
      const envVar = keyEnvFor(kind, provider)
      const baseUrl = effectiveBaseUrl(kind, provider, row)
      if (row) {
        try {
          const key = await secretBox.open(row.secret, context(kind, provider))
          return { found: true, key, source: 'stored', hint: row.key_hint, envVar: null, baseUrl }
        } catch (error) {
          return { found: false, envVar, baseUrl, problem: (error as Error).message }
        }
      }
      const value = envValue(envVar)
      if (value === null) return { found: false, envVar, baseUrl }
      return { found: true, key: value, source: 'environment', hint: keyHint(value), envVar, baseUrl }
    },
  }
}

export type CredentialsService = ReturnType<typeof createCredentialsService>
