import { resolve } from 'node:path'
import { type Command, Option } from 'commander'
import { pgDumpAdvice } from '../../db/pg-dump-advice'
import { isPostgresUrl } from '../../db/store-kind'
import { DEFAULT_HTTP_HOST, DEFAULT_HTTP_PORT } from '../../../src-shared/constants'
import { isLoopback } from '../../../src-shared/schemas/listener'
import { parseNonNegativeInt, parsePeriod, parsePort, parsePositiveInt } from '../options'
import { consoleBuildDir, defaultDbPath, keyFileFor, poolSizeFrom } from '../paths'
import { readTlsFiles } from '../tls-files'
import { VERSION } from '../version'

interface ServeFlags {
  port: number
  host: string
  db?: string
  seed: boolean
  readers?: number
  pool?: number
  keyFile?: string
  tlsCert?: string
  tlsKey?: string
  insecureHttp?: boolean
  backupEvery?: number
  backupKeep?: number
  backupDir?: string
}

/** The backup schedule the flags ask for; refused on PostgreSQL (pg_dump's job) and when --backup-keep or --backup-dir come alone. */
function backupsFrom(opts: ServeFlags, dbPath: string): { everyMs: number; keep: number; dir: string | null } | undefined {
  if (opts.backupEvery === undefined) {
    if (opts.backupKeep !== undefined || opts.backupDir !== undefined) throw new Error('--backup-keep and --backup-dir need --backup-every (how often to back up)')
    return undefined
  }
  if (isPostgresUrl(dbPath)) throw new Error(`--backup-every backs up a SQLite store. ${pgDumpAdvice(dbPath)}`)
  return { everyMs: opts.backupEvery, keep: opts.backupKeep ?? 7, dir: opts.backupDir ? resolve(opts.backupDir) : null }
}

export function registerServe(program: Command): void {
  program
    .command('serve')
    .description('run the service and the console over HTTP in plain Node (headless mode)')
    .option('-p, --port <port>', 'port to listen on (0 picks a free one)', parsePort, DEFAULT_HTTP_PORT)
    .option('-H, --host <address>', 'address to bind; loopback unless you mean to expose it', DEFAULT_HTTP_HOST)
    .option('--db <file|url>', 'database file, or a PostgreSQL server as postgres://user@host:port/db (default: $CALLSCOPE_DB or a file in the per-user data folder)')
    .option('--pool <n>', 'PostgreSQL only: most connections to the server (default: $CALLSCOPE_PG_POOL or 10)', parsePositiveInt)
    .option('--key-file <file>', 'PostgreSQL only: the key sealing provider keys and webhook secrets (default: $CALLSCOPE_KEY_FILE or one per database in the per-user data folder)')
    .addOption(new Option('--no-seed', 'leave a new database empty instead of adding demo data'))
    .option('--tls-cert <file>', 'PEM certificate (chain): serve HTTPS only, as a team server should (with --tls-key)')
    .option('--tls-key <file>', 'PEM private key of --tls-cert')
    .addOption(new Option('--insecure-http', 'allow plain HTTP on an address that is not loopback (behind a TLS-terminating proxy)'))
    .option('--readers <n>', 'reader threads for database reads, beside one writer thread (default: one per core; 0 runs every query on the main thread)', parseNonNegativeInt)
    .option('--backup-every <period>', 'SQLite only: back the store up every period (30m, 6h, 24h, 7d), the first at once unless a recent one is there', parsePeriod)
    .option('--backup-keep <n>', 'scheduled backups to keep; older ones are deleted once a new one is complete (default: 7)', parsePositiveInt)
    .option('--backup-dir <dir>', 'where scheduled backups go (default: a backups folder beside the store)')
    .action(async (opts: ServeFlags) => {
      const log = (line: string) => process.stdout.write(`${line}\n`)
      const tls = readTlsFiles(opts.tlsCert, opts.tlsKey)
      if (!tls && !isLoopback(opts.host) && !opts.insecureHttp) {
        throw new Error(
          `listening on ${opts.host} would carry tokens over the network in clear text: give --tls-cert and --tls-key ` +
            '(a certificate for this server), or --insecure-http when a proxy in front of it terminates TLS',
        )
      }
      // Loaded on use, so --help and usage errors answer without loading the whole service.
      const { startHeadless } = await import('../../headless')
      const dbPath = opts.db ?? defaultDbPath()
      const backups = backupsFrom(opts, dbPath)
      const starting = startHeadless({
        dbPath,
        poolSize: opts.pool ?? poolSizeFrom(),
        keyFile: opts.keyFile ?? keyFileFor(dbPath),
        host: opts.host,
        port: opts.port,
        envToken: process.env.CALLSCOPE_TOKEN || undefined,
        seedNewDatabase: opts.seed ? 'small' : false,
        readers: opts.readers,
        tls: tls ?? undefined,
        uiRoot: consoleBuildDir,
        version: VERSION,
        log,
        warn: (line) => process.stderr.write(`${line}\n`),
        backups,
      })
      // Handlers go in before "Listening on" is printed: a supervisor may signal right after it.
      const stop = async (signal: string) => {
        log(`${signal}: shutting down`)
        const running = await starting.catch(() => null)
        await running?.stop()
        process.exit(0)
      }
      process.once('SIGINT', () => void stop('SIGINT'))
      process.once('SIGTERM', () => void stop('SIGTERM'))
      await starting
    })
}
