import { closeSync, openSync, readSync, statSync } from 'node:fs'
import type BetterSqlite3 from 'better-sqlite3'
import { storeFaultKind } from '../../src-shared/store-faults'

/*
 * SQLite-only: how healthy a store file is (issue 36). Three depths: the 100-byte header and the
 * file's size (instant, no SQLite), the schema (sqlite_master read through), and SQLite's own
 * `quick_check` / `integrity_check` (every page; seconds per GiB, so in the background on a large store).
 */

/** At or below this size the open check runs quick_check at once; above it, in the background. */
export const QUICK_CHECK_AT_ONCE_BYTES = 64 * 1024 * 1024

/** The problems integrity checks list at most (SQLite's own default is 100). */
const MAX_PROBLEMS = 100

const MAGIC = Buffer.from('SQLite format 3\0', 'latin1')

export interface HeaderCheck {
  /** What is wrong with the header or the file's size; empty when it is sound. */
  problems: string[]
  /** False when SQLite cannot open the file at all (not a database any more). */
  opens: boolean
  pageSize: number | null
  /** Pages the header says the file holds, when it says (older writers leave it unset). */
  headerPages: number | null
  fileBytes: number
}

/**
 * The file's first 100 bytes and its size against them: the magic string, a page size SQLite can
 * have (a power of two from 512 to 65536), a file that is a whole number of pages, and no fewer
 * pages than the header counts (a cut file). An empty or missing file is a new store: sound.
 */
export function checkHeader(path: string): HeaderCheck {
  const fileBytes = statSync(path).size
  if (fileBytes === 0) return { problems: [], opens: true, pageSize: null, headerPages: null, fileBytes }
  const header = Buffer.alloc(100)
  const fd = openSync(path, 'r')
  let read: number
  try {
    read = readSync(fd, header, 0, 100, 0)
  } finally {
    closeSync(fd)
  }
  if (read < 100) return { problems: [`the file is ${fileBytes} bytes, shorter than SQLite's 100-byte header`], opens: false, pageSize: null, headerPages: null, fileBytes }
  if (!header.subarray(0, 16).equals(MAGIC)) {
    return { problems: ['the header does not start with "SQLite format 3": the first page is overwritten'], opens: false, pageSize: null, headerPages: null, fileBytes }
  }
  const raw = header.readUInt16BE(16)
  const pageSize = raw === 1 ? 65536 : raw
  if (pageSize < 512 || pageSize > 65536 || (pageSize & (pageSize - 1)) !== 0) {
    return { problems: [`the header's page size (${raw}) is not one SQLite can have`], opens: false, pageSize: null, headerPages: null, fileBytes }
  }
  const problems: string[] = []
  // The page count is valid only when the change counter equals "version-valid-for" (file format, 1.3.0).
  const headerPages = header.readUInt32BE(24) === header.readUInt32BE(92) ? header.readUInt32BE(28) : null
  if (fileBytes % pageSize !== 0) problems.push(`the file (${fileBytes} bytes) is not a whole number of ${pageSize}-byte pages: it was cut or appended to`)
  // More pages than the header counts can be legitimate (a checkpoint in progress). Fewer can too
  // while a WAL or a rollback journal beside the file holds pages: a checkpoint (or a commit on a
  // journal) writes page 1, the header, first and grows the file after it, so a process killed in
  // between leaves a short file that SQLite completes from the WAL, or restores from the journal,
  // when it opens it (issue 36). quick_check then reads every page. Without either, it was cut.
  if (headerPages !== null && headerPages > 0 && fileBytes < headerPages * pageSize && !holdsPages(`${path}-wal`) && !holdsPages(`${path}-journal`)) {
    problems.push(`the header counts ${headerPages} pages, the file holds ${Math.floor(fileBytes / pageSize)}: its end is missing`)
  }
  return { problems, opens: true, pageSize, headerPages, fileBytes }
}

const holdsPages = (sibling: string) => (statSync(sibling, { throwIfNoEntry: false })?.size ?? 0) > 0

/** The message of a damage error, or null when `error` is another kind of failure. */
function damageOf(error: unknown): string | null {
  return storeFaultKind(error) === 'damaged' ? ((error as Error).message ?? String(error)) : null
}

/** Reads the schema through (every row of sqlite_master): what SQLite needs before any statement. */
export function checkSchema(sqlite: BetterSqlite3.Database): string[] {
  try {
    sqlite.prepare('select type, name, tbl_name, sql from sqlite_master').all()
    return []
  } catch (error) {
    const damage = damageOf(error)
    if (damage === null) throw error
    return [`the schema cannot be read: ${damage}`]
  }
}

/**
 * SQLite's `quick_check` (every page and record, not index contents) or `integrity_check` (also
 * each index against its table): its list of problems, empty when it answers "ok". A store damaged
 * badly enough makes the check itself fail with SQLITE_CORRUPT: that is a problem too.
 */
export function integrityCheck(sqlite: BetterSqlite3.Database, depth: 'quick' | 'full'): string[] {
  try {
    const rows = sqlite.prepare(`pragma ${depth === 'full' ? 'integrity_check' : 'quick_check'}(${MAX_PROBLEMS})`).pluck().all() as string[]
    return rows.length === 1 && rows[0] === 'ok' ? [] : rows
  } catch (error) {
    const damage = damageOf(error)
    if (damage === null) throw error
    return [`the check stopped on damage: ${damage}`]
  }
}

/** The statement the read pool runs for the background check, and how its rows read. */
export const QUICK_CHECK_SQL = `pragma quick_check(${MAX_PROBLEMS})`
export const problemsOfCheckRows = (rows: Array<Record<string, unknown>>): string[] => {
  const values = rows.map((row) => String(Object.values(row)[0]))
  return values.length === 1 && values[0] === 'ok' ? [] : values
}
