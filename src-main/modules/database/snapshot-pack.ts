import { randomBytes } from 'node:crypto'
import { dirname, resolve } from 'node:path'
import { damagedMessage, formatBytes, StoreDamagedError, storeFaultKind, StoreFullError } from '../../../src-shared/store-faults'
import { freeBytesBeside } from '../../db/store-faults'
import type { WriteContext } from '../../db/write-job'
import { clearSnapshotTarget, openScratchCopy, removeDatabaseFiles, type ScratchCopy, scratchPathFor, vacuumInto } from '../../db/snapshot'
import { agentAndTenantNames, deleteSecretRows, deleteSettings, pullSources, refreshStatistics, renameSource } from './pack.repo'
import { notPeopleFrom } from './person-names'
import { createPseudonyms, type Pseudonyms } from './pseudonyms'
import { type RedactionCounts, redactPersonalData } from './redaction'

export interface SnapshotOptions {
  /** Replace FILE if it exists. */
  overwrite?: boolean
  /** Keep API tokens, provider credentials, webhook secrets, pull origins and secret settings (left out by default). */
  includeSecrets?: boolean
  /** Pseudonymise personal data: phone numbers, e-mail addresses, person names, end-user ids. */
  redact?: boolean
}

export interface SecretsLeftOut {
  tokens: number
  credentials: number
  /** Tenants' webhook signing secrets (sealed; the key file is never in a pack either). */
  webhookSecrets: number
  origins: number
  settings: number
}

export interface SnapshotResult {
  path: string
  sizeBytes: number
  /** What was left out; null with `includeSecrets`. */
  secretsLeftOut: SecretsLeftOut | null
  /** What was replaced; null without `redact`. */
  redacted: RedactionCounts | null
}

/** Settings under keys like these hold secrets (none of ours does today; a pack must not carry a future one). */
const SECRET_SETTING = /secret|token|password|passwd|credential|api[_-]?key|private[_-]?key|auth/i

/**
 * Leaves out what would let the pack's holder act as its owner: API tokens (their hashes identify
 * live tokens), provider credentials (sealed keys; the sealing key is never in the database, it is
 * `<database>.key` beside it, and no snapshot copies that file), secret settings, and the address of
 * every pulled backend (renamed to a stand-in wherever the pull recorded it). A pull's token is
 * never stored, so there is no origin credential to remove.
 */
async function leaveOutSecrets(copy: ScratchCopy, pseudonyms: Pseudonyms): Promise<SecretsLeftOut> {
  const { tokens, credentials, webhookSecrets } = await deleteSecretRows(copy.db)
  const settings = await deleteSettings(copy.db, (key) => SECRET_SETTING.test(key))
  const sources = await pullSources(copy.db)
  for (const source of sources) {
    const standIn = pseudonyms.origin(source)
    await renameSource(copy.db, source, standIn, originMentions(source, standIn))
  }
  return { tokens, credentials, webhookSecrets, origins: sources.length, settings }
}

/** The address as written, then its host (with port) alone, each with its stand-in. */
function originMentions(source: string, standIn: string): Array<[string, string]> {
  const mentions: Array<[string, string]> = [[source, standIn]]
  const host = URL.canParse(source) ? new URL(source).host : ''
  if (host) mentions.push([host, new URL(standIn).host])
  return mentions
}

/**
 * Writes a demo pack: a consistent copy of the store in one file, by default without its secrets,
 * optionally with personal data pseudonymised. Everything but a plain copy with secrets is done
 * on a working copy beside FILE, which is then written into FILE with VACUUM INTO: pages that
 * held removed data are not carried over, and the working copy is deleted whatever happens.
 */
export async function writeSnapshot(handle: Pick<WriteContext, 'sqlite' | 'path' | 'nativeBinding'>, file: string, options: SnapshotOptions = {}): Promise<SnapshotResult> {
  // --force onto the store itself would delete it before copying it.
  if (handle.path !== ':memory:' && resolve(file) === resolve(handle.path)) throw new Error(`${file} is the database being copied`)
  clearSnapshotTarget(file, options.overwrite ?? false)
  try {
    return await packInto(handle, file, options)
  } catch (error) {
    throw packFault(error, file, handle.path)
  }
}

/**
 * A full disk while packing is the pack's disk (the pack and its working copy are written there;
 * the store is only read): named by the pack's folder, not the store's. Damage is the store's (the
 * working copy is the store's pages), met by a read: named as the snapshot's failure, not as a
 * write to the store. The pack and the working copy are gone by then (vacuumInto, removeDatabaseFiles).
 */
function packFault(error: unknown, file: string, storePath: string): unknown {
  const kind = storeFaultKind(error)
  if (kind === 'damaged') {
    const reason = (error as Error).message.replace(/^SQLITE_[A-Z_]+: /, '')
    const details = { storePath, reason }
    return Object.assign(new StoreDamagedError(damagedMessage('Writing the snapshot', details, reason, 'No pack was left, and the store was only read.'), details), { cause: error })
  }
  if (kind !== 'full') return error
  const freeBytes = freeBytesBeside(file)
  const message =
    `Writing the snapshot failed: the disk holding ${dirname(file)} is full${freeBytes === null ? '' : ` (${formatBytes(freeBytes)} free)`}. ` +
    'No pack was left there, and the store was only read. Make room on that disk or choose a folder on another one, then run it again.'
  return Object.assign(new StoreFullError(message, { storePath: file, freeBytes }), { cause: error })
}

async function packInto(handle: Pick<WriteContext, 'sqlite' | 'path' | 'nativeBinding'>, file: string, options: SnapshotOptions): Promise<SnapshotResult> {
  if (options.includeSecrets && !options.redact) {
    return { ...vacuumInto(handle.sqlite, file), secretsLeftOut: null, redacted: null }
  }
  // A key for this pack alone, never stored: the stand-ins cannot be traced back.
  const pseudonyms = createPseudonyms(randomBytes(32))
  const scratch = scratchPathFor(file)
  try {
    const copy = openScratchCopy(handle, scratch)
    try {
      const secretsLeftOut = options.includeSecrets ? null : await leaveOutSecrets(copy, pseudonyms)
      const redacted = options.redact ? redactPersonalData(copy.sqlite, pseudonyms, notPeopleFrom(await agentAndTenantNames(copy.db))) : null
      refreshStatistics(copy.sqlite)
      return { ...vacuumInto(copy.sqlite, file), secretsLeftOut, redacted }
    } finally {
      await copy.close()
    }
  } finally {
    removeDatabaseFiles(scratch)
  }
}
