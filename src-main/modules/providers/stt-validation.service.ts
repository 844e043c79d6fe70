import type { SttProvider } from '../../../src-shared/schemas/provider-catalog'
import type {
  SttCheckName,
  SttValidationCheck,
  SttValidationRequest,
  SttValidationResult,
} from '../../../src-shared/schemas/providers'
import type { Principal } from '../../kit/access'
import { findSttProvider, llmCatalog, sttCatalog, ttsCatalog } from './catalog'
import { baseUrlEnvVar, type CredentialsService, type KeyLookup } from './credentials.service'
import { redact } from './key-hint'
import { closeMatches } from './similarity'
import { checkKeyWithProvider, DEFAULT_KEY_CHECK_TIMEOUT_MS } from './stt-key-check'

export interface SttValidationOptions {
  credentials: CredentialsService
  /** Read on every call, so a changed environment (or a test's stub) is seen. */
  env: () => NodeJS.ProcessEnv
  /** Time allowed for the provider's answer; else CALLSCOPE_PROVIDER_TIMEOUT_MS, else 5 s. */
  keyCheckTimeoutMs?: number
  /** Whether online checks run when the request does not say; else CALLSCOPE_ONLINE_CHECKS=1. */
  onlineByDefault?: boolean
}

export interface SttValidationCallOptions {
  /** Ask the provider whether it accepts the key; undefined for the service's default. */
  online?: boolean
}

const TRUE_ENV = /^(1|true|yes|on)$/i

const setKeyHint = (providerId: string) => `callscope provider set-key --kind stt --provider ${providerId}`

export function createSttValidationService(options: SttValidationOptions) {
  const { credentials } = options

  function timeoutMs(): number {
    if (options.keyCheckTimeoutMs !== undefined) return options.keyCheckTimeoutMs
    const fromEnv = Number(options.env().CALLSCOPE_PROVIDER_TIMEOUT_MS)
    return Number.isFinite(fromEnv) && fromEnv > 0 ? fromEnv : DEFAULT_KEY_CHECK_TIMEOUT_MS
  }

  function onlineDefault(): boolean {
    return options.onlineByDefault ?? TRUE_ENV.test(options.env().CALLSCOPE_ONLINE_CHECKS?.trim() ?? '')
  }

  /**
   * Validates one STT provider configuration and reports every check. `valid` is true only when
   * all checks pass, which includes the provider accepting the key: an offline or unverifiable
   * validation is never valid. Never throws for anything the provider or network does.
   */
  async function validate(
    _principal: Principal,
    request: SttValidationRequest,
    call: SttValidationCallOptions = {},
  ): Promise<SttValidationResult> {
    const started = performance.now()
    const online = call.online ?? onlineDefault()
    const providerType = request.provider_type ?? 'stt'
    const checks: SttValidationCheck[] = []
    const add = (name: SttCheckName, status: SttValidationCheck['status'], reason: string, extra: Partial<SttValidationCheck> = {}) => {
      const check: SttValidationCheck = { name, status, reason, ...extra }
      checks.push(check)
      return check
    }
    let suggestions: string[] = []

    // provider_known
    const provider = findSttProvider(request.provider)
    if (provider) {
      add('provider_known', 'pass', `${provider.display_name} is in the STT catalog (version ${sttCatalog.catalog_version})`)
    } else {
      suggestions = closeMatches(request.provider, sttCatalog.providers.map((p) => p.id))
      add('provider_known', 'fail', unknownProviderReason(request.provider, suggestions))
    }

    // provider_type_is_stt
    if (providerType.trim().toLowerCase() === 'stt') {
      add('provider_type_is_stt', 'pass', 'provider_type is stt')
    } else {
      add('provider_type_is_stt', 'fail', `provider_type is ${quote(providerType)}; this operation validates speech-to-text (stt) providers only`)
    }

    // model_available
    const model = provider?.models.find((m) => m.id === request.model)
    if (!provider) {
      add('model_available', 'skipped', 'skipped: the provider is unknown')
    } else if (model) {
      add('model_available', 'pass', `${model.display_name} (${model.id}) is available from ${provider.display_name}`)
    } else {
      const ids = provider.models.map((m) => m.id)
      suggestions = closeMatches(request.model, ids)
      const hint = suggestions.length > 0 ? ` Did you mean ${suggestions.map(quote).join(' or ')}?` : ''
      add('model_available', 'fail', `${quote(request.model)} is not a ${provider.display_name} model; available: ${ids.join(', ')}.${hint}`)
    }

    // api_key_present, api_key_well_formed, api_key_accepted
    const lookup: KeyLookup | null = provider ? await credentials.resolve('stt', provider.id) : null
    if (!provider || !lookup) {
      add('api_key_present', 'skipped', 'skipped: the provider is unknown, so is where its key would come from')
      add('api_key_well_formed', 'skipped', 'skipped: no key to check')
      add('api_key_accepted', 'skipped', 'skipped: no key to check')
    } else if (!lookup.found) {
      add('api_key_present', 'fail', missingKeyReason(provider, lookup))
      add('api_key_well_formed', 'skipped', 'skipped: no key to check')
      add('api_key_accepted', 'skipped', 'skipped: no key to check')
    } else {
      add(
        'api_key_present',
        'pass',
        lookup.source === 'stored'
          ? `a stored key (${lookup.hint}) is configured`
          : `a key (${lookup.hint}) is set in the environment variable ${lookup.envVar}`,
      )
      const wellFormed = wellFormedCheck(provider, lookup.key)
      const formCheck = add('api_key_well_formed', wellFormed.ok ? 'pass' : 'fail', wellFormed.reason)
      if (!online) {
        add('api_key_accepted', 'skipped', 'skipped: offline mode; pass ?online=true (or run with CALLSCOPE_ONLINE_CHECKS=1) to ask the provider')
      } else {
        const baseUrl = lookup.baseUrl ?? provider.api_base_url
        const outcome = await checkKeyWithProvider(provider, lookup.key, baseUrl, timeoutMs())
        const latency = outcome.latencyMs !== undefined ? { latency_ms: outcome.latencyMs } : {}
        if (outcome.verdict === 'accepted') {
          add('api_key_accepted', 'pass', outcome.reason, latency)
          // The provider is the authority on its keys; catalog patterns can go stale.
          if (!wellFormed.ok) {
            formCheck.status = 'pass'
            formCheck.reason = 'the key does not match the catalog pattern, but the provider accepted it (the catalog pattern may be out of date)'
          }
        } else if (outcome.verdict === 'rejected') {
          add('api_key_accepted', 'fail', outcome.reason, latency)
        } else {
          const fix = /placeholder|base URL/.test(outcome.reason)
            ? `; set the real base URL with \`${setKeyHint(provider.id)} --base-url URL\` or ${baseUrlEnvVar('stt', provider.id)}`
            : ''
          add('api_key_accepted', 'unverified', `${outcome.reason}${fix}`, latency)
        }
      }
      // Belt and braces: no reason may carry the key, whatever produced it.
      for (const check of checks) check.reason = redact(check.reason, lookup.key)
    }

    const accepted = checks.find((c) => c.name === 'api_key_accepted')
    const result: SttValidationResult = {
      valid: checks.every((c) => c.status === 'pass'),
      verified: accepted?.status === 'pass',
      provider: request.provider,
      provider_type: providerType,
      model: request.model,
      mode: online ? 'online' : 'offline',
      latency_ms: Math.round(performance.now() - started),
      checks,
    }
    if (suggestions.length > 0) result.suggestions = suggestions
    if (model) {
      result.model_info = {
        id: model.id,
        display_name: model.display_name,
        streaming: model.streaming,
        batch: model.batch,
        languages: model.languages,
        price_per_minute_usd: model.price_per_minute_usd ?? null,
      }
    }
    return result
  }

  return { validate }
}

const quote = (text: string) => `'${text.length > 60 ? `${text.slice(0, 59)}…` : text}'`

function unknownProviderReason(id: string, suggestions: string[]): string {
  const known = sttCatalog.providers.map((p) => p.id).join(', ')
  const elsewhere = llmCatalog.providers.some((p) => p.id === id)
    ? ` ${quote(id)} is a language-model (llm) provider.`
    : ttsCatalog.providers.some((p) => p.id === id)
      ? ` ${quote(id)} is a text-to-speech (tts) provider.`
      : ''
  const hint = suggestions.length > 0 ? ` Did you mean ${suggestions.map(quote).join(' or ')}?` : ''
  return `${quote(id)} is not an STT provider in the catalog; known: ${known}.${elsewhere}${hint}`
}

function missingKeyReason(provider: SttProvider, lookup: Extract<KeyLookup, { found: false }>): string {
  if (lookup.problem) return `a stored key exists but cannot be used: ${lookup.problem}; set it again with \`${setKeyHint(provider.id)}\``
  return `no key: store one with \`${setKeyHint(provider.id)}\` or set the environment variable ${provider.auth.key_env}`
}

function wellFormedCheck(provider: SttProvider, key: string): { ok: boolean; reason: string } {
  let pattern: RegExp
  try {
    pattern = new RegExp(provider.auth.key_pattern)
  } catch {
    return { ok: true, reason: 'the catalog pattern for this provider is unusable; format not checked' }
  }
  return pattern.test(key)
    ? { ok: true, reason: `the key matches ${provider.display_name}'s key format` }
    : { ok: false, reason: `the key (${key.length} characters) does not match ${provider.display_name}'s key format ${provider.auth.key_pattern}` }
}

export type SttValidationService = ReturnType<typeof createSttValidationService>
