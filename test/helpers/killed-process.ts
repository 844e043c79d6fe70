import { type ChildProcess, spawn } from 'node:child_process'
import { once } from 'node:events'
import { statSync } from 'node:fs'
import { setTimeout as pause } from 'node:timers/promises'
import Database from 'better-sqlite3'
import { CLI } from './cli'

/*
 * For the killed-process fault tests (issue 36): a command started without waiting for it, a
 * moment of its work waited for by what it shows (its output, a row it committed, a file it
 * created), never by a fixed sleep, and a SIGKILL at that moment.
 */

export interface RunningCli {
  child: ChildProcess
  /** stdout and stderr so far, interleaved. */
  output(): string
}

/** Starts the real `callscope` binary and returns at once. */
export function startCli(args: string[], env: NodeJS.ProcessEnv = {}): RunningCli {
  const child = spawn(process.execPath, [CLI, ...args], { env: { ...process.env, CALLSCOPE_TOKEN: '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  child.stdout!.on('data', (chunk) => (output += chunk))
  child.stderr!.on('data', (chunk) => (output += chunk))
  return { child, output: () => output }
}

const ended = (child: ChildProcess) => child.exitCode !== null || child.signalCode !== null

/**
 * Polls `probe` every few milliseconds until it returns something truthy, which it resolves with.
 * Fails if the process ends first (the moment was missed: the test would prove nothing).
 */
export async function until<T>(what: string, probe: () => T | null | undefined | false, running: RunningCli, timeoutMs = 120_000): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = probe()
    if (value) return value
    if (ended(running.child)) throw new Error(`the process ended before ${what}: ${running.output().slice(-2000)}`)
    if (Date.now() > deadline) throw new Error(`no sign of ${what} within ${timeoutMs} ms: ${running.output().slice(-2000)}`)
    await pause(5)
  }
}

/** SIGKILL, as a crash or `kill -9` would; resolves once the process is gone. */
export async function killHard(child: ChildProcess): Promise<void> {
  const exited = ended(child) ? Promise.resolve() : once(child, 'exit')
  child.kill('SIGKILL')
  await exited
  if (child.signalCode !== 'SIGKILL') throw new Error(`the process ended on its own (code ${child.exitCode}) before the kill`)
}

/** Runs `read` on a read-only connection of its own, closed after: the store as another process sees it. */
export function readStore<T>(path: string, read: (db: Database.Database) => T): T {
  const db = new Database(path, { readonly: true, fileMustExist: true })
  try {
    return read(db)
  } finally {
    db.close()
  }
}

/**
 * Whether a transaction on a rollback journal is under way on the store at `path`: its journal,
 * which keeps every page the transaction changes, holds more than a few pages. Switching a WAL
 * store to a rollback journal (bulk loads and the seed do) is a one-page transaction of its own,
 * whose journal comes and goes first.
 */
export function inRollbackTransaction(path: string): boolean {
  return (statSync(`${path}-journal`, { throwIfNoEntry: false })?.size ?? 0) > 16 * 1024
}
