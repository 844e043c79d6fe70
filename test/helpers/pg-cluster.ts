import { execFile } from 'node:child_process'
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir, userInfo } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'

const run = promisify(execFile)

/**
 * A throwaway PostgreSQL cluster for tests (issue 20): Debian's postgresql package, initdb into a
 * temporary folder, pg_ctl start on a free 127.0.0.1 port with its socket in that folder, stopped
 * and removed by `stop()`. Nothing of the machine's own PostgreSQL (service, port 5432, data
 * folders) is used or touched.
 */
export interface PgCluster {
  /** `postgres://postgres@127.0.0.1:<port>` without a database: add `/<name>`. */
  baseUrl: string
  port: number
  /** The cluster's folder (data, socket, log). */
  dir: string
  /** The URL of database `name` in this cluster. */
  urlOf(name: string): string
  /** Runs one SQL statement as the superuser, on `database` (default `postgres`), through psql. */
  psql(sql: string, database?: string): Promise<string>
  /** Stops the server at once (`-m immediate`: nothing to keep) and removes the folder; a kept cluster shuts down cleanly and stays. */
  stop(): Promise<void>
}

/** The newest installed server's binaries (/usr/lib/postgresql/<version>/bin), or null. */
export function findPgBin(): string | null {
  const root = '/usr/lib/postgresql'
  if (!existsSync(root)) return null
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a))
  return versions.length > 0 ? join(root, versions[0]!, 'bin') : null
}

/** A port nothing listens on right now (the kernel's pick for port 0). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))))
    })
  })
}

/** initdb refuses to run as root: as root, the cluster belongs to the `postgres` user. */
const asRoot = userInfo().uid === 0

function runAsOwner(bin: string, args: string[]) {
  return asRoot ? run('runuser', ['-u', 'postgres', '--', bin, ...args]) : run(bin, args)
}

export interface PgClusterSettings {
  /** A server's durable defaults (fsync on) rather than a test cluster's: for benchmarks. */
  durable?: boolean
  /**
   * A folder that outlives the run (a benchmark's 10-million-line database takes most of an hour
   * to load): the cluster is made there if it holds none, started from it otherwise, and `stop()`
   * shuts it down cleanly and leaves it.
   */
  keepIn?: string
  /** More `-c name=value` server settings. */
  server?: string[]
  /**
   * The folder to make the cluster in (data, socket, log) instead of a new temporary one, made if
   * missing and removed by `stop()`: a small disk's, for a test of PostgreSQL on a full disk.
   */
  dir?: string
}

export async function startPgCluster(settings: PgClusterSettings = {}): Promise<PgCluster> {
  const bin = findPgBin()
  if (!bin) throw new Error('PostgreSQL is not installed: no /usr/lib/postgresql/*/bin/initdb (apt-get install postgresql; .ci/run does)')
  const kept = settings.keepIn !== undefined
  if (kept) mkdirSync(settings.keepIn!, { recursive: true })
  if (settings.dir !== undefined) mkdirSync(settings.dir, { recursive: true })
  const dir = kept ? settings.keepIn! : (settings.dir ?? mkdtempSync(join(tmpdir(), 'callscope-pg-')))
  const data = join(dir, 'data')
  const remove = () => {
    if (!kept) rmSync(dir, { recursive: true, force: true })
  }
  let started = false
  try {
    if (asRoot) {
      const { stdout } = await run('id', ['-u', 'postgres'])
      const { stdout: gid } = await run('id', ['-g', 'postgres'])
      chownSync(dir, Number(stdout.trim()), Number(gid.trim()))
      chmodSync(dir, 0o700)
    }
    // C locale: text sorts by code point, as SQLite's BINARY collation does (the schema also says
    // collate "C" on its text columns, so this is belt and braces). No fsync for a throwaway test
    // cluster; a kept one (a benchmark's) is written to disk as a server's would be.
    if (!existsSync(join(data, 'PG_VERSION'))) {
      await runAsOwner(join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--locale=C', ...(kept ? [] : ['--no-sync'])])
    }
    let port = 0
    for (let attempt = 0; ; attempt++) {
      port = await freePort()
      const options = [
        `-p ${port}`,
        `-k ${dir}`,
        '-c listen_addresses=127.0.0.1',
        // A benchmark (`durable`) keeps a server's defaults for durability: figures with fsync off would flatter it.
        ...(settings.durable ? ['-c shared_buffers=256MB'] : ['-c fsync=off', '-c synchronous_commit=off', '-c full_page_writes=off', '-c shared_buffers=64MB']),
        '-c max_connections=200',
        ...(settings.server ?? []).map((setting) => `-c ${setting}`),
      ].join(' ')
      try {
        // -w: pg_ctl returns once the server accepts connections (it polls the server itself).
        await runAsOwner(join(bin, 'pg_ctl'), ['-D', data, '-l', join(dir, 'server.log'), '-o', options, '-w', '-t', '60', 'start'])
        started = true
        break
      } catch (error) {
        // Another process took the port between the check and the start: try another one.
        if (attempt >= 2) throw error
      }
    }
    const baseUrl = `postgres://postgres@127.0.0.1:${port}`
    const cluster: PgCluster = {
      baseUrl,
      port,
      dir,
      urlOf: (name) => `${baseUrl}/${name}`,
      async psql(sql, database = 'postgres') {
        const { stdout } = await run(join(bin, 'psql'), ['-X', '-q', '-A', '-t', '-v', 'ON_ERROR_STOP=1', '-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', '-d', database, '-c', sql])
        return stdout.trim()
      },
      async stop() {
        try {
          await runAsOwner(join(bin, 'pg_ctl'), ['-D', data, '-m', kept ? 'fast' : 'immediate', '-w', '-t', '300', 'stop'])
        } finally {
          remove()
        }
      },
    }
    return cluster
  } catch (error) {
    if (started) await runAsOwner(join(bin, 'pg_ctl'), ['-D', data, '-m', kept ? 'fast' : 'immediate', '-w', 'stop']).catch(() => {})
    remove()
    throw error
  }
}
