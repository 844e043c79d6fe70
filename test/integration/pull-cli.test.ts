import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCli, runCliAsync } from '../helpers/cli'
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
    expect(info.counts).toMatchObject({ call_logs: logs, tenants: 3, pulls: 1 })
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
    ] as const) {
      const result = runCli(['pull', ...args, '--db', db])
      expect(result.status, args.join(' ')).toBe(2)
      expect(result.stderr).toContain(message)
    }
  })
})
