import type { CallLog } from '../../../src-shared/schemas/call-log'
import { CALL_LOG_COLUMNS } from './call-log-values'

/*
 * How one call log is written as a line of an export. Kept apart from call-logs.export.ts (which
 * serves exports over HTTP) because the import's parse worker needs the CSV columns too, and
 * loading the HTTP layer there would only slow its start.
 */

/** The CSV header: a record's 13 fields in the API's order. */
export const EXPORT_COLUMNS = CALL_LOG_COLUMNS

/**
 * Text a spreadsheet evaluates as a formula when it starts a cell: `=`, `+`, `-`, `@`, tab, CR
 * (OWASP, "CSV Injection"), here also after any number of apostrophes, so that a value which
 * already looks escaped (`'=x`) is escaped once more and reads back as itself.
 */
const FORMULA_START = /^'*[=+\-@\t\r]/
/** A field as csvField writes a formula-like value: one or more apostrophes, then a trigger. */
const ESCAPED_FORMULA = /^'+[=+\-@\t\r]/
const APOSTROPHE = 0x27

/**
 * RFC 4180: a field with a comma, quote, CR or LF is quoted and its quotes doubled; null is the
 * empty field; details is its JSON text. A value a spreadsheet would evaluate (FORMULA_START) is
 * neutralised as OWASP recommends: prefixed with one apostrophe and always quoted, so
 * `=HYPERLINK(…)` opens as text. Numbers with a sign (`-5 degrees`) get the apostrophe too.
 * csvFieldValue undoes it, so an export reads back unchanged through `callscope import logs`.
 */
export function csvField(value: unknown): string {
  if (value === null || value === undefined) return ''
  const text = typeof value === 'string' ? value : JSON.stringify(value)
  if (FORMULA_START.test(text)) return `"'${text.replace(/"/g, '""')}"`
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text
}

/**
 * The value a parsed CSV field (quotes already undone) stands for: csvField's inverse. One
 * apostrophe is removed from a field that starts with apostrophes followed by a formula trigger
 * (`'=x` → `=x`, `''=x` → `'=x`); every other field is its own value (`'hello`, `'`, `a'=b`).
 */
export function csvFieldValue(text: string): string {
  return text.charCodeAt(0) === APOSTROPHE && ESCAPED_FORMULA.test(text) ? text.slice(1) : text
}

export const csvHeader = (): string => `${EXPORT_COLUMNS.join(',')}\r\n`
export const csvLine = (log: CallLog): string => `${EXPORT_COLUMNS.map((c) => csvField(log[c])).join(',')}\r\n`
export const ndjsonLine = (log: CallLog): string => `${JSON.stringify(log)}\n`
