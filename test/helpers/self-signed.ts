import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { tempDir } from './temp-dir'

export interface SelfSigned {
  certFile: string
  keyFile: string
  /** The certificate's PEM: a client trusts the server by giving it as its CA. */
  cert: string
  key: string
}

/** A certificate for 127.0.0.1 and localhost, made by this test with openssl, valid for a day. */
export function selfSignedCertificate(): SelfSigned {
  const dir = tempDir('callscope-tls-')
  const certFile = join(dir, 'cert.pem')
  const keyFile = join(dir, 'key.pem')
  execFileSync('openssl', [
    'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes',
    '-keyout', keyFile, '-out', certFile, '-days', '1', '-subj', '/CN=callscope-test',
    '-addext', 'subjectAltName=IP:127.0.0.1,DNS:localhost',
  ], { stdio: 'ignore' })
  return { certFile, keyFile, cert: readFileSync(certFile, 'utf8'), key: readFileSync(keyFile, 'utf8') }
}
