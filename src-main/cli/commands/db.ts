import type { Command } from 'commander'
import { withService } from '../open-service'
import { registerDbCheck } from './db-check'

export function registerDb(program: Command): void {
  const db = program.command('db').description('inspect the database')
  db.command('info')
    .description('path, size, schema version and row counts')
    .option('--json', 'print JSON')
    .option('--db <file|url>', 'database file, or a PostgreSQL server as postgres://user@host:port/db')
    .action(async (opts: { json?: boolean; db?: string }) => {
      await withService(opts.db, async (service) => {
        const info = await service.info()
        if (opts.json) {
          process.stdout.write(`${JSON.stringify(info, null, 2)}\n`)
          return
        }
        const lines = [
          `Store:   ${info.kind === 'postgres' ? 'PostgreSQL' : 'SQLite'}`,
          `${info.kind === 'postgres' ? 'URL:     ' : 'Path:    '}${info.path}`,
          `Size:    ${info.sizeBytes === null ? 'in memory' : `${(info.sizeBytes / 1024 / 1024).toFixed(1)} MiB`}`,
          `Schema:  ${info.schema.current ?? 'empty'} (${info.schema.applied} of ${info.schema.available} migrations)`,
          'Rows:',
          ...Object.entries(info.counts).map(([table, n]) => `  ${table.padEnd(22)} ${n.toLocaleString('en-US').padStart(12)}`),
        ]
        process.stdout.write(`${lines.join('\n')}\n`)
      }, { mustExist: true })
    })
  registerDbCheck(db)
}
