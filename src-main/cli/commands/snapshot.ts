import { resolve } from 'node:path'
import type { Command } from 'commander'
import { withService } from '../open-service'

export function registerSnapshot(program: Command): void {
  program
    .command('snapshot')
    .description('write a consistent copy of the whole database to FILE (a demo pack: serve --db FILE)')
    .argument('<file>', 'the new database file')
    .option('--force', 'replace FILE if it exists')
    .option('--db <file>', 'database file to copy (default: $CALLSCOPE_DB or the per-user data folder)')
    .action(async (file: string, opts: { force?: boolean; db?: string }) => {
      await withService(opts.db, async (service) => {
        const started = performance.now()
        const result = service.database.snapshot(resolve(file), opts.force)
        const mib = (result.sizeBytes / 1024 / 1024).toFixed(1)
        process.stdout.write(`Snapshot of ${service.database.path} written to ${result.path} (${mib} MiB) in ${((performance.now() - started) / 1000).toFixed(1)} s\n`)
      })
    })
}
