const money = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' })
const number = new Intl.NumberFormat('en-US')
const dateTime = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'medium', timeZone: 'UTC' })

export const formatCents = (cents: number) => money.format(cents / 100)
export const formatNumber = (n: number) => number.format(n)
/** Timestamps are shown in UTC, as stored, with the zone said. */
export const formatTimestamp = (iso: string) => `${dateTime.format(new Date(iso))} UTC`
