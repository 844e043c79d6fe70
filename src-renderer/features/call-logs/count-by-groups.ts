import { facetTerm } from '../../../src-shared/log-query/facet-terms'
import type { CallLogCountBy, CountByGroup } from '../../../src-shared/schemas/call-log-count-by'
import { formatLogTime } from './format'

/*
 * What the count-by panel shows of an answer, kept apart from React so the chart, the table, the CSV
 * and the PNG say the same: each group's label, colour, share, error rate and the query term that
 * filters in to it.
 */

/**
 * Okabe and Ito's colour-blind-safe palette (its black left out, as it vanishes on the dark theme),
 * then three of Paul Tol's "muted" colours for N up to 10; "other" is a neutral grey.
 */
export const COUNT_BY_PALETTE = ['#0072B2', '#E69F00', '#009E73', '#CC79A7', '#56B4E9', '#D55E00', '#F0E442', '#882255', '#44AA99', '#999933'] as const
export const OTHER_COLOR = '#8C8C8C'

export const NONE_LABEL = '(none)'
export const OTHER_LABEL = 'other'

export interface ShownGroup extends CountByGroup {
  /** The chart's series key (labels may repeat or hold characters a key should not). */
  key: string
  label: string
  color: string
  /** Of all matching lines, 0–1. */
  share: number
  /** Error lines of the group, 0–1. */
  errorRate: number
  /** The query-language term that filters in to this group; null when none can (other, no agent). */
  term: string | null
}

/** A value as the table shows it: text as it is, other JSON values as JSON writes them. */
const valueText = (value: CountByGroup['value']) => (typeof value === 'string' ? value : JSON.stringify(value))

function labelOf(by: string, g: CountByGroup): string {
  if (g.kind === 'other') return OTHER_LABEL
  if (g.kind === 'none') return NONE_LABEL
  // Two tenants (agents) of one name are told apart by the start of their ids, as facets do.
  if (g.name) return g.name_shared ? `${g.name} · ${String(g.value).slice(0, 8)}` : g.name
  return valueText(g.value)
}

function termOf(by: string, g: CountByGroup): string | null {
  if (g.kind === 'other') return null
  if (g.kind === 'none') return by.startsWith('details.') ? `-${by}:*` : null
  // Objects and arrays are counted by their JSON text, which no term matches.
  if (by.startsWith('details.') && typeof g.value === 'string' && /^[[{]/.test(g.value)) return null
  // A tenant or agent by name when no other has it (names match any case), else by id.
  const value = g.name && !g.name_shared ? g.name : g.value
  return facetTerm(by, value)
}

export function shownGroups(answer: CallLogCountBy): ShownGroup[] {
  return answer.groups.map((g, i) => ({
    ...g,
    key: `g${i}`,
    label: labelOf(answer.by, g),
    color: g.kind === 'other' ? OTHER_COLOR : COUNT_BY_PALETTE[i % COUNT_BY_PALETTE.length]!,
    share: answer.total > 0 ? g.count / answer.total : 0,
    errorRate: g.count > 0 ? g.errors / g.count : 0,
    term: termOf(answer.by, g),
  }))
}

/** The chart's rows: one per bucket, each group's count under its key. */
export function chartRows(answer: CallLogCountBy, groups: ShownGroup[]): Array<Record<string, string | number>> {
  return answer.buckets.map((b) => Object.fromEntries([['start', b.start], ...groups.map((g, i) => [g.key, b.counts[i] ?? 0])]))
}

/** RFC 4180 field, with a spreadsheet formula neutralised as the log export does (docs/api.md, "CSV and spreadsheets"). */
export function csvField(value: string | number): string {
  if (typeof value === 'number') return String(value)
  const text = /^'*[=+\-@\t\r]/.test(value) ? `'${value}` : value
  return /[",\r\n]/.test(text) || text !== value ? `"${text.replace(/"/g, '""')}"` : text
}

const csv = (rows: Array<Array<string | number>>) => rows.map((r) => r.map(csvField).join(',')).join('\r\n') + '\r\n'
const percent = (rate: number) => Number((rate * 100).toFixed(2))

/** The table as CSV: one row per group, as shown (share and error rate in %). */
export function tableCsv(answer: CallLogCountBy, groups: ShownGroup[]): string {
  return csv([[answer.by, 'value', 'lines', 'share_pct', 'errors', 'error_rate_pct'], ...groups.map((g) => [g.label, g.kind === 'value' ? valueText(g.value) : '', g.count, percent(g.share), g.errors, percent(g.errorRate)])])
}

/** The chart's series as CSV: one row per bucket (its UTC start), one column per group. */
export function seriesCsv(answer: CallLogCountBy, groups: ShownGroup[]): string {
  return csv([['bucket_start', ...groups.map((g) => g.label)], ...answer.buckets.map((b) => [b.start, ...groups.map((_, i) => b.counts[i] ?? 0)])])
}

/** Both, in one file: the table, a blank line, the series; each part with its header row. */
export const countByCsv = (answer: CallLogCountBy, groups: ShownGroup[]) => `${tableCsv(answer, groups)}\r\n${seriesCsv(answer, groups)}`

/** A file name for the downloads: the key and the span, e.g. `call-logs-by-details.provider-2026-11-13.csv`. */
export const countByFileName = (answer: CallLogCountBy, ext: 'csv' | 'png') => `call-logs-by-${answer.by}${answer.from ? `-${answer.from.slice(0, 10)}` : ''}.${ext}`

/** The bucket's width in words. */
export const bucketWords = (seconds: number) => (seconds >= 86_400 ? `${seconds / 86_400} d` : seconds >= 3600 ? `${seconds / 3600} h` : `${seconds / 60} min`)

/** The span counted, in the chosen zone. */
export const spanWords = (answer: CallLogCountBy, timeZone: string) =>
  answer.from && answer.to ? `${formatLogTime(answer.from, timeZone).slice(0, 16)} – ${formatLogTime(answer.to, timeZone).slice(0, 16)}` : ''
