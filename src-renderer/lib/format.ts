const money = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' })
const number = new Intl.NumberFormat('en-US')
const dateTime = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'medium', timeZone: 'UTC' })

export const formatCents = (cents: number) => money.format(cents / 100)
export const formatNumber = (n: number) => number.format(n)
/** Timestamps are shown in UTC, as stored, with the zone said. */
export const formatTimestamp = (iso: string) => `${dateTime.format(new Date(iso))} UTC`

const percent = new Intl.NumberFormat('en-US', { style: 'percent', maximumFractionDigits: 1 })
/** A 0..1 rate as a percentage. */
export const formatRate = (rate: number) => percent.format(rate)
/** Milliseconds as a short duration: 850 ms, 12.4 s, 3 min 05 s. */
export function formatMs(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`
  const s = Math.round(ms / 1000)
  return `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s`
}
const date = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeZone: 'UTC' })
export const formatDate = (iso: string) => date.format(new Date(iso))
/** Bytes in binary units. */
export function formatBytes(bytes: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB']
  let value = bytes
  let unit = 0
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024
    unit += 1
  }
  return `${unit === 0 ? value : value.toFixed(1)} ${units[unit]}`
}
