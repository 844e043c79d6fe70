import { Command, CommanderError } from 'commander'
import { registerBackup } from './commands/backup'
import { registerDb } from './commands/db'
import { registerExport } from './commands/export'
import { registerImport } from './commands/import'
import { registerProvider } from './commands/provider'
import { registerPull } from './commands/pull'
import { registerPush } from './commands/push'
import { registerSeed } from './commands/seed'
import { registerServe } from './commands/serve'
import { registerSnapshot } from './commands/snapshot'
import { registerTail } from './commands/tail'
import { registerToken } from './commands/token'
import { registerWebhook } from './commands/webhook'
import { CommandExit } from './exit-code'
import { VERSION } from './version'

export function buildProgram(): Command {
  const program = new Command('callscope')
    .description('Local-first operations console for voice-agent platforms')
    .version(VERSION)
    .exitOverride()
    .showSuggestionAfterError()
  registerServe(program)
  registerSeed(program)
  registerToken(program)
  registerProvider(program)
  registerDb(program)
  registerImport(program)
  registerExport(program)
  registerTail(program)
  registerPull(program)
  registerPush(program)
  registerSnapshot(program)
  registerBackup(program)
  registerWebhook(program)
  return program
}

/** Runs the CLI; usage errors exit 2 (after commander's one-line message), failures exit 1. */
export async function main(argv: string[]): Promise<number> {
  try {
    await buildProgram().parseAsync(argv, { from: 'user' })
    return 0
  } catch (error) {
    if (error instanceof CommandExit) return error.code
    if (error instanceof CommanderError) {
      return error.exitCode === 0 ? 0 : 2
    }
    const message = error instanceof Error ? error.message : String(error)
    process.stderr.write(`callscope: error: ${message}\n`)
    return 1
  }
}
