import { LOG_LEVELS, type LogLevel } from './constants'

/*
 * Log levels as real backends spell them, read into the five the API serves. Names in any case and
 * the common aliases of Python, syslog, log4j/Java and Go loggers; numbers as Python's logging
 * module reads them (a level counts as the highest standard level at or below it: 25 is info).
 */
const ALIASES: Record<string, LogLevel> = {
  trace: 'debug', verbose: 'debug', dbg: 'debug', fine: 'debug', finer: 'debug', finest: 'debug', notset: 'debug',
  information: 'info', informational: 'info', notice: 'info',
  warn: 'warning',
  err: 'error', severe: 'error',
  crit: 'critical', fatal: 'critical', alert: 'critical', emerg: 'critical', emergency: 'critical', panic: 'critical',
}

/** The aliases by level, for messages and the docs. */
export const LOG_LEVEL_ALIASES: Record<LogLevel, string[]> = Object.fromEntries(
  LOG_LEVELS.map((level) => [level, Object.keys(ALIASES).filter((alias) => ALIASES[alias] === level)]),
) as Record<LogLevel, string[]>

/** Python's numeric levels: DEBUG 10, INFO 20, WARNING 30, ERROR 40, CRITICAL 50. */
const PYTHON_LEVELS: Array<[number, LogLevel]> = [[50, 'critical'], [40, 'error'], [30, 'warning'], [20, 'info'], [0, 'debug']]

const fromNumber = (n: number): LogLevel | null => {
  if (!Number.isInteger(n) || n < 0) return null
  return PYTHON_LEVELS.find(([floor]) => n >= floor)![1]
}

/** The rule a refused level broke, as refusals word it. */
export const LOG_LEVEL_RULE =
  'must be a log level: debug, info, warning, error or critical in any case, an alias (warn, fatal, err, crit, trace, notice, …) or a Python level number (0 to 50 and up)'

export interface ReadLogLevel {
  level: LogLevel
  /** The value as sent, when it is not already the level's own name; kept beside it. */
  original: string | null
}

/** Reads a level as sent (text or number); null when it is none of the forms above. */
export function readLogLevel(value: unknown): ReadLogLevel | null {
  if (typeof value === 'number') {
    const level = fromNumber(value)
    return level && { level, original: String(value) }
  }
  if (typeof value !== 'string' || value.length > 100) return null
  if ((LOG_LEVELS as readonly string[]).includes(value)) return { level: value as LogLevel, original: null }
  const key = value.trim().toLowerCase()
  const level = (LOG_LEVELS as readonly string[]).includes(key) ? (key as LogLevel) : (ALIASES[key] ?? (/^\d{1,3}$/.test(key) ? fromNumber(Number(key)) : null))
  return level && { level, original: value }
}
