import { Readable } from 'node:stream'
import { type AnyBatch, unpackBatch } from '../../src-main/modules/imports/parsed-batches'

/** Call log files for the import parser's tests: the worker's unit tests and the bundled worker's. */

export const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`
export const record = (n: number, o: Record<string, unknown> = {}) =>
  JSON.stringify({
    id: uuid(n),
    tenant_id: '11111111-1111-4111-8111-111111111111',
    log_type: 'stt',
    log_level: 'info',
    message: `Transcrição número ${n} — ok`,
    timestamp: `2026-11-01T10:00:${String(n % 60).padStart(2, '0')}.000Z`,
    details: { n },
    ...o,
  })

/** A file of valid and broken records, CRLF line ends, a BOM, blank lines, no final newline. */
export function mixedFile(valid: number): string {
  const lines = ['\uFEFF' + record(1)]
  for (let n = 2; n <= valid; n++) {
    lines.push(record(n))
    if (n % 97 === 0) lines.push('{"id": "broken')
    if (n % 89 === 0) lines.push(record(100_000 + n, { log_level: 'loud' }))
    if (n % 50 === 0) lines.push('')
  }
  return lines.join('\r\n')
}

/** The text cut into small chunks: lines and multi-byte characters split across chunks. */
export const inChunks = (text: string, size = 61) => {
  const bytes = Buffer.from(text)
  const chunks: Buffer[] = []
  for (let i = 0; i < bytes.length; i += size) chunks.push(bytes.subarray(i, i + size))
  return Readable.from(chunks)
}

export async function collect(batches: AsyncGenerator<AnyBatch>) {
  const rows: Array<Array<string | null>> = []
  const positions: number[] = []
  const refused: unknown[] = []
  let recordsRead = 0
  let count = 0
  for await (const packed of batches) {
    const batch = unpackBatch(packed)
    count++
    rows.push(...batch.rows)
    positions.push(...batch.positions)
    refused.push(...batch.refused)
    recordsRead = batch.recordsRead
  }
  return { rows, positions, refused, recordsRead, count }
}
