import type { QueryResult } from 'kysely'
import type { Statement } from './store-writer'

/** What the writer thread starts with. */
export interface WriterData {
  path: string
  nativeBinding?: string
}

/** To the writer thread: one statement, or one job by name; `id` pairs the answer. */
export type ToWriter =
  | { id: number; type: 'execute'; statement: Statement }
  | { id: number; type: 'job'; name: string; args: unknown }
  | { id: number; type: 'close' }

/**
 * From the writer thread. An error crosses as its name, message and code (structured clone keeps
 * only a plain Error's message): the caller gets an Error with the same three.
 */
export type FromWriter =
  | { type: 'ready' }
  | { type: 'failed'; error: WireError }
  | { id: number; type: 'result'; value: unknown }
  | { id: number; type: 'progress'; value: unknown }
  | { id: number; type: 'error'; error: WireError }

export interface WireError {
  name: string
  message: string
  code?: string
}

export const toWire = (error: unknown): WireError => {
  const e = error as { name?: unknown; message?: unknown; code?: unknown }
  return {
    name: typeof e?.name === 'string' ? e.name : 'Error',
    message: typeof e?.message === 'string' ? e.message : String(error),
    ...(typeof e?.code === 'string' ? { code: e.code } : {}),
  }
}

export const fromWire = (wire: WireError): Error => Object.assign(new Error(wire.message), { name: wire.name }, wire.code ? { code: wire.code } : {})

export type ExecuteResult = QueryResult<unknown>
