import { type ChildProcess, spawn } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { once } from 'node:events'
import { writeFileSync } from 'node:fs'
import BetterSqlite3 from 'better-sqlite3'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { CLI, runCli, runCliAsync } from '../helpers/cli'
import { tempDir } from '../helpers/temp-dir'

/*
 * `callscope tail` (issue 16 pt 3): the real binary follows a store file while the real
 * `callscope import` writes to it from another process.
 */

const dir = tempDir()
const db = `${dir}/tail.sqlite`
let truth: BetterSqlite3.Database
let tenant: string
let agents: string[]
beforeAll(() => {
  expect(runCli(['seed', '--db', db]).status).toBe(0)
  truth = new BetterSqlite3(db, { readonly: true })
  tenant = truth.prepare('select id from tenants order by id limit 1').pluck().get() as string
  agents = truth.prepare('select id from agents where tenant_id = ? order by id limit 2').pluck().all(tenant) as string[]
}, 60_000)
afterAll(() => truth.close())

// A test that fails before its tail is stopped must not leave the process behind.
const started: ChildProcess[] = []
afterEach(() => {
  for (const child of started.splice(0)) if (child.exitCode === null) child.kill('SIGKILL')
})

/** The tail's stdout, line by line; `until(n)` resolves once n lines have come. */
function follow(args: string[]) {
  const child: ChildProcess = spawn(process.execPath, [CLI, 'tail', '--db', db, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } })
  started.push(child)
  const lines: string[] = []
  let partial = ''
  let stderr = ''
  const waiters: Array<() => void> = []
  child.stdout!.on('data', (chunk: Buffer) => {
    const parts = (partial + chunk.toString('utf8')).split('\n')
    partial = parts.pop()!
    lines.push(...parts)
    for (const w of waiters.splice(0)) w()
  })
  child.stderr!.on('data', (chunk) => {
    stderr += chunk
    for (const w of waiters.splice(0)) w()
  })
  /** Resolves once the tail says it follows: every line stored from then on will show. */
  const following = async () => {
    while (!stderr.includes('Following ')) await new Promise<void>((resolve) => waiters.push(resolve))
  }
  const until = async (n: number) => {
    while (lines.length < n) await new Promise<void>((resolve) => waiters.push(resolve))
    return lines.slice(0, n)
  }
  const stop = async () => {
    const exited = once(child, 'exit')
    child.kill('SIGINT')
    const [code] = (await exited) as [number | null]
    return { code, stderr, lines }
  }
  return { following, until, stop, lines }
}

async function importLines(records: Array<Record<string, unknown>>) {
  const file = `${dir}/${randomUUID()}.ndjson`
  writeFileSync(file, records.map((r) => JSON.stringify({ id: randomUUID(), tenant_id: tenant, log_type: 'llm', log_level: 'info', timestamp: new Date().toISOString(), ...r })).join('\n'))
  const result = await runCliAsync(['import', 'logs', file, '--db', db])
  expect(result.stdout).toContain(`${records.length} new`)
}

describe('callscope tail', () => {
  it('prints the newest stored lines, then each new one another process stores, until Ctrl-C', async () => {
    const tail = follow(['--json', '-n', '2', '--level', 'error'])
    const newest = truth.prepare("select id from call_logs where log_level = 'error' order by timestamp desc, seq desc limit 2").pluck().all() as string[]
    expect((await tail.until(2)).map((l) => (JSON.parse(l) as { id: string }).id)).toEqual(newest.reverse())

    await importLines([{ message: 'fine' }, { log_level: 'ERROR', message: 'انتهت مهلة مزود النموذج', details: { provider: 'groq' } }, { log_level: 'critical', message: 'not an error' }, { log_level: 'error', message: 'second' }])
    const added = (await tail.until(4)).slice(2).map((l) => JSON.parse(l) as { message: string; log_level: string; details: unknown; tenant_id: string })
    expect(added.map((r) => [r.message, r.log_level])).toEqual([['انتهت مهلة مزود النموذج', 'error'], ['second', 'error']])
    expect(added[0]).toMatchObject({ details: { provider: 'groq' }, tenant_id: tenant })
    expect(added[0]).not.toHaveProperty('seq')

    const { code, stderr, lines } = await tail.stop()
    expect(code).toBe(0)
    expect(stderr).toBe(`Following ${db}: lines appear as they are stored; Ctrl-C stops.\n`)
    expect(lines).toHaveLength(4)
  }, 60_000)

  it('filters by --query and --agent, one readable line each', async () => {
    const [a, b] = agents as [string, string]
    const tail = follow(['-n', '0', '--query', 'timeout', '--agent', a])
    await tail.following()
    await importLines([{ agent_id: b, message: 'LLM timeout on the other agent' }, { agent_id: a, message: 'all good' }, { agent_id: a, log_level: 'warning', message: 'LLM timeout after 30 s', call_id: randomUUID() }])
    const [line] = await tail.until(1)
    expect(line).toMatch(new RegExp(`^\\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z WARNING  llm       LLM timeout after 30 s  call=[0-9a-f-]{36} agent=${a}$`))
    expect((await tail.stop()).lines).toHaveLength(1)
  }, 60_000)

  it('refuses bad options with exit 2 and a missing store with exit 1', () => {
    expect(runCli(['tail', '--db', db, '--level', 'loud'])).toMatchObject({ status: 2, stderr: expect.stringContaining("option '--level'") })
    expect(runCli(['tail', '--db', db, '-n', '5000'])).toMatchObject({ status: 2, stderr: expect.stringContaining('a whole number from 0 to 1000') })
    expect(runCli(['tail', '--db', `${dir}/none.sqlite`])).toMatchObject({ status: 1, stderr: expect.stringContaining('no store at') })
  })
})
