import type { TRPC_ERROR_CODE_KEY } from '@trpc/server'
import { damagedMessage, diskFullMessage, StoreDamagedError, type StoreFaultError, storeFaultKind, StoreFullError } from '../../src-shared/store-faults'

/** Errors the services raise; each transport maps them through ERROR_STATUS below. */
export class NotFoundError extends Error {
  constructor(what: string) {
    super(`${what} not found`)
    this.name = 'NotFoundError'
  }
}

export class ForbiddenError extends Error {
  constructor(message = 'Not enough permissions') {
    super(message)
    this.name = 'ForbiddenError'
  }
}

/** Input a service refuses before doing anything (a transport's 400 / BAD_REQUEST; the CLI's usage error). */
export class InvalidInputError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'InvalidInputError'
  }
}

/**
 * The request is well formed but clashes with what the store holds (a name another record has):
 * the same request may succeed later, unlike a 422. REST 409, tRPC CONFLICT.
 */
export class ConflictError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'ConflictError'
  }
}

export interface ErrorStatus {
  /** The REST status, with `{ detail: message }` as the body. */
  http: 400 | 403 | 404 | 409 | 503 | 507
  trpc: TRPC_ERROR_CODE_KEY
}

/** The one table from service errors to statuses, read by REST and tRPC alike. */
const ERROR_STATUS: ReadonlyArray<[new (...args: never[]) => Error, ErrorStatus]> = [
  [NotFoundError, { http: 404, trpc: 'NOT_FOUND' }],
  [ForbiddenError, { http: 403, trpc: 'FORBIDDEN' }],
  [InvalidInputError, { http: 400, trpc: 'BAD_REQUEST' }],
  [ConflictError, { http: 409, trpc: 'CONFLICT' }],
  // Faults of the store, not of the request (src-shared/store-faults.ts): 507 Insufficient Storage
  // and 503 Service Unavailable, each with what to do. tRPC has no 507: both are SERVICE_UNAVAILABLE.
  [StoreFullError, { http: 507, trpc: 'SERVICE_UNAVAILABLE' }],
  [StoreDamagedError, { http: 503, trpc: 'SERVICE_UNAVAILABLE' }],
]

/** How a transport answers a service error; null for anything else (a bug: 500, logged). */
export function errorStatus(error: unknown): ErrorStatus | null {
  for (const [type, status] of ERROR_STATUS) if (error instanceof type) return status
  return null
}

/**
 * A store fault that reached a transport without being named where it happened (its path unknown
 * there), named now so that it still answers 507 or 503 with what to do; other errors unchanged.
 * The writer and the readers name theirs (db/store-faults.ts); this is the net under them.
 */
export function asStoreFault(error: unknown): unknown {
  if (error instanceof StoreFullError || error instanceof StoreDamagedError) return error
  const kind = storeFaultKind(error)
  if (kind === null) return error
  const details = { storePath: 'the store' }
  const fault: StoreFaultError =
    kind === 'full' ? new StoreFullError(diskFullMessage('The request', details), details) : new StoreDamagedError(damagedMessage('The request', details, (error as Error).message), details)
  return Object.assign(fault, { cause: error })
}
