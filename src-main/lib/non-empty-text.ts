/** A JSON value read as an id or name: a non-empty string, else null (what a remote's answer does not say). */
export const nonEmptyText = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null)
