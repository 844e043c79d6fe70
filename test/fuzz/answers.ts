/** What came back for a request, from either transport, in one shape for the checks. */
export interface Answer {
  status: number
  /** Header names lower-cased; repeated headers joined with `, `. */
  headers: Record<string, string>
  /** The body, kept up to BODY_KEEP_BYTES (a long export is counted, not kept). */
  body: Buffer
  bodyBytes: number
}

export const BODY_KEEP_BYTES = 4 * 1024 * 1024

/** Everything sent on one connection's worth of a request, and how it ended. */
export interface Exchange {
  answers: Answer[]
  /** A transport failure: reset, hang-up, an answer that cannot be parsed, a timeout. */
  error?: string
  /** The server may end the exchange without an answer (a request the client cut short). */
  silenceAllowed?: boolean
}

/** Appends a chunk, keeping at most BODY_KEEP_BYTES. */
export function keep(kept: Buffer[], keptBytes: number, chunk: Buffer): number {
  const room = BODY_KEEP_BYTES - keptBytes
  if (room > 0) kept.push(room >= chunk.length ? chunk : chunk.subarray(0, room))
  return keptBytes + Math.min(room > 0 ? room : 0, chunk.length)
}
