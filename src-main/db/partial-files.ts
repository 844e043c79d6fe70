import { randomBytes } from 'node:crypto'
import { closeSync, fsyncSync, openSync, readdirSync, renameSync, rmSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { isProcessAlive } from '../lib/process-alive'

/*
 * Database files written whole before they get their name (a backup, a snapshot's pack): the pages
 * go to a hidden `.partial` name beside FILE, which is renamed to FILE once complete and synced. A
 * process killed part way (SIGKILL, a crash) leaves only the hidden name, never a FILE that looks
 * complete; the next run to the same FILE deletes what a dead process left.
 */

const SIBLINGS = ['', '-wal', '-shm', '-journal']

/** Removes a database file and the WAL, shared-memory and journal files SQLite keeps beside it. */
export function removeDatabaseFiles(file: string): void {
  for (const suffix of SIBLINGS) rmSync(`${file}${suffix}`, { force: true })
}

/**
 * A hidden working name beside FILE: same folder, so the rename at the end is atomic and the disk
 * that fills is the one FILE lives on. The pid lets a later run tell a dead one's leftover from
 * one still running.
 */
export function partialPathFor(file: string): string {
  return join(dirname(file), `.${basename(file)}.${process.pid}-${randomBytes(4).toString('hex')}.partial`)
}

/** Removes what a killed run writing FILE left (its `.partial` files and their journals), never a running one's. */
export function removeDeadPartials(file: string): void {
  const prefix = `.${basename(file)}.`
  let names: string[]
  try {
    names = readdirSync(dirname(file))
  } catch {
    return
  }
  for (const name of names) {
    const match = name.startsWith(prefix) ? /^(\d+)-[0-9a-f]+\.partial$/.exec(name.slice(prefix.length)) : null
    if (match && !isProcessAlive(Number(match[1]))) removeDatabaseFiles(join(dirname(file), name))
  }
}

export function fsyncPath(path: string): void {
  const fd = openSync(path, 'r')
  try {
    fsyncSync(fd)
  } finally {
    closeSync(fd)
  }
}

/** Gives a complete partial file its name: synced first, so the name never points at pages still in flight; then the folder. */
export function renameWhole(partial: string, file: string): void {
  fsyncPath(partial)
  renameSync(partial, file)
  fsyncPath(dirname(file))
}
