/** Timestamps as stored: ISO 8601 UTC with milliseconds, so text order is time order. */
export const isoNow = (): string => new Date().toISOString()
export const isoAt = (ms: number): string => new Date(ms).toISOString()
