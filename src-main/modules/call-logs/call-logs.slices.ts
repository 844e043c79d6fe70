import type { QueryNode } from '../../../src-shared/log-query/ast'
import { isBudgetExceeded } from '../../db/query-budget'
import type { TimeSlicer } from '../../lib/time-slicer'
import type { ChartSpan } from './call-logs.search'
import type { ResolvedCallLogFilter } from './call-logs.search.repo'

/*
 * Reading the lines a filter selects in time slices (count by, facets). A read that groups every
 * selected line (a details key without an index, a large tenant) is cut into slices of whole
 * histogram buckets: read side by side by the reader threads (one answer), or shown as it goes
 * (the console): newest first, WAVE slices at a time, an answer after each wave with the share of
 * the range read. Each wave has the query budget of its own.
 */

/** A time range, both ends included (ISO 8601 UTC text with milliseconds, as stored). */
export interface Range {
  from: string
  to: string
}

/** A time slice of the span and how many of its buckets it holds (the weight of "scanned"). */
export type Slice = Range & { buckets: number }

/** One answer is read in this many slices, side by side. */
const SIDE_BY_SIDE = 4
/** Shown as it goes: this many slices, newest first, read WAVE at a time (one per reader thread of a 2-core machine). */
export const PROGRESSIVE_SLICES = 12
export const WAVE = 2

const iso = (epochSeconds: number) => new Date(epochSeconds * 1000).toISOString()

/** The span's buckets as time ranges, clipped to the span. */
export function bucketRanges(span: ChartSpan): Array<{ start: number } & Range> {
  const out: Array<{ start: number } & Range> = []
  for (let start = span.firstBucket; start <= span.lastBucket; start += span.size) {
    const lo = iso(start)
    const hi = new Date((start + span.size) * 1000 - 1).toISOString()
    out.push({ start, from: span.from > lo ? span.from : lo, to: span.to < hi ? span.to : hi })
  }
  return out
}

/** The span cut into at most `n` slices of whole buckets, each clipped to the span, oldest first. */
function slices(span: ChartSpan, n: number): Slice[] {
  const buckets = bucketRanges(span)
  const per = Math.ceil(buckets.length / n)
  const out: Slice[] = []
  for (let i = 0; i < buckets.length; i += per) {
    const end = Math.min(i + per, buckets.length)
    out.push({ from: buckets[i]!.from, to: buckets[end - 1]!.to, buckets: end - i })
  }
  return out
}

const hasTextTerm = (node: QueryNode): boolean =>
  node.kind === 'text' || ((node.kind === 'and' || node.kind === 'or') && node.children.some(hasTextTerm)) || (node.kind === 'not' && hasTextTerm(node.child))

/** A text search or a text term would look its words up again in each slice: such filters are read once. */
export const readsOnce = (f: ResolvedCallLogFilter): boolean => Boolean(f.match || (f.query?.where && hasTextTerm(f.query.where)))

/** The waves the reads of a span run in: the whole span at once, slices side by side, or (`progressive`) newest first. */
export function waves(f: ResolvedCallLogFilter, span: ChartSpan, progressive: boolean): Slice[][] {
  if (readsOnce(f)) return [[{ from: span.from, to: span.to, buckets: bucketRanges(span).length }]]
  if (!progressive) return [slices(span, SIDE_BY_SIDE)]
  const newestFirst = slices(span, PROGRESSIVE_SLICES).reverse()
  const out: Slice[][] = []
  for (let i = 0; i < newestFirst.length; i += WAVE) out.push(newestFirst.slice(i, i + WAVE))
  return out
}

export interface WaveRead<T> {
  /** What each slice of this wave read, in the wave's order. */
  results: T[]
  /** Share of the span's buckets read so far, 0–1. */
  scanned: number
}

/**
 * Reads each wave's slices side by side, the slices' reads under one deadline (epoch ms, `budget`
 * after the wave starts; `read` puts it in the filter); yields after each wave. A read stopped at
 * the deadline becomes `tooSlow()`, which names the slow part. The slicer gives the event loop a
 * turn after each wave's reads and stops there when the caller has gone (a superseded filter).
 * Not before a wave: with the check there, a client that dropped the stream after its first
 * answer (curl | head) left the abort's rejection unhandled, and `serve` exited.
 */
export async function* readInWaves<T>(
  parts: Slice[][],
  budget: number,
  slicer: TimeSlicer,
  read: (slice: Slice, deadline: number) => Promise<T>,
  tooSlow: () => Error,
): AsyncGenerator<WaveRead<T>> {
  const all = parts.flat().reduce((n, p) => n + p.buckets, 0)
  let done = 0
  for (const wave of parts) {
    const deadline = Date.now() + budget
    let results: T[]
    try {
      results = await Promise.all(wave.map((slice) => read(slice, deadline)))
    } catch (error) {
      if (isBudgetExceeded(error)) throw tooSlow()
      throw error
    }
    await slicer.tick()
    done += wave.reduce((n, p) => n + p.buckets, 0)
    yield { results, scanned: all > 0 ? done / all : 1 }
  }
}
