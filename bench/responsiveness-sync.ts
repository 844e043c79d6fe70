/**
 * The responsiveness bench's write that is not an import: a mirror `serve`, the server under the
 * probe, keeps a remote `serve` in sync ("Keep in sync", what `pull --follow` does) until it has
 * stored SYNC_RECORDS call logs; the sync is then switched off. Its first cycle pulls the remote's
 * call logs window by window and stores each as it comes (no bulk load: a sync's rows are seen as
 * they land).
 */
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import Database from 'better-sqlite3'
import { startServe } from '../test/helpers/cli'
import { startSync, stopSync, syncState } from './mirror-sync'
import { measureResponsiveness, type ResponsivenessRow } from './responsiveness'

/** Enough for the sync to write for 10–30 s on this machine. */
export const SYNC_RECORDS = 100_000
export const SYNC_ROW_NAME = `a mirror's "Keep in sync" (\`pull --follow\`) from a second \`serve\`, until ${SYNC_RECORDS.toLocaleString('en-US')} call logs are stored`

const remove = (path: string) => {
  for (const suffix of ['', '-wal', '-shm', '.key']) rmSync(`${path}${suffix}`, { force: true })
}

/** Syncs `mirrorDb` from the remote until it holds `records` call logs (counted in the file itself), then switches the sync off. */
async function syncUntil(mirrorUrl: string, mirrorDb: string, remoteUrl: string, token: string, records: number): Promise<void> {
  await startSync(mirrorUrl, remoteUrl, token)
  const truth = new Database(mirrorDb, { readonly: true })
  const stored = truth.prepare('select count(*) from call_logs').pluck()
  try {
    while ((stored.get() as number) < records) {
      const { state, lastError } = await syncState(mirrorUrl, token)
      if (state !== 'pulling') throw new Error(`the sync stopped before ${records} call logs were stored (${state}: ${lastError})`)
      await sleep(250)
    }
  } finally {
    truth.close()
  }
  await stopSync(mirrorUrl, remoteUrl, token)
}

/** The sync row: a new mirror (started with `serveArgs`, as the other rows' server) probed while it syncs from `remoteUrl`. */
export async function syncRow(remoteUrl: string, dataDir: string, token: string, serveArgs: string[]): Promise<ResponsivenessRow> {
  const mirrorDb = join(dataDir, 'responsiveness-mirror.sqlite')
  remove(mirrorDb)
  const mirror = await startServe(['--db', mirrorDb, '--no-seed', ...serveArgs], { CALLSCOPE_TOKEN: token })
  // What the mirror says (a failed cycle, a crash) belongs in the bench's output.
  mirror.child.stderr?.on('data', (chunk: Buffer) => process.stderr.write(`mirror: ${chunk}`))
  mirror.child.on('exit', (code, signal) => console.error(`mirror: exited (code ${code}, signal ${signal})`))
  try {
    return await measureResponsiveness(mirror.url, token, { name: SYNC_ROW_NAME, run: (base, t) => syncUntil(base, mirrorDb, remoteUrl, t, SYNC_RECORDS) })
  } finally {
    await mirror.stop()
    remove(mirrorDb)
  }
}
