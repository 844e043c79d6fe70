import { copyFileSync, truncateSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { beforeAll, describe, expect, it } from 'vitest'
import { damageHeader, damageMiddleOf } from '../../test/helpers/damaged-store'
import { tempDir } from '../../test/helpers/temp-dir'
import { checkHeader, checkSchema, integrityCheck } from './store-check'

const dir = tempDir()
const healthy = join(dir, 'healthy.sqlite')

/** A copy of the healthy store, damaged by `damage`. */
function copyWith(name: string, damage: (path: string) => void): string {
  const path = join(dir, name)
  copyFileSync(healthy, path)
  damage(path)
  return path
}

const withConnection = <T>(path: string, read: (db: Database.Database) => T): T => {
  const db = new Database(path, { readonly: true })
  try {
    return read(db)
  } finally {
    db.close()
  }
}

beforeAll(() => {
  const db = new Database(healthy)
  db.exec('create table notes (id integer primary key, body text not null)')
  const insert = db.prepare('insert into notes (body) values (?)')
  db.transaction(() => {
    for (let i = 0; i < 5000; i++) insert.run(`note ${i} `.padEnd(300, 'x'))
  })()
  db.close()
})

describe('checkHeader', () => {
  it('finds nothing wrong with a sound file, and reads its page size and count', () => {
    const check = checkHeader(healthy)
    expect(check.problems).toEqual([])
    expect(check.opens).toBe(true)
    expect(check.pageSize).toBe(4096)
    expect(check.headerPages! * 4096).toBe(check.fileBytes)
  })

  it('names a file whose magic string is overwritten as one SQLite cannot open', () => {
    const check = checkHeader(copyWith('magic.sqlite', damageHeader))
    expect(check.opens).toBe(false)
    expect(check.problems).toEqual(['the header does not start with "SQLite format 3": the first page is overwritten'])
  })

  it('names a file cut in the middle of a page, and one missing its last pages', () => {
    const size = checkHeader(healthy).fileBytes
    const halfPage = checkHeader(copyWith('half.sqlite', (p) => truncateSync(p, size - 1000)))
    expect(halfPage.opens).toBe(true)
    expect(halfPage.problems).toHaveLength(2)
    expect(halfPage.problems[0]).toMatch(/is not a whole number of 4096-byte pages/)
    const pagesShort = checkHeader(copyWith('short.sqlite', (p) => truncateSync(p, size - 4096 * 3)))
    expect(pagesShort.problems).toEqual([`the header counts ${size / 4096} pages, the file holds ${size / 4096 - 3}: its end is missing`])
  })

  it('takes a file short of its header with a WAL or a rollback journal beside it for a checkpoint or commit cut short, not a cut file', () => {
    // Page 1 is written first, the file grows after it: a process killed in between leaves this,
    // and SQLite completes it from the WAL (or rolls it back from the journal) on open.
    const size = checkHeader(healthy).fileBytes
    for (const sibling of ['-wal', '-journal']) {
      const path = copyWith(`short${sibling}.sqlite`, (p) => {
        truncateSync(p, size - 4096 * 3)
        writeFileSync(`${p}${sibling}`, Buffer.alloc(4096, 1))
      })
      expect(checkHeader(path).problems).toEqual([])
    }
  })
})

describe('integrityCheck and checkSchema', () => {
  it('answer no problems for a sound store', () => {
    withConnection(healthy, (db) => {
      expect(checkSchema(db)).toEqual([])
      expect(integrityCheck(db, 'quick')).toEqual([])
      expect(integrityCheck(db, 'full')).toEqual([])
    })
  })

  it('list problems for pages overwritten in the middle, which the header check cannot see', () => {
    const path = copyWith('pages.sqlite', (p) => damageMiddleOf(p, 'notes', 3))
    expect(checkHeader(path).problems).toEqual([])
    withConnection(path, (db) => {
      expect(checkSchema(db)).toEqual([])
      const problems = integrityCheck(db, 'quick')
      expect(problems.length).toBeGreaterThan(0)
      expect(problems.join('\n')).toMatch(/page|malformed/i)
    })
  })
})
