/** A JSON column read back: its value, null for SQL NULL, or the text itself when it is not JSON (pulled or imported data may hold any text). */
export function jsonOrText(text: string | null): unknown {
  if (text === null) return null
  try {
    return JSON.parse(text) as unknown
  } catch {
    return text
  }
}
