/** How json-rows.mjs joins a query's rows. */
export interface JsonShape {
  /**
   * 'array': one JSON array; 'lines': NDJSON, one value per line, each line ending in "\n"; 'one':
   * the first row's value as it is (no bytes when there is no row); 'concat': the values one after
   * the other with nothing between (each a whole line of text already, such as a CSV line).
   */
  framing: 'array' | 'lines' | 'one' | 'concat'
  /** Columns whose values in the last row come back beside the bytes (a keyset cursor). */
  last?: readonly string[]
}

/** The joined JSON in UTF-8, in a buffer of its own. */
export interface JsonBytes {
  bytes: Uint8Array<ArrayBuffer>
  /** How many rows (JSON values) the bytes hold. */
  rows: number
  /** The `last` columns of the last row; null when there were no rows or no `last`. */
  last: Record<string, unknown> | null
}

/** `rows` are arrays of column values in `columns` order; one column is named `json`. */
export function joinJson(columns: readonly string[], rows: readonly (readonly unknown[])[], shape: JsonShape): JsonBytes
