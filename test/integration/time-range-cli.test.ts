import BetterSqlite3 from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import { runCli } from '../helpers/cli'
import { tempDir } from '../helpers/temp-dir'

/*
 * Relative time bounds on the CLI (issue 17 pt 3): `callscope export logs --from now-24h` reads the
 * same view parameter as the console's link and the HTTP export, resolved when the export runs.
 */
describe('callscope export logs --from now-…', () => {
  const db = `${tempDir()}/recent.sqlite`
  // The demo data ending about now (its anchor), so the last hours hold lines.
  const seeded = runCli(['seed', '--db', db, '--scale', 'small', '--seed', '3', '--anchor', new Date().toISOString()])

  const readStore = <T>(read: (sqlite: BetterSqlite3.Database) => T): T => {
    const sqlite = new BetterSqlite3(db, { readonly: true })
    try {
      return read(sqlite)
    } finally {
      sqlite.close()
    }
  }
  const storedSince = (ms: number) =>
    readStore((sqlite) => sqlite.prepare('select id from call_logs where timestamp >= ? order by timestamp desc, seq desc').pluck().all(new Date(ms).toISOString()) as string[])
  const newestLineMs = () => readStore((sqlite) => Date.parse(sqlite.prepare('select max(timestamp) from call_logs').pluck().get() as string))

  it('prints the lines of the last hours as of its run', () => {
    expect(seeded.status).toBe(0)
    // The demo's newest line can be more than a day before its anchor (seed 3 anchored at 21:47 ended
    // 26 h earlier), so the window reaches 24 hours past it: the last day of lines, at any hour.
    const hours = Math.ceil((Date.now() - newestLineMs()) / 3600_000) + 24
    const before = Date.now()
    const result = runCli(['export', 'logs', '--db', db, '--from', `now-${hours}h`, '--format', 'ndjson'])
    const after = Date.now()
    expect(result.stderr).toBe('')
    expect(result.status).toBe(0)
    const ids = result.stdout.trim().split('\n').map((l) => (JSON.parse(l) as { id: string }).id)
    // Resolved at some instant of the run: every line since its end is in, none from before its start.
    const surely = storedSince(after - hours * 3600_000)
    const atMost = storedSince(before - hours * 3600_000)
    expect(surely.length).toBeGreaterThan(10)
    expect(ids.slice(0, surely.length)).toEqual(surely)
    expect(atMost.slice(0, ids.length)).toEqual(ids)
  }, 60_000)

  it('refuses a relative range that ends before it starts, and a bound it cannot read, as usage errors', () => {
    const reversed = runCli(['export', 'logs', '--db', db, '--from', 'now-1h', '--to', 'now-2h'])
    expect(reversed.status).toBe(2)
    expect(reversed.stderr).toContain("error: option '--to': The range ends before it starts")
    const bad = runCli(['export', 'logs', '--db', db, '--from', 'now-2x'])
    expect(bad.status).toBe(2)
    expect(bad.stderr).toContain("error: option '--from': Expected an ISO 8601 date (2026-11-01), a date-time (2026-11-01T09:30:00Z) or a time relative to now (now-15m, now-24h, now-7d)")
  }, 60_000)
})
