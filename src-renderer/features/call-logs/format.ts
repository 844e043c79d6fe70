/** Call log times: UTC, to the millisecond, as stored (2026-11-01 10:00:00.123). */
export const formatLogTime = (iso: string) => iso.replace('T', ' ').replace(/Z$/, '')
export const shortId = (id: string | null) => (id ? id.slice(0, 8) : '—')
