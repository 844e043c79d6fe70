import type { ReactNode } from 'react'
import { type BaseColumn, DETAILS_COLUMN_PREFIX } from '../../../src-shared/explorer-state'
import type { CallLogLine } from '../../lib/api-types'
import { formatLogTime, shortId, zoneLabel } from './format'
import { HighlightedMessage } from './highlighted-message'
import { LogLevelBadge } from './log-level-badge'

/*
 * The call log table's columns (issue 17 pt 5): the base ones and `details.<key>`, in the order
 * the view's `cols` gives. The message takes the room left, and keeps 160 px of it; time and level
 * have fixed widths and the others give way (cut with an ellipsis) in a narrow table, beside the
 * facets on a laptop. Rows stay one line, so the virtualizer never measures.
 */

export interface CellContext {
  timeZone: string
  agentNames: Map<string, string>
  tenantNames: Map<string, string>
}

interface ColumnSpec {
  header: (ctx: CellContext) => string
  width: string
  className?: string
  cell: (row: CallLogLine, ctx: CellContext) => ReactNode
  /** The cell's title (its whole text, when cut). */
  title?: (row: CallLogLine) => string | undefined
  testId?: string
}

const BASE: Record<BaseColumn, ColumnSpec> = {
  time: { header: (c) => `Time (${zoneLabel(c.timeZone)})`, width: '190px', className: 'cs-logs-mono', cell: (r, c) => formatLogTime(r.timestamp, c.timeZone) },
  level: { header: () => 'Level', width: '96px', cell: (r) => <LogLevelBadge level={r.log_level} /> },
  type: { header: () => 'Type', width: 'minmax(0, 84px)', className: 'cs-logs-mono', cell: (r) => r.log_type, title: (r) => r.log_type },
  tenant: { header: () => 'Tenant', width: 'minmax(0, 140px)', className: 'cs-logs-dim', cell: (r, c) => c.tenantNames.get(r.tenant_id) ?? shortId(r.tenant_id), title: (r) => r.tenant_id },
  agent: { header: () => 'Agent', width: 'minmax(0, 140px)', className: 'cs-logs-dim', cell: (r, c) => (r.agent_id ? (c.agentNames.get(r.agent_id) ?? shortId(r.agent_id)) : '—') },
  call: { header: () => 'Call', width: 'minmax(0, 96px)', className: 'cs-logs-mono', cell: (r) => shortId(r.call_id) },
  message: {
    header: () => 'Message',
    width: 'minmax(160px, 1fr)',
    className: 'cs-logs-message',
    cell: (r) => <HighlightedMessage message={r.message} highlights={r.highlights} />,
    title: (r) => r.message,
    testId: 'call-log-message',
  },
}

/** A details value by its dotted key (`usage.tokens`), as the query language reads it. */
export function detailsValue(details: Record<string, unknown>, key: string): unknown {
  let value: unknown = details
  for (const part of key.split('.')) {
    if (value === null || typeof value !== 'object' || Array.isArray(value) || !(part in value)) return undefined
    value = (value as Record<string, unknown>)[part]
  }
  return value
}

const detailsText = (value: unknown): string => (value === undefined ? '—' : typeof value === 'string' ? value : JSON.stringify(value))

function detailsColumn(key: string): ColumnSpec {
  const text = (r: CallLogLine) => detailsText(detailsValue(r.details, key))
  return { header: () => `details.${key}`, width: 'minmax(0, 140px)', className: 'cs-logs-mono', cell: text, title: text }
}

/** The spec of each column name (a name the state schema accepted: a base column or details.<key>). */
export function columnSpecs(columns: readonly string[]): Array<ColumnSpec & { name: string }> {
  return columns.map((name) => ({ name, ...(name.startsWith(DETAILS_COLUMN_PREFIX) ? detailsColumn(name.slice(DETAILS_COLUMN_PREFIX.length)) : BASE[name as BaseColumn]) }))
}

/** The grid's columns; without a message column the last one takes the room left. */
export function gridTemplate(specs: ReadonlyArray<{ width: string }>): string {
  const widths = specs.map((s) => s.width)
  if (!widths.some((w) => w.includes('fr')) && widths.length > 0) widths[widths.length - 1] = `minmax(${widths.at(-1)}, 1fr)`
  return widths.join(' ')
}
