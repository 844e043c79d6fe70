/*
 * What a store's error says, read the same way whichever store raised it (docs/architecture.md,
 * "Store seams"). The two stores' codes never overlap, so one predicate reads both.
 */

const codeOf = (error: unknown): unknown => (error && typeof error === 'object' ? (error as { code?: unknown }).code : undefined)

/**
 * A write refused by a unique index or primary key: two writers raced for the same key, and the
 * store let one in. SQLite: better-sqlite3's extended codes; PostgreSQL: SQLSTATE 23505 (unique_violation).
 */
export function isUniqueViolation(error: unknown): boolean {
  const code = codeOf(error)
  // SQLite-only: better-sqlite3's extended result codes.
  if (code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY') return true
  return code === '23505'
}

/**
 * A row the store refused for itself (a CHECK, NOT NULL, UNIQUE or type constraint): the record is
 * at fault, not the store. Anything else (a full disk, damage, I/O) fails the whole write.
 */
export function isConstraintViolation(error: unknown): boolean {
  const code = codeOf(error)
  // SQLite-only: SQLITE_CONSTRAINT and its extended codes; PostgreSQL: SQLSTATE class 23.
  return typeof code === 'string' && (code.startsWith('SQLITE_CONSTRAINT') || /^23[0-9A-Z]{3}$/.test(code))
}
