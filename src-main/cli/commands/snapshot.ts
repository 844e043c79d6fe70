import { resolve } from 'node:path'
import type { Command } from 'commander'
import type { SnapshotResult } from '../../modules/database/snapshot-pack'
import { withService } from '../open-service'

interface SnapshotFlags {
  force?: boolean
  db?: string
  includeSecrets?: boolean
  redact?: boolean
}

/** What the pack holds and leaves out, one line each, after the "written to" line. */
function describePack(result: SnapshotResult): string[] {
  const lines: string[] = []
  const left = result.secretsLeftOut
  if (left) {
    lines.push(`Left out: ${left.tokens} API tokens, ${left.credentials} provider credentials, ${left.webhookSecrets} webhook secrets, ${left.settings} secret settings; ${left.origins} pull origins renamed`)
  } else {
    lines.push('Secrets included: API token hashes, sealed provider credentials (their key file is not copied), pull origins')
  }
  const r = result.redacted
  if (r) lines.push(`Pseudonymised: ${r.phones} phone numbers, ${r.emails} e-mail addresses, ${r.names} names, ${r.users} user ids, in ${r.rows.toLocaleString('en-US')} rows`)
  return lines
}

export function registerSnapshot(program: Command): void {
  program
    .command('snapshot')
    .description('write a consistent copy of the whole database to FILE (a demo pack: serve --db FILE), without secrets unless --include-secrets')
    .argument('<file>', 'the new database file')
    .option('--force', 'replace FILE if it exists')
    .option('--include-secrets', 'keep API tokens, provider credentials, pull origins and secret settings')
    .option('--redact', 'pseudonymise phone numbers, e-mail addresses, person names and user ids, consistently across the pack')
    .option('--db <file>', 'database file to copy (default: $CALLSCOPE_DB or the per-user data folder)')
    .action(async (file: string, opts: SnapshotFlags) => {
      await withService(opts.db, async (service) => {
        const started = performance.now()
        const result = await service.database.snapshot(resolve(file), { overwrite: opts.force, includeSecrets: opts.includeSecrets, redact: opts.redact })
        const mib = (result.sizeBytes / 1024 / 1024).toFixed(1)
        const seconds = ((performance.now() - started) / 1000).toFixed(1)
        process.stdout.write(`Snapshot of ${service.database.path} written to ${result.path} (${mib} MiB) in ${seconds} s\n`)
        for (const line of describePack(result)) process.stdout.write(`${line}\n`)
      }, { mustExist: true })
    })
}
