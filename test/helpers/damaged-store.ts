import { closeSync, openSync, writeSync } from 'node:fs'
import Database from 'better-sqlite3'

/*
 * Damage a store file as a failing disk or a cut copy does (issue 36): pages overwritten with
 * garbage at page-size offsets, or the header. The file must be closed (no -wal beside it).
 */

/** 0xEE is no B-tree page type: SQLite refuses such a page as soon as it reads it. */
const GARBAGE = 0xee

/** The store's page size and the leaf pages of `table` (SQLite's 1-based numbers), in key order. */
export function leafPagesOf(path: string, table: string): { pageSize: number; pages: number[] } {
  const db = new Database(path, { readonly: true })
  try {
    const pageSize = db.pragma('page_size', { simple: true }) as number
    // dbstat's paths are fixed-width hex per level, so text order is the B-tree's key order.
    const pages = db.prepare("select pageno from dbstat where name = ? and pagetype = 'leaf' order by path").pluck().all(table) as number[]
    return { pageSize, pages }
  } finally {
    db.close()
  }
}

/** Overwrites whole pages (1-based) with garbage. */
export function overwritePages(path: string, pageSize: number, pages: readonly number[]): void {
  const fd = openSync(path, 'r+')
  try {
    for (const page of pages) writeSync(fd, Buffer.alloc(pageSize, GARBAGE), 0, pageSize, (page - 1) * pageSize)
  } finally {
    closeSync(fd)
  }
}

/**
 * Overwrites `count` leaf pages from the middle of `table` (its rows before and after them stay
 * readable) and returns their numbers.
 */
export function damageMiddleOf(path: string, table: string, count: number): number[] {
  const { pageSize, pages } = leafPagesOf(path, table)
  if (pages.length < count + 2) throw new Error(`${table} has ${pages.length} leaf pages: too few to damage ${count} in the middle`)
  const start = Math.floor((pages.length - count) / 2)
  const chosen = pages.slice(start, start + count)
  overwritePages(path, pageSize, chosen)
  return chosen
}

/**
 * Overwrites the leaf pages of `table` that hold the given rowids and returns their numbers and
 * every rowid they held (the rows lost). A rowid table only.
 */
export function damageRowsOf(path: string, table: string, rowids: readonly number[]): { pages: number[]; lost: number[] } {
  const db = new Database(path, { readonly: true })
  let pageSize: number
  const leaves: Array<{ pageno: number; rowids: number[] }> = []
  try {
    pageSize = db.pragma('page_size', { simple: true }) as number
    const all = db.prepare(`select rowid from "${table}" order by rowid`).pluck().all() as number[]
    const cells = db.prepare("select pageno, ncell from dbstat where name = ? and pagetype = 'leaf' order by path").all(table) as Array<{ pageno: number; ncell: number }>
    let at = 0
    for (const { pageno, ncell } of cells) {
      leaves.push({ pageno, rowids: all.slice(at, at + ncell) })
      at += ncell
    }
    if (at !== all.length) throw new Error(`dbstat counted ${at} cells for ${all.length} rows of ${table}`)
  } finally {
    db.close()
  }
  const hit = leaves.filter((leaf) => rowids.some((rowid) => leaf.rowids.includes(rowid)))
  overwritePages(path, pageSize, hit.map((leaf) => leaf.pageno))
  return { pages: hit.map((leaf) => leaf.pageno), lost: hit.flatMap((leaf) => leaf.rowids) }
}

/**
 * Overwrites every page of `name` (a table or an index, interior pages too), or only its last leaf
 * page in key order (an index's highest keys: where every key above the stored ones goes), and
 * returns their numbers.
 */
export function damagePagesOf(path: string, name: string, which: 'all' | 'last leaf' = 'all'): number[] {
  const db = new Database(path, { readonly: true })
  let pageSize: number
  let pages: number[]
  try {
    pageSize = db.pragma('page_size', { simple: true }) as number
    if (which === 'all') pages = db.prepare('select pageno from dbstat where name = ?').pluck().all(name) as number[]
    // dbstat's paths are fixed-width hex per level, so text order is the B-tree's key order.
    else pages = [(db.prepare("select pageno from dbstat where name = ? and pagetype = 'leaf' order by path desc limit 1").pluck().get(name) as number)]
  } finally {
    db.close()
  }
  if (pages.length === 0 || pages[0] === undefined) throw new Error(`no pages of ${name} in ${path}`)
  overwritePages(path, pageSize, pages)
  return pages
}

/** Overwrites the first 16 bytes, SQLite's magic string: the file no longer opens as a database. */
export function damageHeader(path: string): void {
  const fd = openSync(path, 'r+')
  try {
    writeSync(fd, Buffer.alloc(16, GARBAGE), 0, 16, 0)
  } finally {
    closeSync(fd)
  }
}
