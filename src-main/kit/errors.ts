import type { TRPC_ERROR_CODE_KEY } from '@trpc/server'

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
  http: 400 | 403 | 404 | 409
  trpc: TRPC_ERROR_CODE_KEY
}

/** The one table from service errors to statuses, read by REST and tRPC alike. */
const ERROR_STATUS: ReadonlyArray<[new (...args: never[]) => Error, ErrorStatus]> = [
  [NotFoundError, { http: 404, trpc: 'NOT_FOUND' }],
  [ForbiddenError, { http: 403, trpc: 'FORBIDDEN' }],
  [InvalidInputError, { http: 400, trpc: 'BAD_REQUEST' }],
  [ConflictError, { http: 409, trpc: 'CONFLICT' }],
]

/** How a transport answers a service error; null for anything else (a bug: 500, logged). */
export function errorStatus(error: unknown): ErrorStatus | null {
  for (const [type, status] of ERROR_STATUS) if (error instanceof type) return status
  return null
}
