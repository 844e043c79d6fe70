import { execFileSync } from 'node:child_process'
import { join } from 'node:path'
import pg from 'pg'
import { describe, expect, it } from 'vitest'
import { runCli } from '../helpers/cli'
import { createPgDatabase } from '../helpers/pg-database'
import { tempDir } from '../helpers/temp-dir'

/*
 * Issue 36, point 4 on PostgreSQL: `callscope backup` says to use pg_dump and shows the commands
 * with the store's URL minus its password; the commands it shows are then run as shown, and the
 * restore brings back the rows of dump time.
 */

const dir = tempDir('callscope-pg-backup-')

async function counts(url: string): Promise<Record<string, number>> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    const out: Record<string, number> = {}
    for (const table of ['tenants', 'agents', 'call_logs', 'api_tokens', 'imports']) {
      out[table] = Number((await client.query(`select count(*) as n from ${table}`)).rows[0].n)
    }
    // The generated word index came back too, not only the rows.
    out.wordMatches = Number((await client.query("select count(*) as n from call_logs where message_search @@ callscope_word_query('call', false)")).rows[0].n)
    return out
  } finally {
    await client.end()
  }
}

/** The URL with a password in it, as a user might give it. */
const withPassword = (url: string) => {
  const parsed = new URL(url)
  parsed.password = 'hunter2-secret'
  return parsed.toString()
}

describe('callscope backup on PostgreSQL', () => {
  it('refuses with the pg_dump and pg_restore commands, never the password, and those commands work as shown', async () => {
    const url = await createPgDatabase()
    const secretUrl = withPassword(url)
    const file = join(dir, 'store.dump')
    const result = runCli(['backup', file, '--db', secretUrl])
    expect(result.status).toBe(1)
    expect(result.stdout).toBe('')
    expect(result.stderr).not.toContain('hunter2-secret')
    expect(result.stderr).toMatch(/^callscope: error: callscope backup copies a SQLite store; a PostgreSQL store is backed up with PostgreSQL's own pg_dump/)
    const commands = [...result.stderr.matchAll(/^ {2}(\S.+)$/gm)].map((m) => m[1]!)
    const name = new URL(url).pathname.slice(1)
    const restoredUrl = url.replace(new RegExp(`/${name}$`), `/${name}_restored`)
    expect(commands).toEqual([
      `pg_dump --format=custom --file='${file}' '${url}'`,
      `createdb --maintenance-db='${url}' '${name}_restored'`,
      `pg_restore --no-owner --dbname='${restoredUrl}' '${file}'`,
    ])

    // Run as shown: the dump, rows changed after it, then the restore into a new database has the rows of dump time.
    const atDump = await counts(url)
    expect(atDump.call_logs).toBeGreaterThan(0)
    expect(atDump.wordMatches).toBeGreaterThan(0)
    execFileSync('sh', ['-c', commands[0]!])
    const client = new pg.Client({ connectionString: url })
    await client.connect()
    await client.query("delete from call_logs where log_level = 'info'")
    await client.end()
    try {
      execFileSync('sh', ['-c', commands[1]!])
      execFileSync('sh', ['-c', commands[2]!])
      expect(await counts(restoredUrl)).toEqual(atDump)
      expect((await counts(url)).call_logs).toBeLessThan(atDump.call_logs!)
    } finally {
      const admin = new pg.Client({ connectionString: url })
      await admin.connect()
      await admin.query(`drop database if exists ${name}_restored with (force)`)
      await admin.end()
    }
  }, 120_000)

  it('serve --backup-every on PostgreSQL is refused with the same advice', () => {
    const result = runCli(['serve', '--db', withPassword('postgres://callscope@127.0.0.1:1/none'), '--backup-every', '24h'])
    expect(result.status).toBe(1)
    expect(result.stderr).toContain("callscope: error: --backup-every backs up a SQLite store. callscope backup copies a SQLite store; a PostgreSQL store is backed up with PostgreSQL's own pg_dump")
    expect(result.stderr).toContain("pg_dump --format=custom --file='callscope.dump' 'postgres://callscope@127.0.0.1:1/none'")
    expect(result.stderr).not.toContain('hunter2-secret')
  })
})
