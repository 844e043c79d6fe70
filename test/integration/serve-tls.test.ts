import { request as httpsRequest } from 'node:https'
import { request as httpRequest } from 'node:http'
import { copyFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { runCli, startServe, type ServeProcess } from '../helpers/cli'
import { selfSignedCertificate, type SelfSigned } from '../helpers/self-signed'
import { tempDir } from '../helpers/temp-dir'

const TOKEN = 'tls-test-admin-token'

/** One GET over HTTPS; `ca` is what the client trusts. Resolves with the status and body, or rejects with the client's error. */
function get(url: string, ca: string | undefined, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpsRequest(url, { ca, headers }, (res) => {
      let body = ''
      res.setEncoding('utf8')
      res.on('data', (chunk) => (body += chunk))
      res.on('end', () => resolve({ status: res.statusCode!, body }))
    })
    req.on('error', reject)
    req.end()
  })
}

describe('callscope serve --tls-cert --tls-key', () => {
  const dir = tempDir()
  let tls: SelfSigned
  let server: ServeProcess

  beforeAll(async () => {
    tls = selfSignedCertificate()
    const db = join(dir, 'team.sqlite')
    copyFileSync(inject('demoTemplate'), db)
    server = await startServe(['--db', db, '--tls-cert', tls.certFile, '--tls-key', tls.keyFile], { CALLSCOPE_TOKEN: TOKEN })
  })
  afterAll(async () => {
    await server?.stop()
  })

  it('listens on an https URL and answers the spec operations to a client that trusts its certificate', async () => {
    expect(server.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/)
    expect(server.banner).toContain(`Console (sign-in link for this run): ${server.url}/console/#token=`)
    const health = await get(`${server.url}/healthz`, tls.cert)
    expect(health.status).toBe(200)
    const logs = await get(`${server.url}/logs/calls?limit=2`, tls.cert, { authorization: `Bearer ${TOKEN}` })
    expect(logs.status).toBe(200)
    expect(JSON.parse(logs.body)).toHaveLength(2)
  })

  it('is refused by a client that does not trust the certificate', async () => {
    await expect(get(`${server.url}/healthz`, undefined)).rejects.toMatchObject({ code: 'DEPTH_ZERO_SELF_SIGNED_CERT' })
  })

  it('gives a plain HTTP client no answer at all: nothing travels in clear text', async () => {
    const outcome = await new Promise<string>((resolve) => {
      const req = httpRequest(server.url.replace('https:', 'http:') + '/healthz', { headers: { authorization: `Bearer ${TOKEN}` } }, (res) => resolve(`answered ${res.statusCode}`))
      req.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message))
      req.end()
    })
    expect(outcome).not.toMatch(/^answered 2/)
    expect(outcome).toMatch(/ECONNRESET|socket hang up|HPE_|answered 400/)
  })
})

describe('serve refuses to start with TLS settings it cannot use, saying what to do', () => {
  const dir = tempDir()

  it('refuses a non-loopback address without TLS unless --insecure-http is given', () => {
    const refused = runCli(['serve', '--db', join(dir, 'a.sqlite'), '--host', '0.0.0.0', '--port', '0'])
    expect(refused.status).toBe(1)
    expect(refused.stderr).toContain('listening on 0.0.0.0 would carry tokens over the network in clear text: give --tls-cert and --tls-key')
    expect(refused.stdout).not.toContain('Listening on')
  })

  it('refuses one of the two files alone, a missing file and a key that is not the certificate\'s', () => {
    const tls = selfSignedCertificate()
    const other = selfSignedCertificate()
    const db = join(dir, 'b.sqlite')
    expect(runCli(['serve', '--db', db, '--tls-cert', tls.certFile]).stderr).toContain('give both --tls-cert and --tls-key, or neither')
    expect(runCli(['serve', '--db', db, '--tls-cert', join(dir, 'nope.pem'), '--tls-key', tls.keyFile]).stderr).toContain(`--tls-cert ${join(dir, 'nope.pem')}: no such file`)
    const mismatched = runCli(['serve', '--db', db, '--tls-cert', tls.certFile, '--tls-key', other.keyFile])
    expect(mismatched.status).toBe(1)
    expect(mismatched.stderr).toContain('--tls-cert and --tls-key cannot be used together')
    const garbage = join(dir, 'garbage.pem')
    writeFileSync(garbage, 'not a certificate')
    expect(runCli(['serve', '--db', db, '--tls-cert', garbage, '--tls-key', tls.keyFile]).stderr).toContain('--tls-cert and --tls-key cannot be used together')
  })
})
