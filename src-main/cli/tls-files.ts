import { readFileSync } from 'node:fs'
import { createSecureContext } from 'node:tls'

/**
 * `--tls-cert` and `--tls-key` read and checked before anything starts, so a wrong path or a key
 * that does not match its certificate is one clear line, not a server that refuses every handshake.
 */
export function readTlsFiles(certPath: string | undefined, keyPath: string | undefined): { cert: Buffer; key: Buffer } | null {
  if (certPath === undefined && keyPath === undefined) return null
  if (certPath === undefined || keyPath === undefined) throw new Error('give both --tls-cert and --tls-key, or neither')
  const read = (path: string, flag: string) => {
    try {
      return readFileSync(path)
    } catch (error) {
      throw new Error(`${flag} ${path}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message}`)
    }
  }
  const tls = { cert: read(certPath, '--tls-cert'), key: read(keyPath, '--tls-key') }
  try {
    createSecureContext(tls)
  } catch (error) {
    throw new Error(`--tls-cert and --tls-key cannot be used together: ${(error as Error).message} (both PEM; the key must be the certificate's)`)
  }
  return tls
}
