import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { spawn } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { once } from 'node:events'
import { CLI, runCli, runCliAsync } from '../helpers/cli'
import { tempDir } from '../helpers/temp-dir'
import { ADMIN_TOKEN, startTestServer, type TestServer } from '../helpers/test-server'

let remote: TestServer
beforeAll(async () => {
  remote = await startTestServer()
})
afterAll(() => remote.close())

describe('callscope pull', () => {
  const dir = tempDir()

  it('pulls into the --db store and prints what it fetched', async () => {
    const db = `${dir}/pulled.sqlite`
    const result = await runCliAsync(['pull', '--base-url', remote.url, '--since', '2026-11-15', '--rate', '200', '--db', db], { CALLSCOPE_REMOTE_TOKEN: ADMIN_TOKEN })
    expect(result.stderr).toBe('')
    expect(result.status).toBe(0)
    const logs = remote.sqlite.prepare("select count(*) from call_logs where timestamp >= '2026-11-15T00:00:00.000Z'").pluck().get() as number
    expect(result.stdout).toContain(`Pulled ${remote.url} in `)
    expect(result.stdout).toContain(`call logs        ${logs.toLocaleString('en-US')} fetched since 2026-11-15T00:00:00.000Z`)
    expect(result.stdout).toMatch(/tenants {10}3 fetched/)
    const info = JSON.parse(runCli(['db', 'info', '--json', '--db', db]).stdout) as { counts: Record<string, number> }
    // Pulled profiles are kept by source, apart from the store's own tenants (migration 0018).
    expect(info.counts).toMatchObject({ call_logs: logs, tenants: 0, pulled_tenants: 3, pulls: 1 })
  })

  it('exits 1 with the reason when the remote refuses the token, and 2 on bad options', async () => {
    const db = `${dir}/refused.sqlite`
    const refused = await runCliAsync(['pull', '--base-url', remote.url, '--token', 'wrong', '--db', db])
    expect(refused.status).toBe(1)
    expect(refused.stderr).toMatch(/^callscope: error: the remote refused the token \(GET \/logs\/calls\?.*answered 401/m)
    expect(refused.stdout).toContain(`Stopped pulling ${remote.url}`)

    for (const [args, message] of [
      [['--base-url', 'file:///etc', '--token', 't'], 'the base URL must be http or https, not file:'],
      [['--base-url', remote.url], 'a token is needed: pass --token or set CALLSCOPE_REMOTE_TOKEN'],
      [['--base-url', remote.url, '--token', 't', '--since', 'yesterday'], '--since must be an ISO 8601 date or date-time: "yesterday"'],
      [['--base-url', remote.url, '--token', 't', '--rate', '0'], "option '--rate <n>' argument '0' is invalid"],
      [['--base-url', remote.url, '--token', 't', '--follow', '--interval', '10ms'], 'expected a duration from 1s to 24h'],
      [['--base-url', remote.url, '--token', 't', '--follow', '--interval', 'often'], 'expected a duration such as 30s, 5m or 1h'],
      [['--base-url', remote.url, '--token', 't', '--interval', '5m'], '--interval goes with --follow'],
    ] as const) {
      const result = runCli(['pull', ...args, '--db', db])
      expect(result.status, args.join(' ')).toBe(2)
      expect(result.stderr).toContain(message)
    }
  })

  it('--follow picks up a record added while it runs, keeps going while the remote is away, and stops on Ctrl-C', async () => {
    const db = `${dir}/followed.sqlite`
    const child = spawn(process.execPath, [CLI, 'pull', '--base-url', remote.url, '--since', '2026-11-15', '--rate', '500', '--follow', '--interval', '1s', '--db', db], {
      env: { ...process.env, CALLSCOPE_TOKEN: '', CALLSCOPE_REMOTE_TOKEN: ADMIN_TOKEN },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stdout = ''
    let stderr = ''
    const waiting: Array<{ pattern: RegExp; from: number; resolve: () => void }> = []
    const check = () => {
      for (const w of [...waiting]) if (w.pattern.test(stdout.slice(w.from))) waiting.splice(waiting.indexOf(w), 1) && w.resolve()
    }
    child.stdout.on('data', (chunk) => ((stdout += chunk), check()))
    child.stderr.on('data', (chunk) => (stderr += chunk))
    /** The output from now on shows this line (a signal from the process, not a sleep). */
    const printed = (pattern: RegExp) => new Promise<void>((resolve) => (waiting.push({ pattern, from: stdout.length, resolve }), check()))
    const exited = once(child, 'exit')
    try {
      await printed(/synced: [\d,]+ new call logs/)
      const tenant = remote.sqlite.prepare('select id from tenants order by id limit 1').pluck().get() as string
      const line = { id: randomUUID(), tenant_id: tenant, log_type: 'sip', log_level: 'warn', message: 'followed', timestamp: new Date(Date.now() - 1000).toISOString() }
      expect((await remote.get('/imports/call-logs?file_name=f.ndjson', { method: 'POST', body: JSON.stringify(line) })).status).toBe(201)
      await printed(/synced: 1 new call logs/)

      await remote.stopListening()
      await printed(/failed: .* · retrying at \d\d:\d\d:\d\d \(1 failed in a row\)/)
      await remote.listenAgain()
      await printed(/synced: /)
      child.kill('SIGINT')
      const [code] = (await exited) as [number | null]
      expect(stderr).toBe(`Following ${remote.url}, a pull every 1 s; Ctrl-C stops.\n`)
      expect(code).toBe(0)
      expect(stdout).toMatch(new RegExp(`Stopped following ${remote.url.replace(/[.]/g, '\\.')} after \\d+ cycles; last synced 20`))
      const stored = JSON.parse(runCli(['db', 'info', '--json', '--db', db]).stdout) as { counts: Record<string, number> }
      expect(stored.counts.call_logs).toBe(remote.sqlite.prepare("select count(*) from call_logs where timestamp >= '2026-11-15T00:00:00.000Z'").pluck().get())
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL')
    }
  }, 90_000)
})
