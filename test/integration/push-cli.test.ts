import { copyFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, inject, it } from 'vitest'
import { runCliAsync, startServe } from '../helpers/cli'
import { describePushTo } from '../helpers/push-scenario'
import { selfSignedCertificate } from '../helpers/self-signed'
import { tempDir } from '../helpers/temp-dir'

/** `callscope push` to a real `callscope serve` on SQLite (issue 20 pt 4); PostgreSQL: test/pg/push.test.ts. */
describePushTo('sqlite')

describe('callscope push over TLS', () => {
  it('pushes to an HTTPS team server whose certificate --ca names, and says what to do without it', async () => {
    const dir = tempDir()
    const tls = selfSignedCertificate()
    const laptop = join(dir, 'laptop.sqlite')
    copyFileSync(inject('demoTemplate'), laptop)
    const server = await startServe(['--db', join(dir, 'team.sqlite'), '--no-seed', '--tls-cert', tls.certFile, '--tls-key', tls.keyFile], { CALLSCOPE_TOKEN: 'tls-team-token' })
    try {
      expect(server.url).toMatch(/^https:\/\//)
      const untrusted = await runCliAsync(['push', '--to', server.url, '--db', laptop], { CALLSCOPE_TEAM_TOKEN: 'tls-team-token' })
      expect(untrusted.status).toBe(1)
      expect(untrusted.stderr).toContain(`The certificate of ${server.url} is not trusted (`)
      expect(untrusted.stderr).toContain("give the server's certificate (PEM) with --ca FILE")

      const pushed = await runCliAsync(['push', '--to', server.url, '--ca', tls.certFile, '--db', laptop], { CALLSCOPE_TEAM_TOKEN: 'tls-team-token' })
      expect(pushed.stderr).toBe('')
      expect(pushed.status).toBe(0)
      const logs = await runCliAsync(['db', 'info', '--db', laptop, '--json'])
      const count = (JSON.parse(logs.stdout) as { counts: Record<string, number> }).counts.call_logs!
      expect(pushed.stdout).toContain(`  local: ${count.toLocaleString('en-US')} of ${count.toLocaleString('en-US')} call logs sent: ${count.toLocaleString('en-US')} new on the server`)

      const missing = await runCliAsync(['push', '--to', server.url, '--ca', join(dir, 'nope.pem'), '--db', laptop], { CALLSCOPE_TEAM_TOKEN: 'tls-team-token' })
      expect(missing.status).toBe(2)
      expect(missing.stderr).toContain(`--ca ${join(dir, 'nope.pem')}: no such file`)
    } finally {
      await server.stop()
    }
  }, 180_000)
})
