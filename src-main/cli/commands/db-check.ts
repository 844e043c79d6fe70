import type { Command } from 'commander'
import { formatBytes } from '../../../src-shared/store-faults'
import { isPostgresUrl } from '../../db/store-kind'
import { CommandExit, EXIT_DAMAGED } from '../exit-code'
import { assertStoreExists } from '../open-service'
import { defaultDbPath } from '../paths'

const DB_OPTION = ['--db <file|url>', 'database file, or a PostgreSQL server as postgres://user@host:port/db (default: $CALLSCOPE_DB or the per-user data folder)'] as const

const quote = (path: string) => (/\s/.test(path) ? `"${path}"` : path)

/** `db check` and `db recover` (issue 36): how far a store is damaged, and its readable rows copied out. */
export function registerDbCheck(db: Command): void {
  db.command('check')
    .description('check the store for damage, without writing to it')
    .option(...DB_OPTION)
    .option('--full', 'SQLite: integrity_check (every index against its table too) instead of quick_check; slower')
    .option('--json', 'print JSON')
    .addHelpText('after', '\nExit codes: 0 healthy, 1 the check could not run (no store, no connection), 3 the store is damaged.')
    .action(async (opts: { db?: string; full?: boolean; json?: boolean }) => {
      const { checkPostgresStore, checkSqliteStore } = await import('../../modules/store-health/check-store')
      const dbPath = opts.db ?? defaultDbPath()
      assertStoreExists(dbPath)
      const report = isPostgresUrl(dbPath) ? await checkPostgresStore(dbPath) : checkSqliteStore(dbPath, opts.full ? 'full' : 'quick')
      if (opts.json) process.stdout.write(`${JSON.stringify(report, null, 2)}\n`)
      else {
        const lines = [
          `Store:    ${report.store === 'postgres' ? 'PostgreSQL' : 'SQLite'}, ${report.path}${report.sizeBytes === null ? '' : ` (${formatBytes(report.sizeBytes)})`}`,
          `Checked:  ${report.checked.join('; ')}`,
          ...(report.notChecked.length ? [`Not checked: ${report.notChecked.join('; ')}`] : []),
        ]
        if (report.healthy) lines.push('Verdict:  healthy, no damage found')
        else {
          lines.push(`Verdict:  DAMAGED (${report.problems.length} problem${report.problems.length === 1 ? '' : 's'} found)`, ...report.problems.map((p) => `  - ${p}`))
          lines.push(
            report.store === 'sqlite'
              ? `Next:     \`callscope db recover --db ${quote(dbPath)} --out NEW.db\` copies every readable row into a new store; or restore a backup.`
              : 'Next:     restore from your last pg_dump, or ask the server\'s administrator (the server log names the damaged files).',
          )
        }
        process.stdout.write(`${lines.join('\n')}\n`)
      }
      if (!report.healthy) throw new CommandExit(EXIT_DAMAGED)
    })

  db.command('recover')
    .description('copy every readable row of a damaged SQLite store into a new store, and report what could not be read')
    .requiredOption('--out <file>', 'the new store to write (must not exist)')
    .option(...DB_OPTION)
    .option('--json', 'print the report as JSON')
    .addHelpText('after', '\nExit codes: 0 the new store is written and passes `db check`, 1 recover could not run, 3 the new store fails its check.')
    .action(async (opts: { db?: string; out: string; json?: boolean }) => {
      const dbPath = opts.db ?? defaultDbPath()
      if (isPostgresUrl(dbPath)) throw new Error('recover reads SQLite store files; a PostgreSQL database is restored from pg_dump (README, "Check, recover and back up a store")')
      const { recoverStore } = await import('../../modules/store-health/recover-store')
      const report = await recoverStore(dbPath, opts.out, (table) => {
        if (opts.json) return
        const lost = table.unreadable.map((r) => `${r.from ?? 'start'}–${r.to ?? 'end'}`)
        process.stdout.write(
          `  ${table.table.padEnd(24)} ${table.copied.toLocaleString('en-US').padStart(10)} copied` +
            (lost.length ? `; unreadable rowids ${lost.join(', ')}` : '') +
            (table.refused ? `; ${table.refused} refused by the schema (first: ${table.firstRefusal})` : '') +
            '\n',
        )
      })
      if (opts.json) process.stdout.write(`${JSON.stringify(report, null, 2)}\n`)
      else {
        const copied = report.tables.reduce((n, t) => n + t.copied, 0)
        const damagedTables = report.tables.filter((t) => t.unreadable.length)
        const lines = [
          `Recovered ${copied.toLocaleString('en-US')} rows from ${report.source} into ${report.out}.`,
          damagedTables.length
            ? `Unreadable: rowid ranges in ${damagedTables.map((t) => t.table).join(', ')} (listed above); the rows stored there are lost.`
            : 'Every row of every table was read.',
          ...(report.notInSchema.length ? [`Not copied (not in this version's schema): ${report.notInSchema.join(', ')}`] : []),
          ...Object.entries(report.orphans).map(([table, n]) => `Kept ${n} row${n === 1 ? '' : 's'} of ${table} whose parent row was lost.`),
          report.check.healthy ? `The new store passes \`callscope db check\`. Use it with --db ${quote(report.out)}, or put it in place of the damaged file.` : `The new store FAILS its check: ${report.check.problems.join('; ')}`,
        ]
        process.stdout.write(`${lines.join('\n')}\n`)
      }
      if (!report.check.healthy) throw new CommandExit(EXIT_DAMAGED)
    })
}
