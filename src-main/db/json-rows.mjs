// JSON text of many rows joined where the query ran: on a reader thread (read-worker.mjs), or on
// the calling thread for stores without readers (json-reads.ts). Plain JavaScript with no imports,
// so the reader thread loads it without a TypeScript loader. Types: json-rows.d.mts.

const encoder = new TextEncoder()
const OPEN = 0x5b // [
const CLOSE = 0x5d // ]
const COMMA = 0x2c
const NEWLINE = 0x0a

/**
 * Joins the JSON value each row holds in its `json` column (UTF-8 bytes, as a BLOB reads; text is
 * encoded) into one JSON array (`framing: 'array'`), NDJSON (`'lines'`: each value on a line of
 * its own, each line ending in "\n") or the first row's value alone (`'one'`: no bytes when there
 * is no row). `'concat'` joins the values as they are, for rows whose text is a whole line of
 * another format already (a CSV line with its CRLF). The bytes get a buffer of their own, so they can be moved to another thread. `last`
 * names columns whose values in the last row are handed back beside them (a keyset cursor, or the
 * other columns of a `'one'` row).
 */
export function joinJson(columns, rows, shape) {
  const at = columns.indexOf('json')
  if (at < 0) throw new Error('The query has no "json" column')
  const taken = shape.framing === 'one' ? rows.slice(0, 1) : rows
  const parts = taken.map((row) => {
    const value = row[at]
    if (value === null || value === undefined) throw new Error('A row has no JSON value')
    return typeof value === 'string' ? encoder.encode(value) : value
  })
  const array = shape.framing === 'array'
  const lines = shape.framing === 'lines'
  // Brackets and commas for an array, a newline after each value for lines, nothing for one.
  let size = array ? Math.max(2, parts.length + 1) : lines ? parts.length : 0
  for (const part of parts) size += part.byteLength
  const bytes = new Uint8Array(size)
  let offset = 0
  if (array) bytes[offset++] = OPEN
  for (let i = 0; i < parts.length; i++) {
    if (array && i > 0) bytes[offset++] = COMMA
    bytes.set(parts[i], offset)
    offset += parts[i].byteLength
    if (lines) bytes[offset++] = NEWLINE
  }
  if (array) bytes[offset++] = CLOSE
  const lastRow = taken.length > 0 ? taken[taken.length - 1] : null
  const last = lastRow && shape.last ? Object.fromEntries(shape.last.map((name) => [name, lastRow[columns.indexOf(name)]])) : null
  return { bytes, rows: taken.length, last }
}
