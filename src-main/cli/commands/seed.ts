import { SingleBar } from 'cli-progress'
import { type Command, Option } from 'commander'
import { SEED_SCALE_NAMES, type SeedScaleName } from '../../seed/scales'
import { withService } from '../open-service'
import { parseDate, parseNonNegativeInt } from '../options'

export function registerSeed(program: Command): void {
  program
    .command('seed')
    .description('fill the database with deterministic demo data')
    .addOption(new Option('-s, --scale <scale>', 'how much data').choices(SEED_SCALE_NAMES).default('small'))
    .option('--seed <n>', 'random seed: the same seed and anchor give the same data', parseNonNegativeInt, 1)
    .option('--anchor <date>', 'end of the generated history (default: the current hour)', parseDate)
    .option('--reset', 'replace existing tenants, agents, sessions and logs (tokens and settings are kept)')
    .option('--db <file>', 'database file (default: $CALLSCOPE_DB or the per-user data folder)')
    .action(async (opts: { scale: SeedScaleName; seed: number; anchor?: number; reset?: boolean; db?: string }) => {
      const { floorToHour } = await import('../../seed')
      await withService(opts.db, async (service) => {
        const bar = process.stderr.isTTY
          ? new SingleBar({ format: 'Seeding [{bar}] {percentage}% | {value}/{total} call logs | {duration}s', hideCursor: true })
          : null
        let started = false
        const result = await service.database.seed({
          scale: opts.scale,
          seed: opts.seed,
          anchor: opts.anchor ?? floorToHour(Date.now()),
          reset: opts.reset,
          onProgress: ({ logs, targetLogs }) => {
            if (!bar) return
            if (!started) bar.start(targetLogs, 0)
            started = true
            bar.update(Math.min(logs, targetLogs))
          },
        })
        bar?.stop()
        const n = (v: number) => v.toLocaleString('en-US')
        process.stdout.write(
          `Seeded ${service.database.path} (scale ${opts.scale}, seed ${opts.seed}) in ${(result.ms / 1000).toFixed(1)} s:\n` +
            `  ${n(result.tenants)} tenants, ${n(result.agents)} agents, ${n(result.squads)} squads\n` +
            `  ${n(result.conversations)} sessions, ${n(result.messages)} messages, ${n(result.calls)} calls, ${n(result.transfers)} transfers\n` +
            `  ${n(result.callLogs)} call logs\n` +
            `  time: rows ${result.phases.generateMs} ms, indexes ${result.phases.indexMs} ms, full-text ${result.phases.ftsMs} ms\n`,
        )
      })
    })
}
