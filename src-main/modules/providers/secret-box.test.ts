import { readFileSync, statSync, existsSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { tempDir } from '../../../test/helpers/temp-dir'
import { createFileSecretBox, createMemorySecretBox, SecretBoxError } from './secret-box'

const SECRET = 'sk-proj-THIS-IS-THE-SECRET-0123456789'

describe('secret boxes', () => {
  const dir = tempDir()

  it('round-trips through AES-256-GCM and never holds the plaintext in the sealed text', async () => {
    const box = createMemorySecretBox()
    const sealed = await box.seal(SECRET, 'ctx')
    expect(sealed).toMatch(/^aesgcm1:/)
    expect(sealed).not.toContain(SECRET)
    expect(await box.open(sealed, 'ctx')).toBe(SECRET)
    // A fresh IV each time.
    expect(await box.seal(SECRET, 'ctx')).not.toBe(sealed)
  })

  it('binds the context: a secret moved to another row does not open', async () => {
    const box = createMemorySecretBox()
    const sealed = await box.seal(SECRET, 'provider_credentials:stt:deepgram')
    await expect(box.open(sealed, 'provider_credentials:stt:openai')).rejects.toBeInstanceOf(SecretBoxError)
  })

  it('rejects tampered or foreign ciphertext', async () => {
    const box = createMemorySecretBox()
    const sealed = await box.seal(SECRET, 'c')
    const parts = sealed.split(':')
    parts[3] = Buffer.from('tampered').toString('base64url')
    await expect(box.open(parts.join(':'), 'c')).rejects.toThrow(/cannot be decrypted/)
    await expect(box.open('safestorage1:xyz', 'c')).rejects.toThrow(/another scheme/)
  })

  it('creates the key file on first seal only, mode 0600, and reuses it', async () => {
    const keyFile = join(dir, 'a.sqlite.key')
    const box = createFileSecretBox(keyFile)
    await expect(box.open('aesgcm1:a:b:c', 'c')).rejects.toThrow(/missing/)
    expect(existsSync(keyFile)).toBe(false)
    const sealed = await box.seal(SECRET, 'c')
    expect(existsSync(keyFile)).toBe(true)
    if (process.platform !== 'win32') expect(statSync(keyFile).mode & 0o777).toBe(0o600)
    expect(readFileSync(keyFile, 'utf8')).not.toContain(SECRET)
    // Another process (a new box over the same file) opens it.
    expect(await createFileSecretBox(keyFile).open(sealed, 'c')).toBe(SECRET)
  })

  it('cannot open with a replaced key file', async () => {
    const keyFile = join(dir, 'b.sqlite.key')
    const sealed = await createFileSecretBox(keyFile).seal(SECRET, 'c')
    writeFileSync(keyFile, `${Buffer.alloc(32, 7).toString('base64')}\n`)
    await expect(createFileSecretBox(keyFile).open(sealed, 'c')).rejects.toThrow(/cannot be decrypted/)
    writeFileSync(keyFile, 'short')
    await expect(createFileSecretBox(keyFile).open(sealed, 'c')).rejects.toThrow(/damaged/)
  })
})
