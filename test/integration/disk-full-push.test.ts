import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import { record } from '../helpers/call-log-files'
import { runCli, runCliAsync, startServe } from '../helpers/cli'
import { canMountSmallDisk, smallDisk } from '../helpers/small-disk'
import { tempDir } from '../helpers/temp-dir'

/*
 * Issue 36: `callscope push` to a team server whose disk fills. The server answers 507 with the
 * report of what its store kept; the push says so, counts exactly that, and once the server has
 * room the same push completes with nothing doubled on the server.
 */

const count = (db: string) => {
  const sqlite = new Database(db, { readonly: true })
  try {
    return {
      callLogs: sqlite.prepare('select count(*) from call_logs').pluck().get() as number,
      distinct: sqlite.prepare('select count(distinct id) from call_logs').pluck().get() as number,
    }
  } finally {
    sqlite.close()
  }
}

describe.skipIf(!canMountSmallDisk)('a push to a server whose disk is full', { timeout: 300_000 }, () => {
  const disk = canMountSmallDisk ? smallDisk(96 * 1024 * 1024) : (null as never)
  const dir = tempDir('callscope-disk-full-push-')

  it('reports what the server kept, and pushes the rest once the server has room', async () => {
    const laptop = join(dir, 'laptop.sqlite')
    const lines: string[] = []
    for (let n = 1; n <= 30_000; n++) lines.push(record(n, { message: `Pushed line ${n} about the caller's booking, ${n % 700} ms` }))
    writeFileSync(join(dir, 'lines.ndjson'), `${lines.join('\n')}\n`)
    expect(runCli(['import', 'logs', join(dir, 'lines.ndjson'), '--db', laptop], {}, 240_000).status).toBe(0)

    mkdirSync(join(disk.dir, 'team'))
    const teamDb = join(disk.dir, 'team', 'team.sqlite')
    const team = await startServe(['--db', teamDb, '--no-seed', '--readers', '1'], { CALLSCOPE_TOKEN: 'cs_team_disk_full_token' })
    try {
      const push = () => runCliAsync(['push', '--to', team.url, '--chunk', '10000', '--db', laptop], { CALLSCOPE_TEAM_TOKEN: 'cs_team_disk_full_token' }, 240_000)
      disk.fill(12 * 1024 * 1024)
      const cut = await push()
      expect(cut.status).toBe(1)
      expect(cut.stderr).toContain('the disk holding the store is full')
      expect(cut.stderr).toContain(teamDb)
      const kept = count(teamDb)
      // Some uploads landed whole before the disk filled, and the push counted exactly those.
      expect(kept.callLogs).toBeGreaterThan(0)
      expect(kept.callLogs).toBeLessThan(30_000)
      const newCount = Number(/([\d,]+) new/.exec(cut.stdout)?.[1]?.replaceAll(',', ''))
      expect(newCount).toBe(kept.callLogs)
      expect((await fetch(`${team.url}/logs/calls?limit=1`, { headers: { Authorization: 'Bearer cs_team_disk_full_token' } })).status).toBe(200)

      disk.makeRoom()
      const again = await push()
      expect(again.status, again.stderr).toBe(0)
      expect(count(teamDb)).toEqual({ callLogs: 30_000, distinct: 30_000 })
    } finally {
      await team.stop()
    }
  })
})
