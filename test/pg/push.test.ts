import { Readable } from 'node:stream'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { runCliAsync, startServe } from '../helpers/cli'
import { createPgDatabase } from '../helpers/pg-database'
import { describePushTo } from '../helpers/push-scenario'
import { tempDir } from '../helpers/temp-dir'
import { startTestServer } from '../helpers/test-server'

/** `callscope push` to a real `callscope serve --db postgres://…` (issue 20 pt 4), the scenario of test/integration/push-cli.test.ts. */
describePushTo('postgres')

describe('callscope push of a record a PostgreSQL server cannot hold', () => {
  it('counts it refused, names it by its id on the laptop with the server\'s reason, and stores the rest', async () => {
    const dir = tempDir()
    const laptop = await startTestServer({ seed: false })
    const team = await startServe(['--db', await createPgDatabase({ seed: false }), '--no-seed'], { CALLSCOPE_TOKEN: 'pg-team-token', CALLSCOPE_KEY_FILE: join(dir, 'team.key') })
    try {
      const id = (n: number) => `00000000-0000-4000-8000-00000000000${n}`
      const record = (n: number, message: string) => JSON.stringify({ id: id(n), tenant_id: id(0), log_type: 'call', log_level: 'info', message, timestamp: `2026-11-02T08:00:0${n}.000Z` })
      // SQLite stores U+0000; PostgreSQL text cannot.
      const imported = await laptop.service.imports.importCallLogs(Readable.from([[record(1, 'first'), record(2, 'a \u0000 inside'), record(3, 'third')].join('\n')]), { source: 'nul.ndjson', format: 'ndjson' })
      expect(imported).toMatchObject({ inserted: 3, invalid: 0 })
      const push = () => runCliAsync(['push', '--to', team.url, '--db', laptop.dbPath], { CALLSCOPE_TEAM_TOKEN: 'pg-team-token' })

      const first = await push()
      expect(first.status).toBe(0)
      expect(first.stdout).toContain('  local: 3 of 3 call logs sent: 2 new on the server, 0 already there, 1 refused (1 upload)')
      expect(first.stderr).toBe(`Refused by the server:\n  local ${id(2)}: message: contains the character U+0000 (NUL), which a PostgreSQL store cannot hold\n`)
      const listed = await fetch(`${team.url}/logs/calls?start_date=2026-11-02&end_date=2026-11-02`, { headers: { Authorization: 'Bearer pg-team-token' } })
      expect(((await listed.json()) as Array<{ id: string }>).map((r) => r.id)).toEqual([id(3), id(1)])

      // Again: from the refused record on (the one before it is where the first push got to): it is
      // refused again, saying why, so it is not "nothing new"; the one after it is there already.
      const again = await push()
      expect(again.status).toBe(0)
      expect(again.stdout).toContain('  local: 2 of 3 call logs sent, 1 pushed there before and not sent again: 0 new on the server, 1 already there, 1 refused (1 upload)')
      expect(again.stderr).toBe(first.stderr)
      expect(again.stdout).not.toContain('Nothing new')
    } finally {
      await team.stop()
      await laptop.close()
    }
  }, 120_000)
})
