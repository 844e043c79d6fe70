import { copyFileSync } from 'node:fs'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { inject } from 'vitest'
import { overwritePages } from './damaged-store'

/** A copy of the demo store with some of its call log pages overwritten, and what was overwritten. */
export interface DamagedStore {
  path: string
  /** The page numbers overwritten (1-based, as SQLite numbers them). */
  pages: number[]
  /** Call logs in the store before the damage. */
  rows: number
  /** The first line of the export's order (newest first, 0-based) that sits on an overwritten page. */
  firstLost: number
}

/** Leaf pages of the call_logs table in key order, each with the rowids (seqs) it holds. */
function leafPagesBySeq(db: Database.Database): Array<{ pageno: number; first: number; last: number }> {
  const seqs = (db.prepare('SELECT seq FROM call_logs ORDER BY seq').pluck().all() as number[])
  // dbstat's paths are fixed-width hex per level, so text order is the B-tree's key order.
  const leaves = db
    .prepare("SELECT pageno, ncell FROM dbstat WHERE name = 'call_logs' AND pagetype = 'leaf' ORDER BY path")
    .all() as Array<{ pageno: number; ncell: number }>
  const pages: Array<{ pageno: number; first: number; last: number }> = []
  let at = 0
  for (const { pageno, ncell } of leaves) {
    pages.push({ pageno, first: seqs[at]!, last: seqs[at + ncell - 1]! })
    at += ncell
  }
  if (at !== seqs.length) throw new Error(`dbstat counted ${at} cells for ${seqs.length} call logs`)
  return pages
}

/**
 * Copies the run's demo template into `dir` and overwrites, with garbage, the call_logs table's
 * leaf pages holding the lines at the given ranks of the export's order (newest first, 0-based):
 * a reader gets the lines before them, then SQLite's "database disk image is malformed". Interior
 * pages, indexes and the schema are untouched, so the store opens and its first lines read, as a
 * laptop's file damaged in the middle does.
 */
export function damagedDemoStore(dir: string, ranks: number[]): DamagedStore {
  const path = join(dir, 'damaged.sqlite')
  copyFileSync(inject('demoTemplate'), path)
  const db = new Database(path, { readonly: true })
  let pageSize: number
  let pages: number[]
  let rows: number
  let firstLost: number
  try {
    pageSize = db.pragma('page_size', { simple: true }) as number
    const order = db.prepare('SELECT seq FROM call_logs ORDER BY timestamp DESC, seq DESC').pluck().all() as number[]
    rows = order.length
    const leaves = leafPagesBySeq(db)
    const damaged = ranks.map((rank) => leaves.find((p) => p.first <= order[rank]! && order[rank]! <= p.last)!)
    pages = [...new Set(damaged.map((p) => p.pageno))]
    firstLost = order.findIndex((seq) => damaged.some((p) => p.first <= seq && seq <= p.last))
  } finally {
    db.close()
  }
  overwritePages(path, pageSize, pages)
  return { path, pages, rows, firstLost }
}
