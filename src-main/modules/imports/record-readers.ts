import type { Readable } from 'node:stream'
import { parse as parseCsv } from 'csv-parse'
import { csvFieldValue, EXPORT_COLUMNS } from '../call-logs/call-logs.lines'
import type { ImportFormat } from './import-format'
import { ArrayFormatError, JsonArraySplitter } from './json-array-splitter'

/** One record of the file: its parsed value, or why it could not even be parsed. */
export type SourceRecord = { line: number; value: unknown } | { line: number; reason: string }

/** The file cannot be read further (not an array, a broken CSV header, …). */
export class ImportFormatError extends Error {}

const parseJson = (line: number, text: string): SourceRecord => {
  try {
    return { line, value: JSON.parse(text) }
  } catch (error) {
    return { line, reason: `not valid JSON: ${(error as Error).message}` }
  }
}

/**
 * Lines of an NDJSON file read before one with no JSON line at all is called another format (CSV,
 * a pretty-printed JSON array, binary): failing with that is clearer than one refusal per line.
 */
const FORMAT_PROBE_LINES = 100

/** Why a file read as NDJSON is not NDJSON: where it first went wrong, and how far it was read. */
function notNdjson(probed: SourceRecord[]): ImportFormatError {
  const first = probed[0]!
  const why = 'reason' in first ? first.reason : 'not JSON'
  const others = probed.length - 1
  const rest = others === 0 ? "and it is the file's only line" : others === 1 ? 'nor is the next line' : `nor is any of the next ${others} lines`
  return new ImportFormatError(`line ${first.line}: ${why}, ${rest}: not NDJSON (one JSON record per line)`)
}

/** A line longer than this is one refused record, skipped to its end: memory stays bounded. */
const MAX_LINE_BYTES = 16 * 1024 * 1024
const NEWLINE = 0x0a

/**
 * Lines split by hand rather than with readline, at about a tenth of its cost per line. Each chunk
 * is decoded once, up to its last newline: a newline byte never occurs inside a multi-byte UTF-8
 * character, so no character is cut, and the bytes after it wait for the next chunk. Decoding
 * whole lines straight from the bytes took a quarter off the reading's time (1.5 µs a line
 * against 2.0 with a StringDecoder and a carried-over string, 200,000 lines of 580 bytes).
 */
async function* ndjsonLines(input: Readable): AsyncGenerator<SourceRecord[]> {
  // The bytes of the line in progress, as they came, joined once its newline arrives.
  let pending: Buffer[] = []
  let pendingBytes = 0
  let line = 0
  let skipping = false
  const take = (text: string, out: SourceRecord[]) => {
    line++
    if (skipping) {
      skipping = false
      out.push({ line, reason: `longer than ${MAX_LINE_BYTES.toLocaleString('en-US')} bytes, not read` })
      return
    }
    const trimmed = line === 1 ? text.replace(/^\uFEFF/, '').trim() : text.trim()
    if (trimmed) out.push(parseJson(line, trimmed))
  }
  const decodePending = (tail?: Buffer) => {
    const parts = tail ? [...pending, tail] : pending
    pending = []
    pendingBytes = 0
    return parts.length === 1 ? parts[0]!.toString('utf8') : Buffer.concat(parts).toString('utf8')
  }
  for await (const data of input as AsyncIterable<Buffer | string>) {
    const chunk = typeof data === 'string' ? Buffer.from(data) : data
    const last = chunk.lastIndexOf(NEWLINE)
    if (last === -1) {
      // The rest of a line being skipped is not kept either.
      if (skipping) continue
      pending.push(chunk)
      pendingBytes += chunk.length
      if (pendingBytes > MAX_LINE_BYTES) {
        skipping = true
        pending = []
        pendingBytes = 0
      }
      continue
    }
    const text = pending.length ? decodePending(chunk.subarray(0, last)) : chunk.toString('utf8', 0, last)
    const out: SourceRecord[] = []
    let start = 0
    for (let end = text.indexOf('\n'); end !== -1; end = text.indexOf('\n', start)) {
      take(text.slice(start, end), out)
      start = end + 1
    }
    take(start ? text.slice(start) : text, out)
    if (last + 1 < chunk.length) {
      pending.push(chunk.subarray(last + 1))
      pendingBytes = chunk.length - last - 1
    }
    if (out.length) yield out
  }
  const out: SourceRecord[] = []
  if (pending.length || skipping) take(decodePending(), out)
  if (out.length) yield out
}

/**
 * The records of an NDJSON file, once one of its first lines is JSON. Until then they are held
 * back: if none of the first FORMAT_PROBE_LINES is (or the file ends first), it is not NDJSON.
 */
async function* ndjsonRecords(input: Readable): AsyncGenerator<SourceRecord[]> {
  let held: SourceRecord[] | null = []
  for await (const group of ndjsonLines(input)) {
    if (held === null) {
      yield group
      continue
    }
    held = held.concat(group)
    const json = held.findIndex((r) => 'value' in r)
    if (json === -1 ? held.length >= FORMAT_PROBE_LINES : json >= FORMAT_PROBE_LINES) throw notNdjson(held.slice(0, FORMAT_PROBE_LINES))
    if (json !== -1) {
      yield held
      held = null
    }
  }
  if (held?.length) throw notNdjson(held)
}

async function* jsonArray(input: Readable): AsyncGenerator<SourceRecord[]> {
  const splitter = new JsonArraySplitter()
  input.setEncoding('utf8')
  let first = true
  try {
    for await (const chunk of input as AsyncIterable<string>) {
      const text = first ? chunk.replace(/^\uFEFF/, '') : chunk
      first = false
      const elements = splitter.push(text)
      if (elements.length) yield elements.map((element) => parseJson(element.line, element.text))
    }
    splitter.end()
  } catch (error) {
    if (error instanceof ArrayFormatError) throw new ImportFormatError(error.message)
    throw error
  }
}

const REQUIRED_COLUMNS = ['id', 'tenant_id', 'log_type', 'log_level', 'message', 'timestamp'] as const
const NULLABLE = new Set<string>(['agent_id', 'session_id', 'call_id', 'user_id', 'trace_id', 'request_id'])

/**
 * CSV as the console and `callscope export` write it (the API's 13 fields, details as JSON
 * text, empty = null, formula-like values with the apostrophe csvField adds, which is removed:
 * csvFieldValue). Extra columns are ignored; a row with the wrong number of fields is one
 * refused record (csv-parse's on_skip), the rest of the file goes on.
 */
async function* csv(input: Readable): AsyncGenerator<SourceRecord[]> {
  const skipped: SourceRecord[] = []
  const parser = input.pipe(
    parseCsv({
      bom: true,
      columns: (header: string[]) => {
        const names = header.map((h) => h.trim())
        const missing = REQUIRED_COLUMNS.filter((c) => !names.includes(c))
        if (missing.length) throw new ImportFormatError(`line 1: the CSV header lacks ${missing.join(', ')} (expected ${EXPORT_COLUMNS.join(',')})`)
        return names
      },
      info: true,
      skip_empty_lines: true,
      skip_records_with_error: true,
      on_skip: (error) => {
        if (error) skipped.push({ line: (error as { lines?: number }).lines ?? 0, reason: error.message.replace(/^Invalid Record Length: /, '') })
      },
    }),
  )
  try {
    for await (const { record, info } of parser as AsyncIterable<{ record: Record<string, string>; info: { lines: number } }>) {
      if (skipped.length) yield skipped.splice(0)
      const value: Record<string, unknown> = {}
      for (const [key, field] of Object.entries(record)) {
        const text = csvFieldValue(field)
        if (NULLABLE.has(key)) value[key] = text === '' ? null : text
        else if (key === 'details') {
          if (text === '') continue
          try {
            value.details = JSON.parse(text)
          } catch {
            value.details = text
          }
        } else value[key] = text
      }
      yield [{ line: info.lines, value }]
    }
  } catch (error) {
    if (error instanceof ImportFormatError) throw error
    const e = error as { code?: string; lines?: number; message: string }
    if (e.code?.startsWith('CSV_')) throw new ImportFormatError(`line ${e.lines ?? '?'}: ${e.message}`)
    throw error
  }
  if (skipped.length) yield skipped.splice(0)
}

/** The records of a file in the given format, in file order, a chunk's worth at a time. */
export function readRecords(input: Readable, format: ImportFormat): AsyncGenerator<SourceRecord[]> {
  return format === 'ndjson' ? ndjsonRecords(input) : format === 'json' ? jsonArray(input) : csv(input)
}
