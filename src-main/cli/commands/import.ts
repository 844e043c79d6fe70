import { createReadStream, openSync, readSync, closeSync, statSync } from 'node:fs'
import { basename, resolve } from 'node:path'
import { SingleBar } from 'cli-progress'
import { type Command, Option } from 'commander'
import { withService } from '../open-service'

/** The first bytes of a file: for format detection, and (a MiB) for a bulk import's estimate of the room it needs. */
function head(file: string, bytes = 512): string {
  const fd = openSync(file, 'r')
  try {
    const buffer = Buffer.alloc(bytes)
    return buffer.subarray(0, readSync(fd, buffer, 0, bytes, 0)).toString('utf8')
  } finally {
    closeSync(fd)
  }
}

const n = (v: number) => v.toLocaleString('en-US')

export function registerImport(program: Command): void {
  program
    .command('import')
    .description('bring data in')
    .command('logs')
    .description('import call log records from NDJSON, a JSON array (as GET /logs/calls returns) or CSV; known ids are skipped')
    .argument('<file>', 'the file to read ("-" for standard input, with --format)')
    .addOption(new Option('-f, --format <format>', 'file format (default: from the extension, else the content)').choices(['ndjson', 'json', 'csv']))
    .addOption(
      new Option('--bulk <when>', 'load in one transaction and rebuild the indexes at the end: faster, but nothing lands before the end')
        .choices(['auto', 'always', 'never'])
        .default('auto', 'auto: when the file holds 50,000+ records and about as many as the store'),
    )
    .option('--db <file>', 'database file (default: $CALLSCOPE_DB or the per-user data folder)')
    .action(async (file: string, opts: { format?: 'ndjson' | 'json' | 'csv'; bulk: 'auto' | 'always' | 'never'; db?: string }) => {
      const { detectFormat } = await import('../../modules/imports/import-format')
      const fromStdin = file === '-'
      if (fromStdin && !opts.format) throw new Error('reading standard input needs --format')
      const path = fromStdin ? null : resolve(file)
      const size = path ? statSync(path).size : null
      const format = opts.format ?? detectFormat(path!, head(path!))
      await withService(opts.db, async (service) => {
        const bar = process.stderr.isTTY && size
          ? new SingleBar({ format: 'Importing [{bar}] {percentage}% | {records} records, {inserted} new, {invalid} refused | {duration}s', hideCursor: true })
          : null
        bar?.start(size!, 0, { records: 0, inserted: 0, invalid: 0 })
        const report = await service.imports.importCallLogs(path ? createReadStream(path) : process.stdin, {
          source: path ? basename(path) : 'standard input',
          format,
          bytesTotal: size,
          bulk: opts.bulk === 'auto' ? 'auto' : opts.bulk === 'always',
          sample: path ? head(path, 1 << 20) : undefined,
          onProgress: (p) => bar?.update(p.bytesRead, { records: n(p.recordsRead), inserted: n(p.inserted), invalid: n(p.invalid) }),
        })
        bar?.stop()
        const seconds = (report.durationMs ?? 0) / 1000
        const rate = seconds > 0 ? ` (${n(Math.round(report.recordsRead / seconds))} records/s)` : ''
        process.stdout.write(
          `${report.status === 'completed' ? 'Imported' : 'Stopped importing'} ${report.source} (${format}${report.bulk ? ', in bulk' : ''}) in ${seconds.toFixed(1)} s${rate}:\n` +
            `  ${n(report.recordsRead)} records read: ${n(report.inserted)} new, ${n(report.duplicates)} already stored, ${n(report.invalid)} refused\n`,
        )
        if (report.invalid > 0) {
          const shown = report.errors.slice(0, 20)
          process.stderr.write(`Refused records${report.invalid > shown.length ? ` (first ${shown.length} of ${n(report.invalid)})` : ''}:\n`)
          for (const e of shown) process.stderr.write(`  record ${e.record}, line ${e.line}: ${e.reason}\n`)
        }
        if (report.status === 'failed') {
          // A full disk or damage: the message says what was kept, where the store is, what to do.
          if (report.fault) throw new Error(report.failure ?? 'the store failed')
          const kept = report.inserted > 0 ? `the ${n(report.inserted)} records before it are kept` : 'nothing was stored'
          throw new Error(`${report.failure} (${kept})`)
        }
      })
    })
}
