import { Command, CommanderError } from 'commander'
import { registerDb } from './commands/db'
import { registerProvider } from './commands/provider'
import { registerSeed } from './commands/seed'
import { registerServe } from './commands/serve'
import { registerToken } from './commands/token'
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
  return program
}

/** Runs the CLI; usage errors exit 2 (after commander's one-line message), failures exit 1. */
export async function main(argv: string[]): Promise<number> {
  try {
    await buildProgram().parseAsync(argv, { from: 'user' })
    return 0
  } catch (error) {
    if (error instanceof CommanderError) {
      return error.exitCode === 0 ? 0 : 2
    }
    const message = error instanceof Error ? error.message : String(error)
    process.stderr.write(`callscope: error: ${message}\n`)
    return 1
  }
}
