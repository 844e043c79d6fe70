import { existsSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import { describe, expect, it } from 'vitest'
import { startServe } from '../helpers/cli'
import { tempDir } from '../helpers/temp-dir'

describe('callscope serve', () => {
  const dir = tempDir()

  it('creates and seeds a new database, prints an admin token once, serves, and stops cleanly', async () => {
    const db = `${dir}/first.sqlite`
    const server = await startServe(['--db', db])
    try {
      expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
      expect(server.banner).toContain(`Database: ${db} (new); writes on the writer thread, reads on ${availableParallelism()} reader thread`)
      expect(server.banner).toMatch(/Seeded demo data: 3 tenants/)
      const token = /Admin token \(shown once[^)]*\): (cs_\S+)/.exec(server.banner)?.[1]
      expect(token).toBeDefined()

      const health = await fetch(`${server.url}/healthz`)
      expect(health.status).toBe(200)
      expect(await health.json()).toEqual({ status: 'ok', version: expect.any(String) })

      const anonymous = await fetch(`${server.url}/tenants/11111111-1111-4111-8111-111111111111`)
      expect(anonymous.status).toBe(401)
      expect(anonymous.headers.get('www-authenticate')).toBe('Bearer')
      expect(await anonymous.json()).toEqual({ detail: 'Not authenticated' })

      // The console sign-in link carries a token that works for this run only and is never stored.
      const link = /Console \(sign-in link for this run\): (http:\/\/\S+\/console\/#token=(cs_session_\S+))/.exec(server.banner)
      expect(link).not.toBeNull()
      expect(link![1]!.startsWith(`${server.url}/console/`)).toBe(true)
      const viaLink = await fetch(`${server.url}/trpc/tokens.whoami`, { headers: { Authorization: `Bearer ${link![2]}` } })
      expect(await viaLink.json()).toEqual({ result: { data: { role: 'admin', tenantId: null } } })

      const authed = await fetch(`${server.url}/tenants/11111111-1111-4111-8111-111111111111`, { headers: { Authorization: `Bearer ${token}` } })
      expect(authed.status).toBe(404)
      expect(await authed.json()).toEqual({ detail: 'Tenant not found' })
    } finally {
      expect(await server.stop()).toBe(0)
    }
    // A clean close checkpoints and removes the WAL.
    expect(existsSync(`${db}-wal`)).toBe(false)
    const { runCli } = await import('../helpers/cli')
    expect(runCli(['token', 'list', '--db', db, '--json']).stdout).not.toContain('cs_session_')

    const second = await startServe(['--db', db, '--readers', '0'])
    try {
      expect(second.banner).toContain(`Database: ${db}; every query on the main thread`)
      expect(await fetch(`${second.url}/healthz`).then((r) => r.status)).toBe(200)
      expect(second.banner).not.toContain('(new)')
      expect(second.banner).not.toMatch(/Admin token \(shown once/)
      expect(second.banner).not.toMatch(/Seeded/)
    } finally {
      expect(await second.stop()).toBe(0)
    }
  })

  it('accepts CALLSCOPE_TOKEN as an admin token and creates none of its own', async () => {
    const server = await startServe(['--db', `${dir}/env.sqlite`, '--no-seed'], { CALLSCOPE_TOKEN: 'env-secret-token' })
    try {
      expect(server.banner).toContain('Admin token: taken from CALLSCOPE_TOKEN')
      expect(server.banner).not.toMatch(/Admin token \(shown once/)
      expect(server.banner).not.toMatch(/Seeded/)
      const wrong = await fetch(`${server.url}/tenants/11111111-1111-4111-8111-111111111111`, { headers: { Authorization: 'Bearer nope' } })
      expect(wrong.status).toBe(401)
      const right = await fetch(`${server.url}/tenants/11111111-1111-4111-8111-111111111111`, { headers: { Authorization: 'bearer env-secret-token' } })
      expect(right.status).toBe(404)
    } finally {
      expect(await server.stop()).toBe(0)
    }
  })

  it('reports a port already in use in one line and exits 1', async () => {
    const first = await startServe(['--db', `${dir}/busy.sqlite`, '--no-seed'])
    try {
      const port = new URL(first.url).port
      const { runCli } = await import('../helpers/cli')
      const clash = runCli(['serve', '--db', `${dir}/busy2.sqlite`, '--no-seed', '--port', port])
      expect(clash.status).toBe(1)
      expect(clash.stderr).toMatch(new RegExp(`callscope: error: port ${port} on 127.0.0.1 is already in use`))
    } finally {
      await first.stop()
    }
  })
})
