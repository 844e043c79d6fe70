import type { Compilable, CompiledQuery, Kysely } from 'kysely'
import { type JsonBytes, type JsonShape, joinJson } from './json-rows.mjs'
import type { ReadPool } from './read-pool'
import type { Database } from './schema'

export type { JsonBytes, JsonShape }

/**
 * Reads whose answer is JSON, ready to send (issue 19): the query builds each row's JSON value in
 * a column named `json` (UTF-8 bytes: a BLOB), and the rows are joined where the query ran. With
 * reader threads the rows never become objects or strings on the calling thread: the bytes arrive
 * moved, not copied. The REST listing and the NDJSON export use it; everything else reads rows
 * through kysely.
 */
export interface JsonReads {
  /** The `json` values of one SELECT's rows as one JSON array or NDJSON (json-rows.mjs). */
  bytes(query: Compilable<{ json: Uint8Array }> | CompiledQuery<{ json: Uint8Array }>, shape: JsonShape): Promise<JsonBytes>
}

export function createJsonReads(db: Kysely<Database>, pool: ReadPool | null): JsonReads {
  return {
    async bytes(query, shape) {
      const compiled = 'compile' in query ? query.compile() : query
      if (pool) return pool.readJson(compiled.sql, compiled.parameters, shape)
      // No readers (one-shot CLI commands, in-memory stores): the same text from rows read here.
      const { rows } = await db.executeQuery<Record<string, unknown>>(compiled)
      const columns = rows.length > 0 ? Object.keys(rows[0]!) : ['json']
      return joinJson(columns, rows.map((row) => Object.values(row)), shape)
    },
  }
}
