import { randomUUID } from 'node:crypto'
import { EventEmitter } from 'node:events'
import type { Kysely } from 'kysely'
import type { Database } from '../../db/schema'
import { isoAt, isoNow } from '../../lib/clock'
import { isProcessAlive } from '../../lib/process-alive'
import type { DeliveryStatus } from '../../../src-shared/schemas/webhooks'
import { restated, storeFaultKind } from '../../../src-shared/store-faults'
import { sendOnce, type SendRequest, type SendResult } from './http-sender'
import { retryDelay } from './retry-schedule'
import { signedHeaders } from './signer'
import * as repo from './webhooks.repo'

/*
 * Deliveries in the background: `start` stores the delivery and returns at once; attempts run on
 * the event loop (I/O only, the store's writes go to its writer thread), retries wait on timers, so
 * neither the thread nor any request waits for a receiver. At most MAX_IN_FLIGHT attempts are
 * under way together; more wait their turn. Each attempt is signed afresh (a new timestamp, the
 * tenant's current secret) under the delivery's one webhook-id, and logged with its answer.
 */

const MAX_IN_FLIGHT = 8
/**
 * How often an attempt the store could not log (a full disk) is written again. The attempt stays
 * in memory meanwhile and the delivery reads as pending; nothing is sent twice for it.
 */
const STORE_RETRY_MS = 1000

export interface DeliveryJob {
  tenantId: string
  url: string
  eventType: string
  webhookId: string
  callId: string | null
  payload: string
  source: 'stored' | 'example'
  timeoutMs: number
  allowPrivate: boolean
  replayOf: string | null
}

export interface DelivererOptions {
  /** The tenant's signing secret, opened for one attempt; throws when there is none. */
  secretFor: (tenantId: string) => Promise<string>
  /** Waits before attempts 1…n (retry-schedule.ts). */
  schedule: readonly number[]
  userAgent: string
  /** Replaces the network (tests of the scheduling alone). */
  send?: (request: SendRequest) => Promise<SendResult>
  random?: () => number
}

export interface AttemptNotice {
  deliveryId: string
  number: number
  status: number | null
  errorKind: string | null
  errorMessage: string | null
  latencyMs: number
  nextRetryAt: string | null
}

const is2xx = (status: number | null) => status !== null && status >= 200 && status < 300

export function createDeliverer(db: Kysely<Database>, options: DelivererOptions) {
  const send = options.send ?? sendOnce
  const jobs = new Map<string, DeliveryJob>()
  const timers = new Map<string, NodeJS.Timeout>()
  const events = new EventEmitter()
  events.setMaxListeners(0)
  const closing = new AbortController()
  const running = new Set<Promise<void>>()
  let inFlight = 0
  const queue: Array<() => void> = []

  async function turn<T>(work: () => Promise<T>): Promise<T> {
    if (inFlight >= MAX_IN_FLIGHT) await new Promise<void>((resolve) => queue.push(resolve))
    inFlight++
    try {
      return await work()
    } finally {
      inFlight--
      queue.shift()?.()
    }
  }

  async function attempt(id: string, number: number): Promise<void> {
    const job = jobs.get(id)
    if (!job || closing.signal.aborted) return
    const startedAt = new Date()
    let headers: Record<string, string> = { 'content-type': 'application/json', 'user-agent': options.userAgent }
    let result: SendResult
    let fatal = false
    try {
      headers = { ...headers, ...signedHeaders(await options.secretFor(job.tenantId), job.webhookId, startedAt, job.payload) }
      await repo.updateDelivery(db, id, { status: 'pending', updated_at: isoNow() })
      result = await turn(() => send({ url: job.url, headers, body: job.payload, timeoutMs: job.timeoutMs, allowPrivate: job.allowPrivate, signal: closing.signal }))
    } catch (error) {
      // A full disk before anything was sent: the same attempt once the store takes writes again.
      if (storeFaultKind(error) === 'full') return retryWhenStored(id, number, error)
      // No secret (deleted since), or the store went away: logged as the attempt's failure, not retried.
      fatal = true
      result = { address: null, status: null, headers: null, excerpt: null, truncated: false, latencyMs: 0, errorKind: 'other', errorMessage: (error as Error).message }
    }
    if (closing.signal.aborted) return
    const succeeded = is2xx(result.status)
    const retryable = !succeeded && !fatal && result.errorKind !== 'blocked'
    const wait = retryable ? retryDelay(options.schedule, number + 1, options.random) : null
    const nextAt = wait === null ? null : isoAt(Date.now() + wait)
    const now = isoNow()
    const status = succeeded ? 'succeeded' : nextAt ? 'retrying' : 'failed'
    const logged = await untilLogged(id, number, () => repo.recordAttempt(
      db,
      {
        delivery_id: id, number, started_at: startedAt.toISOString(), url: job.url, address: result.address,
        request_headers: JSON.stringify(headers), response_status: result.status,
        response_headers: result.headers ? JSON.stringify(result.headers) : null, response_excerpt: result.excerpt,
        response_truncated: result.truncated ? 1 : 0, latency_ms: result.latencyMs, error_kind: result.errorKind,
        error_message: result.errorMessage, succeeded: succeeded ? 1 : 0, next_retry_at: nextAt,
      },
      {
        status, attempt_count: number, next_attempt_at: nextAt, last_status: result.status, last_error_kind: result.errorKind,
        updated_at: now, finished_at: nextAt ? null : now,
      },
    ))
    if (!logged) return
    const notice: AttemptNotice = { deliveryId: id, number, status: result.status, errorKind: result.errorKind, errorMessage: result.errorMessage, latencyMs: result.latencyMs, nextRetryAt: nextAt }
    events.emit('attempt', notice)
    if (wait !== null) {
      timers.set(id, setTimeout(() => {
        timers.delete(id)
        track(attempt(id, number + 1))
      }, wait))
    } else {
      jobs.delete(id)
      events.emit('settled', id)
    }
  }

  /** Resolves after `ms`, or at once when the deliverer closes. */
  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms)
      function done() {
        clearTimeout(timer)
        closing.signal.removeEventListener('abort', done)
        resolve()
      }
      closing.signal.addEventListener('abort', done)
    })

  const sayHeld = (id: string, number: number, error: unknown, what: string) =>
    console.error(`Webhook delivery ${id}, attempt ${number}: ${what} (${(error as Error).message}) It is kept in memory and tried again every ${STORE_RETRY_MS / 1000} s.`)

  /** An attempt whose start the store refused (full disk): nothing sent yet; tried again later. */
  async function retryWhenStored(id: string, number: number, error: unknown): Promise<void> {
    sayHeld(id, number, error, 'not sent, the store cannot log it')
    await pause(STORE_RETRY_MS)
    if (!closing.signal.aborted) await attempt(id, number)
  }

  /**
   * Logs an attempt that was made, writing it again while the disk is full, so that an event sent
   * is never forgotten as unsent. False when the deliverer closed first: the delivery then reads
   * as interrupted (its process is gone) and can be replayed.
   */
  async function untilLogged(id: string, number: number, log: () => Promise<unknown>): Promise<boolean> {
    for (let told = false; ; ) {
      try {
        await log()
        return !closing.signal.aborted
      } catch (error) {
        if (storeFaultKind(error) !== 'full') throw error
        if (!told) sayHeld(id, number, error, 'made, but the store cannot log it')
        told = true
      }
      await pause(STORE_RETRY_MS)
      if (closing.signal.aborted) return false
    }
  }

  function track(work: Promise<void>): void {
    const guarded = work.catch((error: unknown) => {
      if (!closing.signal.aborted) console.error('Webhook delivery failed unexpectedly:', error)
    })
    running.add(guarded)
    void guarded.finally(() => running.delete(guarded))
  }

  return {
    /** Stores the delivery and starts its first attempt in the background; resolves with its id. */
    async start(job: DeliveryJob): Promise<string> {
      const id = `dlv_${randomUUID().replaceAll('-', '')}`
      const now = isoNow()
      // Logged before it is sent: on a full disk nothing is sent, and the caller hears 507.
      await repo.insertDelivery(db, {
        id, tenant_id: job.tenantId, event_type: job.eventType, webhook_id: job.webhookId, call_id: job.callId, url: job.url,
        payload: job.payload, source: job.source, status: 'pending', max_attempts: Math.max(1, options.schedule.length),
        next_attempt_at: now, pid: process.pid, created_at: now, updated_at: now, replay_of: job.replayOf,
      }).catch((error: unknown) => {
        throw restated(error, 'Logging the webhook delivery', 'Nothing was sent.')
      })
      jobs.set(id, job)
      track(attempt(id, 1))
      return id
    },

    /** The status to show: a pending or retrying delivery whose sender is gone reads as interrupted. */
    statusOf(row: Pick<repo.DeliveryRow, 'id' | 'status' | 'pid'>): DeliveryStatus {
      if (row.status === 'succeeded' || row.status === 'failed') return row.status
      const alive = row.pid === process.pid ? jobs.has(row.id) : isProcessAlive(row.pid)
      return alive ? row.status : 'interrupted'
    },

    /** Resolves once the delivery succeeded or gave up (at once when it is not under way here). */
    whenSettled(id: string): Promise<void> {
      if (!jobs.has(id)) return Promise.resolve()
      return new Promise((resolve) => {
        const listener = (settled: string) => {
          if (settled !== id) return
          events.off('settled', listener)
          resolve()
        }
        events.on('settled', listener)
      })
    },

    /** Told of every attempt as it is logged (the CLI's progress lines; the console polls the log). */
    onAttempt(listener: (notice: AttemptNotice) => void): () => void {
      events.on('attempt', listener)
      return () => events.off('attempt', listener)
    },

    /** Stops: no further attempts, in-flight ones aborted; what is left reads as interrupted. */
    async close(): Promise<void> {
      closing.abort()
      for (const timer of timers.values()) clearTimeout(timer)
      timers.clear()
      await Promise.allSettled([...running])
      const unfinished = [...jobs.keys()]
      jobs.clear()
      for (const id of unfinished) await repo.updateDelivery(db, id, { pid: null, updated_at: isoNow() }).catch(() => undefined)
    },
  }
}

export type Deliverer = ReturnType<typeof createDeliverer>
