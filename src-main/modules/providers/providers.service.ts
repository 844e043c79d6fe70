import type { Kysely } from 'kysely'
import type { Database } from '../../db/schema'
import { createCredentialsService } from './credentials.service'
import { createLlmProvidersService } from './llm-providers.service'
import { createFileSecretBox, createMemorySecretBox, type SecretBox } from './secret-box'
import { createSttValidationService } from './stt-validation.service'

export interface ProvidersServiceOptions {
  /** The database file; stored keys are sealed with a key kept in `<dbPath>.key`. `:memory:` keeps it in memory. */
  dbPath: string
  /** Replaces the file-key box, e.g. with one over Electron safeStorage in the desktop app. */
  secretBox?: SecretBox
  /** Environment to read provider keys and overrides from; defaults to process.env, read per call. */
  env?: () => NodeJS.ProcessEnv
  /** Time allowed for a provider's answer to a key check (default CALLSCOPE_PROVIDER_TIMEOUT_MS or 5 s). */
  keyCheckTimeoutMs?: number
  /** Whether key checks ask the provider when a request does not say (default CALLSCOPE_ONLINE_CHECKS=1). */
  onlineByDefault?: boolean
}

/** Where a database's secret-sealing key lives: next to it. */
export const keyFileFor = (dbPath: string): string => `${dbPath}.key`

/**
 * The store's secret box: AES-256-GCM with the key in `<dbPath>.key`, or in memory for `:memory:`.
 * Provider keys and webhook signing secrets are sealed by the same box (service.ts builds one).
 */
export const secretBoxFor = (dbPath: string): SecretBox =>
  dbPath === ':memory:' ? createMemorySecretBox() : createFileSecretBox(keyFileFor(dbPath))

/**
 * The secret box of a store on a PostgreSQL server: there is no file to keep the key beside, so it
 * is the file the operator names (`--key-file`, CALLSCOPE_KEY_FILE; every instance serving the same
 * database needs the same one), else in memory (tests): secrets sealed then are lost with the process.
 */
export const secretBoxForServer = (keyFile: string | undefined): SecretBox =>
  keyFile ? createFileSecretBox(keyFile) : createMemorySecretBox()

/** Provider administration: stored credentials, LLM provider details, STT configuration checks. */
export function createProvidersService(db: Kysely<Database>, options: ProvidersServiceOptions) {
  const env = options.env ?? (() => process.env)
  const secretBox = options.secretBox ?? secretBoxFor(options.dbPath)
  const credentials = createCredentialsService(db, { secretBox, env })
  const llm = createLlmProvidersService(db, credentials)
  const stt = createSttValidationService({
    credentials,
    env,
    keyCheckTimeoutMs: options.keyCheckTimeoutMs,
    onlineByDefault: options.onlineByDefault,
  })
  return {
    credentials,
    llmAnswer: llm.answer,
    llmDetails: llm.details,
    validateStt: stt.validate,
  }
}

export type ProvidersService = ReturnType<typeof createProvidersService>
