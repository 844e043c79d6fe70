import { hostname } from 'node:os'
import type { Kysely } from 'kysely'
import type { Database } from '../../db/schema'
import { InvalidInputError } from '../../kit/errors'
import { isoNow } from '../../lib/clock'
import { restated } from '../../../src-shared/store-faults'
import { describeConnectionError } from '../../lib/connection-errors'
import type { ImportReport } from '../imports/import-report'
import { normalizeBaseUrl } from '../pull/remote-client'
import { LOCAL_SOURCE, type SourcesService } from '../sources/sources.service'
import { pushedLine } from './push-record'
import { getFromServer, type PushTarget, type ServerAnswer, UploadBodyError, uploadToServer } from './push-upload'
import * as repo from './push.repo'

/*
 * `callscope push` (issue 20 pt 4): a laptop's call logs, or one source's, uploaded to a team
 * server through the server's own import (`POST /imports/call-logs`, NDJSON, streamed), each
 * source's under the same source there (`?as_source=`). The server skips what it has by (id,
 * source), so a second push adds nothing and says so, and an interrupted one run again completes.
 * docs/api.md "Push to a team server".
 */

/** Records per upload: each is one import on the server, well inside its request timeout (5 min). */
export const DEFAULT_CHUNK_RECORDS = 50_000
/** Records read from the store and written to the request at a time. */
const PAGE_RECORDS = 1000
/** Refused records kept in the report (with their ids); the counts cover the rest. */
const MAX_REPORTED = 100
/** What a push whose own store could not record its progress (the laptop's disk full) still holds true. */
const PUSH_CURSOR_LOST = 'The server keeps what it took; the next push sends those records again and the server skips them.'

export interface PushOptions {
  /** The team server's base URL (http or https). */
  to: string
  /** An admin token of the team server. */
  token: string
  /** Only this source: `local` or a pulled backend's base URL, as `?source=` names it. */
  source?: string
  /** PEM to trust for the server's certificate instead of the system's authorities. */
  ca?: string
  chunkRecords?: number
  /**
   * Send every record again, not only what came after the last push to this server confirmed (the
   * server still skips what it has): after the server lost data, or to check it has everything.
   */
  all?: boolean
  /** How the server's import history names this push's uploads (default: this machine's name). */
  from?: string
  signal?: AbortSignal
  onProgress?: (progress: PushProgress) => void
}

export interface PushProgress {
  /** The source being sent (`local` or a base URL). */
  source: string
  /** Records written to the server so far, of `total` (every source of the push). */
  sent: number
  total: number
  /** The server's counts for the uploads it has answered. */
  inserted: number
  duplicates: number
  invalid: number
  elapsedMs: number
}

export interface PushSourceReport {
  /** `local`, or the pulled backend's base URL: the source on the laptop and on the server. */
  source: string
  /** Call logs of the source on the laptop when the push began. */
  total: number
  /** Of those, the ones an earlier push to this server had sent and the server confirmed: not sent again. */
  pushedBefore: number
  /** Why the last push's place was not used, when there was one: every record is sent (the server skips what it has). */
  restarted: string | null
  /** Records the server answered for (read and counted). */
  sent: number
  inserted: number
  duplicates: number
  invalid: number
  uploads: number
}

export interface PushReport {
  url: string
  status: 'completed' | 'failed' | 'cancelled'
  failure: string | null
  sources: PushSourceReport[]
  /** The first refused records: which, and why the server refused them. */
  refused: Array<{ source: string; id: string; reason: string }>
  durationMs: number
}

const nameOf = (key: string) => (key === '' ? LOCAL_SOURCE : key)

/** The `detail` of a Callscope answer, or the error message of a tRPC one, else the text. */
function detailOf(answer: ServerAnswer): string {
  try {
    const body = JSON.parse(answer.body) as { detail?: unknown; error?: { message?: unknown; json?: { message?: unknown } } }
    const detail = body.detail ?? body.error?.message ?? body.error?.json?.message
    if (typeof detail === 'string') return detail
    if (detail !== undefined) return JSON.stringify(detail)
  } catch {
    // not JSON: the text itself
  }
  const text = answer.body.trim().replace(/\s+/g, ' ')
  return text.length > 200 ? `${text.slice(0, 200)}…` : text
}

const NEEDS_ADMIN = 'push writes to the server, so it needs an admin token of the server (callscope token create --role admin, run there)'

/**
 * Why the server refused a token, in words that say what to do. `source`: the answer is to an
 * upload of that source's rows (the token passed the check), so a 403 is the token's source binding.
 */
function refusal(answer: ServerAnswer, source?: string): string | null {
  if (answer.status === 401) return `The server refused the token (401: ${detailOf(answer)}): it is wrong, revoked or expired; ${NEEDS_ADMIN}`
  if (answer.status === 403 && source !== undefined) {
    return `The server refused the upload of ${source} (403: ${detailOf(answer)}): push the source this token may write with --source, or use a token bound to no source`
  }
  if (answer.status === 403) return `The server refused the token for uploads (403: ${detailOf(answer)}): ${NEEDS_ADMIN}`
  return null
}

export function createPushService(db: Kysely<Database>, sources: SourcesService) {
  const TRUST_HINT = "give the server's certificate (PEM) with --ca FILE"

  async function ask<T>(target: PushTarget, run: () => Promise<T>): Promise<T> {
    try {
      return await run()
    } catch (error) {
      if ((error as Error).name === 'AbortError') throw error
      throw new Error(describeConnectionError(target.url, error, TRUST_HINT))
    }
  }

  /** Is it a Callscope server, and does it take this token for imports (admin only)? */
  async function check(target: PushTarget, signal?: AbortSignal): Promise<void> {
    const health = await ask(target, () => getFromServer(target, '/healthz', signal))
    let status: unknown
    try {
      status = (JSON.parse(health.body) as { status?: unknown }).status
    } catch {
      status = undefined
    }
    if (health.status !== 200 || status !== 'ok') {
      throw new Error(`${target.url} answered, but not as a Callscope server (GET /healthz gave ${health.status}): check the address`)
    }
    // The import history is admin only, as imports are: asking for it checks the token and writes nothing.
    const history = await ask(target, () => getFromServer(target, '/trpc/imports.list', signal))
    const refused = refusal(history)
    if (refused) throw new Error(refused)
    if (history.status !== 200) throw new Error(`${target.url} answered ${history.status} to the token check (${detailOf(history)}): is it a Callscope server of this version or newer?`)
  }

  /** The options checked: the server's base URL, the source asked for (its stored key), the upload size. */
  async function readOptions(o: PushOptions): Promise<{ target: PushTarget; only: string | undefined; chunk: number }> {
    let url: string
    try {
      url = normalizeBaseUrl(o.to)
    } catch (error) {
      throw new InvalidInputError(`--to: ${(error as Error).message}`)
    }
    let only: string | undefined
    if (o.source !== undefined) {
      const resolved = await sources.resolve(o.source)
      if ('problem' in resolved) throw new InvalidInputError(`--source: ${resolved.problem}`)
      only = resolved.key
    }
    return { target: { url, token: o.token, ca: o.ca }, only, chunk: o.chunkRecords ?? DEFAULT_CHUNK_RECORDS }
  }

  /**
   * The records of one upload as NDJSON text, a page at a time from `first` on, the next page read
   * while one goes out; `sent` is told each page's rows once written, and ends at `chunk` records.
   */
  async function* uploadLines(source: string, first: repo.PushedRow[], chunk: number, sent: (rows: repo.PushedRow[]) => void): AsyncGenerator<string> {
    let page = first
    let count = 0
    while (page.length > 0) {
      count += page.length
      const after = page.at(-1)!.seq
      const next = count < chunk ? repo.callLogPage(db, source, after, Math.min(PAGE_RECORDS, chunk - count)) : null
      next?.catch(() => {})
      yield page.map(pushedLine).join('')
      sent(page)
      if (!next) return
      page = await next
    }
  }

  /** The server's import report of an upload, or why there is none (a refusal, a failure). */
  function importReportOf(answer: ServerAnswer, url: string, source: string): ImportReport {
    const refused = refusal(answer, source)
    if (refused) throw new Error(refused)
    let body: (ImportReport & { import?: ImportReport }) | null = null
    try {
      body = JSON.parse(answer.body) as ImportReport
    } catch {
      body = null
    }
    // 201: the upload's import report; 422, 507 or 503 with `import`: the file, or the server's
    // store (its disk full, damage), failed part way, and the report says what it kept.
    const report = answer.status === 201 ? body : [422, 503, 507].includes(answer.status) ? (body?.import ?? null) : null
    if (!report) throw new Error(`${url} refused an upload (${answer.status}: ${detailOf(answer)})`)
    return report
  }

  /**
   * Where a source's push starts: after the last record the server confirmed to an earlier push,
   * if the store still holds that record at that place. A store replaced since (a snapshot opened,
   * a restore) or rows renumbered after the newest were deleted would not: then from the start.
   */
  async function startOf(url: string, source: string, all: boolean): Promise<{ after: number; restarted: string | null }> {
    if (all) return { after: 0, restarted: null }
    const cursor = await repo.pushCursor(db, url, source)
    if (!cursor) return { after: 0, restarted: null }
    if ((await repo.callLogIdAt(db, cursor.seq)) === cursor.id) return { after: cursor.seq, restarted: null }
    return { after: 0, restarted: 'this store no longer holds the last record pushed there, so every record is sent again (the server skips what it has)' }
  }

  async function push(o: PushOptions): Promise<PushReport> {
    const started = performance.now()
    const { target, only, chunk } = await readOptions(o)
    const { url } = target
    // The server and the token first: a refusal is said at once, before the store is counted.
    await check(target, o.signal)
    const counts = await repo.callLogCountsBySource(db, only)
    const starts = await Promise.all(counts.map((c) => startOf(url, c.source, o.all === true)))
    const left = await Promise.all(counts.map((c, i) => repo.callLogCountAfter(db, c.source, starts[i]!.after)))
    const total = left.reduce((sum, n) => sum + n, 0)
    const report: PushReport = { url, status: 'completed', failure: null, sources: [], refused: [], durationMs: 0 }
    const totals = { sent: 0, inserted: 0, duplicates: 0, invalid: 0 }
    const from = (o.from ?? hostname()).slice(0, 100)

    /** One upload of `source`'s rows from `first` on: sent, and its counts added to the report. */
    async function upload(source: string, mine: PushSourceReport, first: repo.PushedRow[]): Promise<{ next: number; confirmed: repo.PushCursor | null }> {
      const ids: string[] = []
      const seqs: number[] = []
      const lines = uploadLines(source, first, chunk, (rows) => {
        for (const r of rows) {
          ids.push(r.id)
          seqs.push(r.seq)
        }
        o.onProgress?.({ source: mine.source, total, ...totals, sent: totals.sent + ids.length, elapsedMs: performance.now() - started })
      })
      mine.uploads++
      const fileName = `push from ${from}: ${mine.source} #${mine.uploads}`.slice(0, 255)
      const path = `/imports/call-logs?format=ndjson&as_source=${encodeURIComponent(mine.source)}&file_name=${encodeURIComponent(fileName)}`
      const answer = await uploadToServer(target, path, 'application/x-ndjson', lines, o.signal).catch((error: NodeJS.ErrnoException) => {
        if (error.name === 'AbortError') throw error
        if (error instanceof UploadBodyError) throw new Error(`could not read this store: ${error.message}`)
        throw new Error(`the connection to ${url} broke during an upload (${error.code ?? error.message})`)
      })
      const server = importReportOf(answer, url, mine.source)
      for (const key of ['inserted', 'duplicates', 'invalid'] as const) {
        mine[key] += server[key]
        totals[key] += server[key]
      }
      mine.sent += server.recordsRead
      totals.sent += server.recordsRead
      for (const e of server.errors) {
        if (report.refused.length < MAX_REPORTED) report.refused.push({ source: mine.source, id: ids[e.record - 1] ?? `record ${e.record}`, reason: e.reason })
      }
      if (server.status !== 'completed') throw new Error(`the server could not store the upload: ${server.failure ?? detailOf(answer)}`)
      if (server.recordsRead !== ids.length) throw new Error(`the server read ${server.recordsRead} of the ${ids.length} records of an upload`)
      // Stored up to the first record the server refused: that one is sent again next time (and
      // refused again, saying why, until the server can take it), so no push calls it pushed.
      // (The report keeps the first refusals; with none kept, the whole upload counts as not confirmed.)
      const firstRefused = server.invalid > 0 && server.errors.length === 0 ? 1 : Math.min(ids.length + 1, ...server.errors.map((e) => e.record))
      const upTo = firstRefused - 2
      return { next: seqs.at(-1)!, confirmed: upTo >= 0 ? { seq: seqs[upTo]!, id: ids[upTo]! } : null }
    }

    try {
      for (const [i, { source, count }] of counts.entries()) {
        const { after: start, restarted } = starts[i]!
        const mine: PushSourceReport = { source: nameOf(source), total: count, pushedBefore: count - left[i]!, restarted, sent: 0, inserted: 0, duplicates: 0, invalid: 0, uploads: 0 }
        report.sources.push(mine)
        let after = start
        // A record refused on the way stops the cursor: a later push starts again there.
        let advancing = true
        for (;;) {
          const first = await repo.callLogPage(db, source, after, Math.min(PAGE_RECORDS, chunk))
          if (first.length === 0) break
          const { next, confirmed } = await upload(source, mine, first)
          // The server has every record up to `confirmed`: the next push starts after it.
          if (advancing && confirmed) {
            await repo.savePushCursor(db, url, source, confirmed, isoNow()).catch((error: unknown) => {
              throw restated(error, 'Recording how far the push got', PUSH_CURSOR_LOST)
            })
          }
          if (confirmed?.seq !== next) advancing = false
          after = next
        }
      }
    } catch (error) {
      const cancelled = (error as Error).name === 'AbortError'
      report.status = cancelled ? 'cancelled' : 'failed'
      report.failure = cancelled ? 'cancelled' : (error as Error).message
    }
    report.durationMs = Math.round(performance.now() - started)
    return report
  }

  return { push }
}

export type PushService = ReturnType<typeof createPushService>
