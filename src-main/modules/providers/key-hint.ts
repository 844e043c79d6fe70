/**
 * A masked form of an API key that is safe to show: never more than the first 3 and last 4
 * characters, and less of a short key, so the hint never gives away a meaningful part of it.
 *
 *   24+ characters  first 3 … last 4   (`sk-…a1b2`)
 *   16–23           … last 4
 *    8–15           … last 2
 *   under 8         …
 */
export function keyHint(key: string): string {
  const chars = [...key]
  const n = chars.length
  if (n >= 24) return `${chars.slice(0, 3).join('')}…${chars.slice(-4).join('')}`
  if (n >= 16) return `…${chars.slice(-4).join('')}`
  if (n >= 8) return `…${chars.slice(-2).join('')}`
  return '…'
}

/** Replaces every occurrence of a secret (and its URL-encoded form) in a text with its hint. */
export function redact(text: string, secret: string): string {
  if (secret.length === 0) return text
  let out = text.split(secret).join(keyHint(secret))
  const encoded = encodeURIComponent(secret)
  if (encoded !== secret) out = out.split(encoded).join(keyHint(secret))
  return out
}
