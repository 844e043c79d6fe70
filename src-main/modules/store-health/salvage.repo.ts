import type BetterSqlite3 from 'better-sqlite3'
import { storeFaultKind } from '../../../src-shared/store-faults'

// SQLite-only: a table's rows read by rowid around damaged pages and written into another store.

/** Rowids no read could reach: every row that was stored between them is lost. */
export interface UnreadableRange {
  /** First rowid of the range, or null: from the table's start. */
  from: number | null
  /** Last rowid of the range, or null: to the end of the table. */
  to: number | null
}

export interface TableSalvage {
  table: string
  /** Rows read from the damaged store and written into the new one. */
  copied: number
  unreadable: UnreadableRange[]
  /** Rows read but refused by the new store's rules (a damaged value breaking a type or CHECK). */
  refused: number
  /** The first refusal's reason, for the report. */
  firstRefusal: string | null
}

const isDamage = (error: unknown) => storeFaultKind(error) === 'damaged'
const BATCH = 5000
/** Beyond any rowid a table of ours holds; the probe for readable rows stops there. */
const LAST_ROWID = Number.MAX_SAFE_INTEGER

/**
 * Copies every row of `table` that can be read from `source` into the same table of `target`,
 * columns by name (those both have), in rowid order, as SQLite's own `.recover` salvages what a
 * damaged file still holds. A read that meets a damaged page keeps the rows it returned before it;
 * the next readable rowid is then found by seeking past the damage (doubling the distance, then
 * halving back), since a seek only descends to the page that would hold its rowid. Each gap is
 * reported as an unreadable range. Runs inside the caller's transaction on `target`.
 */
export function salvageTable(source: BetterSqlite3.Database, target: BetterSqlite3.Database, table: string, columns: readonly string[]): TableSalvage {
  const quoted = columns.map((c) => `"${c}"`).join(', ')
  // `>=`, never `>`: a seek lands on the page that would hold its rowid, so `rowid > X` with X the
  // last rowid of a damaged page would land there again.
  const read = source.prepare(`select rowid as "__salvage_rowid", ${quoted} from "${table}" where rowid >= ? order by rowid limit ${BATCH}`).raw(true)
  const firstFrom = source.prepare(`select rowid from "${table}" where rowid >= ? order by rowid limit 1`).pluck()
  const insert = target.prepare(`insert into "${table}" (rowid, ${quoted}) values (${['?', ...columns.map(() => '?')].join(', ')})`)
  const result: TableSalvage = { table, copied: 0, unreadable: [], refused: 0, firstRefusal: null }

  /** The first rowid from `from` on: a number, null at the end, 'damaged' when the seek itself meets damage. */
  const probe = (from: number): number | null | 'damaged' => {
    try {
      return (firstFrom.get(from) as number | undefined) ?? null
    } catch (error) {
      if (isDamage(error)) return 'damaged'
      throw error
    }
  }
  /**
   * Where to read on from after a read from `from` met damage: past the rowid the seek reaches when
   * that row itself cannot be read (its overflow pages), else the first rowid a seek reaches past
   * the damaged pages. Always beyond `from`, so the salvage moves on; null when nothing is left.
   */
  const resumeAfter = (from: number): number | null => {
    const reached = probe(from)
    if (reached === null) return null
    if (reached !== 'damaged') return reached + 1
    let step = 1
    let found = probe(from + step)
    while (found === 'damaged' && from + step < LAST_ROWID) {
      step = Math.min(step * 2, LAST_ROWID - from)
      found = probe(from + step)
    }
    if (found === 'damaged') return null
    // The smallest step in (step / 2, step] that still reads: fewer rows written off.
    let low = Math.floor(step / 2)
    let high = step
    let answer: number | null = found
    while (high - low > 1) {
      const mid = Math.floor((low + high) / 2)
      const at = probe(from + mid)
      if (at === 'damaged') low = mid
      else {
        high = mid
        answer = at
      }
    }
    return answer
  }

  /** The next rowid to read (inclusive). */
  let from = -LAST_ROWID
  for (;;) {
    let seen = 0
    try {
      for (const row of read.iterate(from) as Iterable<unknown[]>) {
        seen++
        const rowid = row[0] as number
        from = rowid + 1
        try {
          insert.run(row)
          result.copied++
        } catch (error) {
          result.refused++
          result.firstRefusal ??= `rowid ${rowid}: ${(error as Error).message}`
        }
      }
    } catch (error) {
      if (!isDamage(error)) throw error
      const resume = resumeAfter(from)
      result.unreadable.push({ from: from === -LAST_ROWID ? null : from, to: resume === null ? null : resume - 1 })
      if (resume === null) break
      from = resume
      continue
    }
    if (seen < BATCH) break
  }
  return result
}
