/**
 * docs/benchmarks.md is written by several commands: `npm run bench` the whole file, others one
 * `## ` section each. These find a section by its heading line, up to the next `## ` heading.
 */

/** Where the section starts (at its heading) and ends, or null when the text has none. */
function sectionBounds(text: string, heading: string): { start: number; end: number } | null {
  const at = text.indexOf(`\n${heading}\n`)
  if (at < 0) return null
  const next = text.indexOf('\n## ', at + 1)
  return { start: at + 1, end: next < 0 ? text.length : next + 1 }
}

/** The section's text, heading included, or '' when the text has none. */
export function sectionOf(text: string, heading: string): string {
  const bounds = sectionBounds(text, heading)
  return bounds ? text.slice(bounds.start, bounds.end).trim() : ''
}

/** The text with the section replaced by `section` (a whole section, heading included), or appended. */
export function withSection(text: string, heading: string, section: string): string {
  const bounds = sectionBounds(text, heading)
  if (!bounds) return `${text.trimEnd()}\n\n${section.trim()}\n`
  const after = text.slice(bounds.end)
  return `${text.slice(0, bounds.start)}${section.trim()}\n${after ? `\n${after}` : ''}`
}
