import Database from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import { runCli } from '../helpers/cli'
import { tempDir } from '../helpers/temp-dir'
import type { TokenListing } from '../../src-main/modules/tokens/tokens.service'

const DAY_MS = 86_400_000

describe('callscope token create --expires', () => {
  const db = `${tempDir()}/tokens.sqlite`
  const list = () => JSON.parse(runCli(['token', 'list', '--db', db, '--json']).stdout) as TokenListing[]

  it('prints the expiry of a token that lives 30 days, and lists it', () => {
    const created = runCli(['token', 'create', '--db', db, '--name', 'month', '--expires', '30d'])
    expect(created.status).toBe(0)
    expect(created.stdout.trim()).toMatch(/^cs_[A-Za-z0-9_-]{32}$/)
    const month = list().find((t) => t.name === 'month')!
    expect(Date.parse(month.expires_at!) - Date.parse(month.created_at)).toBe(30 * DAY_MS)
    expect(month.status).toBe('active')
    const shown = `${month.expires_at!.slice(0, 19).replace('T', ' ')} UTC`
    expect(created.stderr).toContain(`expires ${shown}). It is shown only this once.`)
  })

  it('makes tokens that never expire unless told, and says so', () => {
    const created = runCli(['token', 'create', '--db', db, '--name', 'forever'])
    expect(created.stderr).toContain('never expires')
    expect(list().find((t) => t.name === 'forever')).toMatchObject({ expires_at: null, status: 'active' })
  })

  it('shows each expiry and whether it has passed in the table', () => {
    runCli(['token', 'create', '--db', db, '--name', 'stale', '--expires', '2099-01-31'])
    // Moved into the past instead of waiting: created two days ago, expired yesterday.
    const sqlite = new Database(db)
    const now = Date.now()
    sqlite
      .prepare("update api_tokens set created_at = ?, expires_at = ? where name = 'stale'")
      .run(new Date(now - 2 * DAY_MS).toISOString(), new Date(now - DAY_MS).toISOString())
    sqlite.close()
    const table = runCli(['token', 'list', '--db', db])
    expect(table.status).toBe(0)
    expect(table.stdout).toContain('expires (UTC)')
    const row = (name: string) => table.stdout.split('\n').find((line) => line.includes(`'${name}'`))!
    expect(row('stale')).toContain(`'${new Date(now - DAY_MS).toISOString().slice(0, 19).replace('T', ' ')}'`)
    expect(row('stale')).toMatch(/'expired'/)
    expect(row('forever')).toMatch(/'never'\s*│\s*'active'/)
    expect(list().find((t) => t.name === 'stale')!.status).toBe('expired')
  })

  // The grammar itself is tested in src-shared/token-lifetime.test.ts; here, that the CLI refuses before creating anything.
  it.each([
    ['30 days', /argument '30 days' is invalid\. Expected "never", a duration such as 12h, 30d, 2w or 1y/],
    ['2020-01-01', /argument '2020-01-01' is invalid\. The expiry must be in the future\./],
  ])('refuses --expires %j with a one-line error and exit code 2, printing no token', (value, message) => {
    const result = runCli(['token', 'create', '--db', db, '--name', 'bad', '--expires', value])
    expect(result.status).toBe(2)
    expect(result.stderr).toMatch(message)
    expect(result.stderr.trim().split('\n')).toHaveLength(1)
    expect(result.stdout).toBe('')
  })

  it('stored none of the refused tokens', () => {
    expect(list().map((t) => t.name)).not.toContain('bad')
  })
})
