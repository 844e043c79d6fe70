import Database from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import { isUniqueViolation } from './store-errors'

/** The error a statement raises on a real SQLite connection (PostgreSQL's: test/pg/webhooks.test.ts, the inbox race). */
function errorOf(db: Database.Database, statement: string): unknown {
  try {
    db.exec(statement)
  } catch (error) {
    return error
  }
  throw new Error(`no error from: ${statement}`)
}

describe('isUniqueViolation', () => {
  it('reads SQLite\'s refusals by a unique index and a primary key, and nothing else', () => {
    const db = new Database(':memory:')
    db.exec("create table t (id text primary key, name text not null, n integer check (n > 0)); create unique index t_name on t (name); insert into t values ('a', 'x', 1)")
    expect(isUniqueViolation(errorOf(db, "insert into t values ('b', 'x', 1)"))).toBe(true)
    expect(isUniqueViolation(errorOf(db, "insert into t values ('a', 'y', 1)"))).toBe(true)
    expect(isUniqueViolation(errorOf(db, "insert into t values ('c', 'z', 0)"))).toBe(false)
    expect(isUniqueViolation(errorOf(db, "insert into t values ('d', null, 1)"))).toBe(false)
    expect(isUniqueViolation(errorOf(db, 'select * from nosuch'))).toBe(false)
    db.close()
  })

  it('reads PostgreSQL\'s SQLSTATE 23505 (unique_violation) only', () => {
    expect(isUniqueViolation(Object.assign(new Error('duplicate key value violates unique constraint "x"'), { code: '23505' }))).toBe(true)
    expect(isUniqueViolation(Object.assign(new Error('violates check constraint'), { code: '23514' }))).toBe(false)
    expect(isUniqueViolation(new Error('no code'))).toBe(false)
    expect(isUniqueViolation(undefined)).toBe(false)
  })
})
