import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto'
import { chmodSync, closeSync, mkdirSync, openSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs'
import { dirname } from 'node:path'
import { toStoreFault } from '../../db/store-faults'

/**
 * Seals provider secrets before they reach the store. The headless service uses AES-256-GCM with a
 * random key in a file next to the database; the desktop app can pass an implementation over
 * Electron's safeStorage (OS keychain) instead. `context` is bound to the ciphertext (GCM additional
 * data) so a sealed secret copied onto another provider's row does not open.
 */
export interface SecretBox {
  /** What protects the secrets, for `provider list` and diagnostics. */
  readonly description: string
  seal(plaintext: string, context: string): Promise<string>
  open(sealed: string, context: string): Promise<string>
}

export class SecretBoxError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'SecretBoxError'
  }
}

const FORMAT = 'aesgcm1'
const KEY_BYTES = 32
const IV_BYTES = 12

function aesGcmBox(getKey: () => Buffer, description: string): SecretBox {
  return {
    description,
    async seal(plaintext, context) {
      const iv = randomBytes(IV_BYTES)
      const cipher = createCipheriv('aes-256-gcm', getKey(), iv)
      cipher.setAAD(Buffer.from(context, 'utf8'))
      const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()])
      const parts = [iv, cipher.getAuthTag(), body].map((b) => b.toString('base64url'))
      return `${FORMAT}:${parts.join(':')}`
    },
    async open(sealed, context) {
      const [format, iv, tag, body, ...rest] = sealed.split(':')
      if (format !== FORMAT || !iv || !tag || body === undefined || rest.length > 0) {
        throw new SecretBoxError('the stored secret was sealed by another scheme or is damaged')
      }
      try {
        const decipher = createDecipheriv('aes-256-gcm', getKey(), Buffer.from(iv, 'base64url'))
        decipher.setAAD(Buffer.from(context, 'utf8'))
        decipher.setAuthTag(Buffer.from(tag, 'base64url'))
        return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8')
      } catch (error) {
        if (error instanceof SecretBoxError) throw error
        throw new SecretBoxError('the stored secret cannot be decrypted: the key file is missing, was replaced, or the secret is damaged')
      }
    },
  }
}

/** For `:memory:` stores and tests: a random key that lives as long as the process. */
export function createMemorySecretBox(): SecretBox {
  const key = randomBytes(KEY_BYTES)
  return aesGcmBox(() => key, 'aes-256-gcm, key in memory')
}

/**
 * AES-256-GCM with a random 256-bit key kept in `keyFile` (base64, mode 0600). The file is created
 * the first time a secret is sealed, never on reads, so inspecting a database leaves no trace.
 */
export function createFileSecretBox(keyFile: string): SecretBox {
  let cached: Buffer | null = null

  function readKey(): Buffer | null {
    let text: string
    try {
      text = readFileSync(keyFile, 'utf8')
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null
      throw new SecretBoxError(`cannot read the key file ${keyFile}: ${(error as Error).message}`)
    }
    const key = Buffer.from(text.trim(), 'base64')
    if (key.length !== KEY_BYTES) throw new SecretBoxError(`the key file ${keyFile} is damaged (expected ${KEY_BYTES} bytes)`)
    tightenMode()
    return key
  }

  function tightenMode(): void {
    if (process.platform === 'win32') return
    try {
      if ((statSync(keyFile).mode & 0o077) !== 0) chmodSync(keyFile, 0o600)
    } catch {
      // Best effort: a read-only mount still lets the key be used.
    }
  }

  function createKey(): Buffer {
    const key = randomBytes(KEY_BYTES)
    mkdirSync(dirname(keyFile), { recursive: true })
    let fd: number
    try {
      fd = openSync(keyFile, 'wx', 0o600)
    } catch (error) {
      // Another process created it first: use theirs.
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') return readKey()!
      throw keyFileFault(error)
    }
    try {
      writeSync(fd, `${key.toString('base64')}\n`)
      closeSync(fd)
      return key
    } catch (error) {
      // Ours and cut short (a full disk): an empty key file would read as damaged for good.
      closeSync(fd)
      rmSync(keyFile, { force: true })
      throw keyFileFault(error)
    }
  }

  /** A full disk named as the store's fault (507 and what to do); anything else as the box's. */
  function keyFileFault(error: unknown): Error {
    const fault = toStoreFault(error, keyFile, 'Creating the key file that seals secrets')
    return fault !== error ? (fault as Error) : new SecretBoxError(`cannot create the key file ${keyFile}: ${(error as Error).message}`)
  }

  const keyForOpen = (): Buffer => {
    cached ??= readKey()
    if (!cached) throw new SecretBoxError(`the stored secret cannot be decrypted: the key file ${keyFile} is missing`)
    return cached
  }
  const keyForSeal = (): Buffer => (cached ??= readKey() ?? createKey())

  const forOpen = aesGcmBox(keyForOpen, `aes-256-gcm, key file ${keyFile}`)
  const forSeal = aesGcmBox(keyForSeal, forOpen.description)
  return { description: forOpen.description, seal: forSeal.seal, open: forOpen.open }
}
