import { copyFileSync, mkdirSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { describe, expect, inject, it } from 'vitest'
import { runCli, type ServeProcess, startServe } from '../helpers/cli'
import { canMountSmallDisk, smallDisk } from '../helpers/small-disk'
import { tempDir } from '../helpers/temp-dir'

/*
 * Issue 36, point 4: `serve --backup-every … --backup-keep …` through the real CLI, with a period of
 * seconds. Each backup named in serve's output is opened and checked; the folder holds the newest
 * N; a backup that fails on a full disk is said on stderr while serve goes on answering.
 */

const dir = tempDir('callscope-backup-schedule-')
const BACKUP_NAME = /^store-\d{8}T\d{6}Z\.sqlite$/

/** Everything serve prints from now on, and a wait for a line matching `pattern` to have come `times` times. */
function follow(server: ServeProcess) {
  let stdout = server.banner
  let stderr = ''
  server.child.stdout!.on('data', (chunk) => (stdout += chunk))
  server.child.stderr!.on('data', (chunk) => (stderr += chunk))
  return {
    out: () => stdout,
    err: () => stderr,
    until: (stream: 'out' | 'err', pattern: RegExp, times: number) =>
      new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`waited 60 s for ${times} × ${pattern}:\n${stdout}\n${stderr}`)), 60_000)
        const check = () => {
          const text = stream === 'out' ? stdout : stderr
          if ((text.match(new RegExp(pattern.source, 'gm')) ?? []).length >= times) {
            clearTimeout(timer)
            resolve()
          } else setTimeout(check, 50)
        }
        check()
      }),
  }
}

const countsOf = (file: string) => {
  const db = new Database(file, { readonly: true, fileMustExist: true })
  try {
    return { check: db.pragma('integrity_check', { simple: true }), callLogs: db.prepare('select count(*) from call_logs').pluck().get() as number }
  } finally {
    db.close()
  }
}

describe('serve --backup-every', () => {
  it('backs up at once and every period, names each by its UTC time, and keeps the newest N', async () => {
    const store = join(dir, 'store.sqlite')
    copyFileSync(inject('demoTemplate'), store)
    const source = countsOf(store)
    const backups = join(dir, 'kept')
    const server = await startServe(['--db', store, '--backup-every', '2s', '--backup-keep', '2', '--backup-dir', backups])
    const output = follow(server)
    try {
      expect(server.banner).toContain(`Backups: every 2s, keeping 2 into ${backups}; the sealing key ${store}.key is not in them`)
      await output.until('out', /^Backup written to .+$/, 3)
      expect(output.err()).toBe('')
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200)
    } finally {
      expect(await server.stop()).toBe(0)
    }
    const written = [...output.out().matchAll(/^Backup written to (\S+) \([^)]+\)(; removed (\S+) \(keeping 2\))?$/gm)]
    expect(written.length).toBeGreaterThanOrEqual(3)
    // The third removed the first, and only once it was complete.
    expect(written[2]![3]).toBe(written[0]![1]!.split('/').at(-1))
    const names = readdirSync(backups).sort()
    expect(names).toHaveLength(2)
    expect(names.every((name) => BACKUP_NAME.test(name))).toBe(true)
    expect(names.map((name) => join(backups, name))).toEqual(written.slice(-2).map((w) => w[1]))
    for (const name of names) expect(countsOf(join(backups, name))).toEqual(source)
  }, 120_000)

  it('refuses --backup-keep without --backup-every, and a period it cannot read', () => {
    const alone = runCli(['serve', '--db', join(dir, 'x.sqlite'), '--backup-keep', '3'])
    expect(alone.status).toBe(1)
    expect(alone.stderr).toBe('callscope: error: --backup-keep and --backup-dir need --backup-every (how often to back up)\n')
    const bad = runCli(['serve', '--db', join(dir, 'x.sqlite'), '--backup-every', 'daily'])
    expect(bad.status).toBe(2)
    expect(bad.stderr).toContain("option '--backup-every <period>' argument 'daily' is invalid. expected a period such as 30m, 6h, 24h or 7d")
  })
})

describe.runIf(canMountSmallDisk)('serve --backup-every on a full disk', () => {
  const disk = canMountSmallDisk ? smallDisk(48 * 1024 * 1024) : (null as never)

  it('says each failed backup on stderr, keeps serving and the backups it had, and backs up again once room is made', async () => {
    const store = join(dir, 'full-store.sqlite')
    copyFileSync(inject('demoTemplate'), store)
    const backups = join(disk.dir, 'backups')
    mkdirSync(backups)
    disk.fill(4 * 1024 * 1024) // less than the store's 27 MiB
    const server = await startServe(['--db', store, '--backup-every', '2s', '--backup-keep', '1', '--backup-dir', backups])
    const output = follow(server)
    try {
      await output.until('err', /^Scheduled backup to .+ failed: .+$/, 2)
      expect(output.err()).toMatch(
        new RegExp(`^Scheduled backup to ${backups}/full-store-\\d{8}T\\d{6}Z\\.sqlite failed: The backup was not started: the disk holding ${backups} has too little room for it \\(4\\.0 MiB free, about \\d+ MiB needed\\)\\. No backup file was left there\\. .+ Serving goes on; the next try is in 2s\\.$`, 'm'),
      )
      expect(readdirSync(backups)).toEqual([])
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200)

      disk.makeRoom()
      await output.until('out', /^Backup written to .+$/, 1)
    } finally {
      expect(await server.stop()).toBe(0)
    }
    const names = readdirSync(backups)
    expect(names).toHaveLength(1)
    expect(countsOf(join(backups, names[0]!))).toEqual(countsOf(store))
  }, 120_000)
})
