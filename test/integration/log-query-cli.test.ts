import BetterSqlite3 from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import { runCli } from '../helpers/cli'
import { tempDir } from '../helpers/temp-dir'

/*
 * Issue 17's "done when": `callscope export logs --query 'imeout OR "rate limit"' --format ndjson`
 * returns the matching lines of the demo data, as the real CLI prints them.
 */
describe('callscope export logs --query', () => {
  const dir = tempDir()
  const db = `${dir}/demo.sqlite`
  const seeded = runCli(['seed', '--db', db, '--scale', 'small', '--seed', '7', '--anchor', '2026-11-20T12:00:00Z'])

  /** The demo's lines, newest first, as stored: what the query is checked against, line by line. */
  const stored = () => {
    const sqlite = new BetterSqlite3(db, { readonly: true })
    try {
      return sqlite.prepare('select id, message, log_level from call_logs order by timestamp desc, seq desc').all() as Array<{ id: string; message: string; log_level: string }>
    } finally {
      sqlite.close()
    }
  }

  it('prints exactly the demo lines holding "imeout" anywhere or the words "rate limit", newest first', () => {
    expect(seeded.status).toBe(0)
    const result = runCli(['export', 'logs', '--db', db, '--query', 'imeout OR "rate limit"', '--format', 'ndjson'])
    expect(result.stderr).toBe('')
    expect(result.status).toBe(0)
    const lines = result.stdout.trim().split('\n').map((l) => JSON.parse(l) as { id: string; message: string })
    const ratePhrase = /(^|[^\p{L}\p{N}])rate[^\p{L}\p{N}]+limit($|[^\p{L}\p{N}])/iu
    const expected = stored().filter((r) => /imeout/i.test(r.message) || ratePhrase.test(r.message)).map((r) => r.id)
    expect(expected.length).toBeGreaterThan(5)
    expect(lines.map((l) => l.id)).toEqual(expected)
    expect(lines.some((l) => /timeout/i.test(l.message))).toBe(true)
  }, 60_000)

  it('takes fields and NOT beside text, as the console does', () => {
    const result = runCli(['export', 'logs', '--db', db, '--query', 'level:error -imeout', '--format', 'ndjson'])
    expect(result.status).toBe(0)
    const ids = result.stdout.trim().split('\n').map((l) => (JSON.parse(l) as { id: string }).id)
    expect(ids).toEqual(stored().filter((r) => r.log_level === 'error' && !/imeout/i.test(r.message)).map((r) => r.id))
  }, 60_000)

  it('refuses a query that does not parse as a usage error, pointing at the problem', () => {
    const result = runCli(['export', 'logs', '--db', db, '--query', 'level:error (imeout'])
    expect(result.status).toBe(2)
    expect(result.stdout).toBe('')
    expect(result.stderr).toContain("error: option '--query': This ( is never closed (at column 13). Add a ) after the terms it groups, or remove it")
    expect(result.stderr).toContain('\n  level:error (imeout\n              ^')
  }, 60_000)
})
