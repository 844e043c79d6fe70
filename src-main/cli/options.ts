import { InvalidArgumentError } from 'commander'
import { parseBackupPeriod } from '../../src-shared/schemas/backup-schedule'

/** Commander argument parsers: a bad value becomes a one-line usage error (exit code 2). */

export function parsePort(value: string): number {
  const port = Number(value)
  if (!/^\d+$/.test(value) || port > 65535) throw new InvalidArgumentError('expected a port number from 0 to 65535.')
  return port
}

export function parseNonNegativeInt(value: string): number {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError('expected a non-negative integer.')
  return Number(value)
}

export function parsePositiveInt(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1) throw new InvalidArgumentError('expected a positive integer.')
  return Number(value)
}

export function parseDate(value: string): number {
  const ms = Date.parse(value)
  if (Number.isNaN(ms)) throw new InvalidArgumentError('expected an ISO 8601 date or date-time.')
  return ms
}

/** A period between scheduled backups: 30m, 6h, 24h, 7d (src-shared/schemas/backup-schedule.ts), in milliseconds. */
export function parsePeriod(value: string): number {
  const ms = parseBackupPeriod(value)
  if (ms === null) throw new InvalidArgumentError('expected a period such as 30m, 6h, 24h or 7d (s, m, h or d after a whole number).')
  return ms
}
