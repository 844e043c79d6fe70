import { type ChildProcess, spawn, spawnSync } from 'node:child_process'
import { once } from 'node:events'
import { join } from 'node:path'

export const CLI = join(import.meta.dirname, '../../bin/callscope.js')

export interface CliResult {
  status: number | null
  stdout: string
  stderr: string
}

/** Runs the real `callscope` binary to completion. */
export function runCli(args: string[], env: NodeJS.ProcessEnv = {}, timeoutMs = 60_000): CliResult {
  const result = spawnSync(process.execPath, [CLI, ...args], {
    encoding: 'utf8',
    env: { ...process.env, CALLSCOPE_TOKEN: '', ...env },
    timeout: timeoutMs,
  })
  return { status: result.status, stdout: result.stdout, stderr: result.stderr }
}

/**
 * Runs the real `callscope` binary without blocking this process (for servers in this test to
 * answer it); killed (status null) after `timeoutMs`.
 */
export async function runCliAsync(args: string[], env: NodeJS.ProcessEnv = {}, timeoutMs = 60_000): Promise<CliResult> {
  const child = spawn(process.execPath, [CLI, ...args], { env: { ...process.env, CALLSCOPE_TOKEN: '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
  let stdout = ''
  let stderr = ''
  child.stdout!.on('data', (chunk) => (stdout += chunk))
  child.stderr!.on('data', (chunk) => (stderr += chunk))
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs)
  const [status] = (await once(child, 'exit')) as [number | null]
  clearTimeout(timer)
  return { status, stdout, stderr }
}

export interface ServeProcess {
  child: ChildProcess
  url: string
  /** Everything printed on stdout up to "Listening on". */
  banner: string
  /** Everything printed on stderr so far. */
  stderr(): string
  /** Sends SIGTERM and resolves with the exit code. */
  stop(): Promise<number | null>
}

/** Starts `callscope serve` on a free loopback port and waits for its "Listening on" line. */
export async function startServe(args: string[], env: NodeJS.ProcessEnv = {}): Promise<ServeProcess> {
  const child = spawn(process.execPath, [CLI, 'serve', '--port', '0', ...args], {
    env: { ...process.env, CALLSCOPE_TOKEN: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let banner = ''
  let stderr = ''
  child.stderr!.on('data', (chunk) => (stderr += chunk))
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start: ${banner}${stderr}`)), 60_000)
    child.stdout!.on('data', (chunk) => {
      banner += chunk
      const match = /Listening on (https?:\/\/\S+)/.exec(banner)
      if (match) {
        clearTimeout(timer)
        resolve(match[1]!)
      }
    })
    child.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`serve exited with ${code}: ${banner}${stderr}`))
    })
  })
  // A server that dies under a test says why in the test's output (the test then fails on a refused connection).
  let stopping = false
  child.once('exit', (code, signal) => {
    if (!stopping) console.error(`callscope serve (${url}) exited unexpectedly (code ${code}, signal ${signal}):\n${stderr.slice(-4000)}`)
  })
  return {
    child,
    url,
    banner,
    stderr: () => stderr,
    async stop() {
      stopping = true
      if (child.exitCode !== null) return child.exitCode
      child.kill('SIGTERM')
      const [code] = await once(child, 'exit')
      return code as number | null
    },
  }
}
