import { type Command, Option } from 'commander'
import { addFilterOptions, type FilterField, parseFilterOptions } from '../filter-options'
import { withService } from '../open-service'

const FILTERS: FilterField[] = ['from', 'to', 'agentId', 'levels', 'types', 'q', 'query', 'callId', 'traceId', 'sessionId']

export function registerExport(program: Command): void {
  const command = program
    .command('export')
    .description('write data out')
    .command('logs')
    .description('the call logs matching a filter, newest first, as CSV or NDJSON (no row limit)')
    .addOption(new Option('-f, --format <format>', 'output format').choices(['csv', 'ndjson']).default('ndjson'))
    .option('-o, --out <file>', 'write to FILE instead of standard output')
    .option('--db <file>', 'database file (default: $CALLSCOPE_DB or the per-user data folder)')
  addFilterOptions(command, FILTERS)
  command.action(async (opts: Record<string, string | undefined>) => {
    const filter = await parseFilterOptions(command, opts, FILTERS)
    await withService(opts.db, async (service) => {
      // The CLI runs as the store's owner, as the desktop app does.
      const { OWNER } = await import('../../kit/access')
      const format = opts.format as 'csv' | 'ndjson'
      // A failure part way (a damaged page, a full disk) says how many rows were written before it
      // and exits 1; --out FILE appears only once whole (FILE.partial until then).
      if (opts.out) {
        await service.callLogs.exportToFile(OWNER, filter, format, opts.out)
        return
      }
      try {
        await service.callLogs.exportOnto(OWNER, filter, format, process.stdout, 'standard output')
      } catch (error) {
        // The reader went away (`| head`): not a failure of the export.
        if ((error as NodeJS.ErrnoException).code !== 'EPIPE') throw error
      }
    }, { mustExist: true })
  })
}
