/*
 * COPY's text format (PostgreSQL's `copy … from stdin`), with no dependency: the import's parse
 * worker writes its batches in it (modules/imports/copy-batches.ts), so its module graph stays small.
 */

/** One value in COPY's text format: `\N` for null, backslash escapes for the four characters it reserves. */
export function copyField(value: unknown): string {
  if (value === null || value === undefined) return '\\N'
  const text = typeof value === 'string' ? value : String(value)
  return /[\\\t\n\r]/.test(text) ? text.replace(/[\\\t\n\r]/g, (c) => COPY_ESCAPES[c]!) : text
}
const COPY_ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' }

/** One row: its fields tab-separated, ended by a newline. */
export const copyLine = (values: readonly unknown[]): string => `${values.map(copyField).join('\t')}\n`

/** Rows given as values, each line prefixed by its number (`ord(i)`, a staging table's first column). */
export function copyLines(rows: ReadonlyArray<readonly unknown[]>, ord: (i: number) => number): string {
  let text = ''
  for (let i = 0; i < rows.length; i++) text += copyLine([ord(i), ...rows[i]!])
  return text
}
