import { existsSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { migrations } from '../../src-main/db/migrations'
import { runCli } from '../helpers/cli'
import { tempDir } from '../helpers/temp-dir'

describe('callscope CLI', () => {
  const dir = tempDir()
  const db = `${dir}/cli.sqlite`

  it.each([[[]], [['serve']], [['seed']], [['token']], [['token', 'create']], [['token', 'list']], [['token', 'revoke']], [['db']], [['db', 'info']], [['push']]])(
    'prints help for %j with --help and exits 0',
    (command) => {
      const result = runCli([...command, '--help'])
      expect(result.status).toBe(0)
      expect(result.stdout).toMatch(/^Usage: callscope/)
    },
  )

  it.each([
    [['frobnicate'], /unknown command 'frobnicate'/],
    [['serve', '--port', 'http'], /expected a port number/],
    [['serve', '--port', '70000'], /expected a port number/],
    [['seed', '--scale', 'huge'], /Allowed choices are small, medium, large, team\./],
    [['seed', '--seed', '-3'], /expected a non-negative integer|unknown option/],
    [['seed', '--anchor', 'yesterday-ish'], /expected an ISO 8601 date/],
    [['token', 'create'], /required option '-n, --name <name>' not specified/],
    [['token', 'create', '--name', 'x', '--role', 'root'], /Allowed choices are admin, viewer, tenant/],
    [['token', 'revoke'], /missing required argument/],
    [['db', 'info', '--verbose'], /unknown option '--verbose'/],
    [['push', '--token', 't'], /required option '--to <url>' not specified/],
    [['push', '--to', 'http://127.0.0.1:1', '--token', 't', '--chunk', '0'], /expected a positive integer/],
  ])('rejects %j with a one-line error and exit code 2', (args, message) => {
    const result = runCli(args)
    expect(result.status).toBe(2)
    expect(result.stderr).toMatch(message)
    expect(result.stderr.trim().split('\n')).toHaveLength(1)
  })

  it.each([
    [['db', 'info']],
    [['export', 'logs', '--query', 'imeout']],
    [['snapshot', 'SNAPSHOT']],
    [['push', '--to', 'http://127.0.0.1:1', '--token', 't']],
    [['tail']],
  ])('refuses %j on a store that is not there with exit 1, and creates nothing', (args) => {
    const missing = `${dir}/missing.sqlite`
    const result = runCli([...args.map((a) => (a === 'SNAPSHOT' ? `${dir}/snap.sqlite` : a)), '--db', missing])
    expect(result.status).toBe(1)
    expect(result.stderr).toContain(`no store at ${missing}: give --db, or start the app or \`callscope serve\` once to create it`)
    expect(existsSync(missing)).toBe(false)
    expect(existsSync(`${dir}/snap.sqlite`)).toBe(false)
  })

  it('seeds, reports with db info, and refuses to seed twice without --reset', () => {
    const seed = runCli(['seed', '--db', db, '--scale', 'small', '--seed', '5', '--anchor', '2026-11-20T12:00:00Z'])
    expect(seed.status).toBe(0)
    const logs = Number(/([\d,]+) call logs/.exec(seed.stdout)![1]!.replace(/,/g, ''))
    expect(logs).toBeGreaterThanOrEqual(20_000)
    const info = runCli(['db', 'info', '--db', db, '--json'])
    expect(info.status).toBe(0)
    const parsed = JSON.parse(info.stdout)
    const names = Object.keys(migrations)
    expect(parsed).toMatchObject({ path: db, schema: { current: names.at(-1), applied: names.length, available: names.length } })
    expect(parsed.counts).toMatchObject({ tenants: 3, agents: 15, call_logs: logs })
    expect(parsed.sizeBytes).toBeGreaterThan(1_000_000)
    const again = runCli(['seed', '--db', db])
    expect(again.status).toBe(1)
    expect(again.stderr).toMatch(/already holds data; pass --reset/)
    const text = runCli(['db', 'info', '--db', db])
    expect(text.stdout).toContain(`Schema:  ${names.at(-1)} (${names.length} of ${names.length} migrations)`)
    expect(text.stdout).toMatch(/call_logs\s+[\d,]+/)
  })

  it('creates, lists and revokes tokens', () => {
    const created = runCli(['token', 'create', '--db', db, '--name', 'laptop', '--role', 'admin'])
    expect(created.status).toBe(0)
    const token = created.stdout.trim()
    expect(token).toMatch(/^cs_/)
    const listed = JSON.parse(runCli(['token', 'list', '--db', db, '--json']).stdout) as Array<Record<string, unknown>>
    const entry = listed.find((t) => t.name === 'laptop')!
    expect(entry).toMatchObject({ role: 'admin', revoked_at: null, token_prefix: token.slice(0, 10) })
    expect(JSON.stringify(listed)).not.toContain(token)
    const revoked = runCli(['token', 'revoke', '--db', db, token.slice(0, 10)])
    expect(revoked.status).toBe(0)
    const after = JSON.parse(runCli(['token', 'list', '--db', db, '--json']).stdout) as Array<Record<string, unknown>>
    expect(after.find((t) => t.name === 'laptop')!.revoked_at).not.toBeNull()
    const unknown = runCli(['token', 'revoke', '--db', db, 'nothing-like-this'])
    expect(unknown.status).toBe(1)
    expect(unknown.stderr).toMatch(/no token matches/)
  })

  it('binds a token to one source, and refuses a source the store does not have', () => {
    const bound = runCli(['token', 'create', '--db', db, '--name', 'own data', '--source', 'local'])
    expect(bound.status).toBe(0)
    const listed = JSON.parse(runCli(['token', 'list', '--db', db, '--json']).stdout) as Array<Record<string, unknown>>
    expect(listed.find((t) => t.name === 'own data')).toMatchObject({ role: 'viewer', source: '' })
    expect(listed.find((t) => t.name === 'laptop')).toMatchObject({ source: null })
    const unknown = runCli(['token', 'create', '--db', db, '--name', 'x', '--source', 'http://nowhere:1'])
    expect(unknown.status).toBe(1)
    expect(unknown.stderr).toMatch(/--source: Unknown source 'http:\/\/nowhere:1': this store has 'local'/)
    expect((JSON.parse(runCli(['token', 'list', '--db', db, '--json']).stdout) as unknown[]).length).toBe(listed.length)
  })
})
