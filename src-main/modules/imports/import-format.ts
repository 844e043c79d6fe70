export const IMPORT_FORMATS = ['ndjson', 'json', 'csv'] as const
export type ImportFormat = (typeof IMPORT_FORMATS)[number]

/**
 * The format of a file from its name, else from its first non-blank character: `[` is a JSON
 * array, `{` is NDJSON, anything else is read as CSV (a header line).
 */
export function detectFormat(fileName: string, head: string): ImportFormat {
  const extension = /\.([a-z]+)$/i.exec(fileName)?.[1]?.toLowerCase()
  if (extension === 'ndjson' || extension === 'jsonl') return 'ndjson'
  if (extension === 'csv') return 'csv'
  const first = head.replace(/^\uFEFF/, '').trimStart()[0]
  if (first === '[') return 'json'
  if (first === '{') return 'ndjson'
  if (extension === 'json') return 'json'
  return 'csv'
}

/** Content types the upload route maps to a format. */
export function formatFromContentType(contentType: string | undefined): ImportFormat | null {
  const type = contentType?.split(';')[0]?.trim().toLowerCase()
  if (type === 'application/x-ndjson' || type === 'application/jsonl' || type === 'application/ndjson') return 'ndjson'
  if (type === 'application/json') return 'json'
  if (type === 'text/csv') return 'csv'
  return null
}
