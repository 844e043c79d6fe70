import { Box, Button, Code, CopyButton, Drawer, Group, SegmentedControl, Stack, Table, Text, Tooltip } from '@mantine/core'
import { IconCopy, IconExternalLink, IconLink, IconPhone, IconRoute } from '@tabler/icons-react'
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { Link } from 'react-router'
import { CONTEXT_LINES_MAX, CONTEXT_SAME, CONTEXT_SCOPES, type ContextSame, type ContextScope } from '../../../src-shared/schemas/call-log-search'
import type { CallLogViewParams } from '../../../src-shared/call-log-view'
import { JsonView } from '../../components/json-view'
import { QueryState } from '../../components/query-state'
import type { CallLogContext, CallLogLine, CallLogOrigin } from '../../lib/api-types'
import { formatTimestamp } from '../../lib/format'
import { useTRPC } from '../../lib/trpc'
import { formatLogTime, UTC, zoneLabel } from './format'
import { useTimeZone } from './time-zone'
import { LogLevelBadge } from './log-level-badge'
import { LineCallEvents } from '../webhooks/line-call-events'

interface CallLogDetailsProps {
  id: string | null
  onClose: () => void
  onPick: (id: string) => void
  setView: (patch: Partial<CallLogViewParams>) => void
}

const FIELDS: Array<keyof CallLogLine> = ['id', 'timestamp', 'log_level', 'log_type', 'message', 'tenant_id', 'agent_id', 'session_id', 'call_id', 'trace_id', 'request_id', 'user_id']

/** A context line's time in the zone: the date too when it is of another day than the record (context in time spans days). */
function shownTime(iso: string, anchor: string, timeZone: string): string {
  const time = formatLogTime(iso, timeZone)
  return time.slice(time.slice(0, 10) === formatLogTime(anchor, timeZone).slice(0, 10) ? 11 : 5)
}

/** The record's time in the zone shown, named; in another zone than UTC, the stored UTC value too. */
function Timestamp({ iso, timeZone }: { iso: string; timeZone: string }) {
  return (
    <Stack gap={0} data-testid="details-timestamp">
      <span>{`${formatLogTime(iso, timeZone)} (${zoneLabel(timeZone, Date.parse(iso))})`}</span>
      {timeZone !== UTC && (
        <Text span size="xs" c="dimmed" ff="monospace">
          {`stored as ${iso}`}
        </Text>
      )}
    </Stack>
  )
}

/** The level badge, and how the source spelled it when that differs (kept on import and pull). */
function Level({ line, asSent }: { line: CallLogLine; asSent: string | null }) {
  return (
    <Group gap={6}>
      <LogLevelBadge level={line.log_level} />
      {asSent !== null && (
        <Text span size="xs" c="dimmed" data-testid="details-level-as-sent">
          sent as <Code fz="xs">{asSent}</Code>
        </Text>
      )}
    </Group>
  )
}

function Fields({ line, levelAsSent, timeZone }: { line: CallLogLine; levelAsSent: string | null; timeZone: string }) {
  return (
    <Table fz="xs" verticalSpacing={4} data-testid="details-fields">
      <Table.Tbody>
        {FIELDS.map((f) => (
          <Table.Tr key={f}>
            <Table.Td w={110} c="dimmed">
              {f}
            </Table.Td>
            <Table.Td style={{ wordBreak: 'break-word', whiteSpace: 'pre-wrap' }} ff={f === 'message' ? undefined : 'monospace'}>
              {f === 'log_level' ? <Level line={line} asSent={levelAsSent} /> : f === 'timestamp' ? <Timestamp iso={line.timestamp} timeZone={timeZone} /> : ((line[f] as string | null) ?? <Text span c="dimmed" size="xs">null</Text>)}
            </Table.Td>
          </Table.Tr>
        ))}
        <Table.Tr>
          <Table.Td c="dimmed">details</Table.Td>
          <Table.Td>
            {/* Each string isolated: an Arabic or Hebrew value reads right to left inside its quotes. */}
            <JsonView value={line.details} testId="details-json" />
          </Table.Td>
        </Table.Tr>
      </Table.Tbody>
    </Table>
  )
}

function ContextLines({ context, onPick, timeZone }: { context: CallLogContext; onPick: (id: string) => void; timeZone: string }) {
  const lines = [...context.before, context.anchor, ...context.after]
  return (
    <Stack gap={0} data-testid="details-context">
      {lines.map((l) => (
        <Group
          key={l.id}
          gap={6}
          wrap="nowrap"
          px={4}
          py={2}
          role="button"
          tabIndex={0}
          data-line-id={l.id}
          aria-current={l.id === context.anchor.id ? 'true' : undefined}
          className="cs-context-line"
          style={{ cursor: 'pointer', borderRadius: 4, background: l.id === context.anchor.id ? 'var(--mantine-primary-color-light)' : undefined }}
          onClick={() => onPick(l.id)}
          onKeyDown={(e) => {
            if (e.key !== 'Enter' && e.key !== ' ') return
            e.preventDefault()
            onPick(l.id)
          }}
        >
          <Text size="xs" ff="monospace" c="dimmed" style={{ whiteSpace: 'nowrap', flexShrink: 0 }}>
            {shownTime(l.timestamp, context.anchor.timestamp, timeZone)}
          </Text>
          <Box style={{ flexShrink: 0 }}>
            <LogLevelBadge level={l.log_level} />
          </Box>
          <Text size="xs" truncate title={l.message}>
            {l.message}
          </Text>
        </Group>
      ))}
    </Stack>
  )
}

/** Where the line came from: an import's file or a pull's backend, and when; else this store. */
function OriginNote({ origin }: { origin: CallLogOrigin }) {
  return (
    <Text size="xs" c="dimmed" data-testid="details-origin">
      {origin === null ? (
        'Created in this store (seeded or local), not imported or pulled.'
      ) : (
        <>
          {origin.kind === 'import' ? 'Imported from ' : 'Pulled from '}
          <Text span size="xs" ff="monospace">
            {origin.source}
          </Text>
          {` on ${formatTimestamp(origin.at)}.`}
        </>
      )}
    </Text>
  )
}

/** How far "Show more" widens the context, step by step, up to the service's limit. */
const SPANS = [15, 30, 60, 120, CONTEXT_LINES_MAX]

const SCOPE_LABELS: Record<ContextScope, string> = { call: 'Its call', trace: 'Its trace', time: 'In time' }
const SAME_LABELS: Record<ContextSame | 'all', string> = { all: 'Every line', tenant: 'Its tenant', agent: 'Its agent' }

/** Which lines show around the record, and how many: like Grafana's "show context". */
function ContextControls({ context, scope, setScope, same, setSame, span, setSpan }: {
  context: CallLogContext
  scope: ContextScope | undefined
  setScope: (scope: ContextScope) => void
  same: ContextSame | null
  setSame: (same: ContextSame | null) => void
  span: number
  setSpan: (span: number) => void
}) {
  const { anchor, pivot } = context
  const wider = SPANS.find((s) => s > span)
  return (
    <Stack gap={6}>
      <Group gap="xs" justify="space-between">
        <SegmentedControl
          size="xs"
          value={scope ?? pivot}
          onChange={(v) => setScope(v as ContextScope)}
          aria-label="Lines around it"
          data-testid="context-scope"
          data={CONTEXT_SCOPES.map((s) => ({ value: s, label: SCOPE_LABELS[s], disabled: (s === 'call' && !anchor.call_id) || (s === 'trace' && !anchor.trace_id) }))}
        />
        {wider !== undefined && (
          <Button size="xs" variant="subtle" onClick={() => setSpan(wider)} data-testid="context-wider">
            Show {wider} before and after
          </Button>
        )}
      </Group>
      {pivot === 'time' && (
        <Group>
          <SegmentedControl
            size="xs"
            value={same ?? 'all'}
            onChange={(v) => setSame(v === 'all' ? null : (v as ContextSame))}
            aria-label="Which lines in time"
            data-testid="context-same"
            data={(['all', ...CONTEXT_SAME] as const).map((s) => ({ value: s, label: SAME_LABELS[s], disabled: s === 'agent' && !anchor.agent_id }))}
          />
        </Group>
      )}
    </Stack>
  )
}

const CONTEXT_TITLES: Record<ContextScope, string> = { call: 'Around it in the same call', trace: 'Around it in the same trace', time: 'Around it in time' }

/** The selected line: every field, its details JSON, pivots, and the lines around it (its call, its trace or in time). */
export function CallLogDetails({ id, onClose, onPick, setView }: CallLogDetailsProps) {
  const trpc = useTRPC()
  const { timeZone } = useTimeZone()
  // Kept while moving from line to line: one reads a stretch of time the same way throughout.
  const [scope, setScope] = useState<ContextScope | undefined>(undefined)
  const [same, setSame] = useState<ContextSame | null>(null)
  const [span, setSpan] = useState(SPANS[0]!)
  const context = useQuery({
    ...trpc.callLogs.context.queryOptions({ id: id ?? '', before: span, after: span, scope, same }),
    enabled: id !== null,
    placeholderData: keepPreviousData,
  })
  return (
    <Drawer
      opened={id !== null}
      onClose={onClose}
      position="right"
      size={560}
      withOverlay={false}
      lockScroll={false}
      trapFocus={false}
      title={<Text fw={600}>Log line</Text>}
      data-testid="call-log-details"
    >
      {id !== null && (
        <QueryState query={context}>
          {(c) => (
            <Stack gap="sm" data-testid="details-body">
              <Group gap="xs">
                <Button size="xs" variant="light" leftSection={<IconPhone size={14} />} disabled={!c.anchor.call_id} onClick={() => setView({ callId: c.anchor.call_id ?? undefined })}>
                  Same call
                </Button>
                {c.anchor.call_id && (
                  // The call's page: its timeline and the webhook events sent and received about it (docs/api.md, "In the console").
                  <Button size="xs" variant="light" component={Link} to={`/calls/${encodeURIComponent(c.anchor.call_id)}`} leftSection={<IconExternalLink size={14} />} data-testid="details-call-page">
                    Call page and events
                  </Button>
                )}
                <Button size="xs" variant="light" leftSection={<IconRoute size={14} />} disabled={!c.anchor.trace_id} onClick={() => setView({ traceId: c.anchor.trace_id ?? undefined })}>
                  Same trace
                </Button>
                <CopyButton value={window.location.href}>
                  {({ copied, copy }) => (
                    <Tooltip label="A link to this view with this line open">
                      <Button size="xs" variant="default" leftSection={copied ? <IconCopy size={14} /> : <IconLink size={14} />} onClick={copy}>
                        {copied ? 'Copied' : 'Copy link'}
                      </Button>
                    </Tooltip>
                  )}
                </CopyButton>
              </Group>
              <Fields line={c.anchor} levelAsSent={c.levelAsSent} timeZone={timeZone} />
              <OriginNote origin={c.origin} />
              {c.anchor.call_id && <LineCallEvents callId={c.anchor.call_id} />}
              <Text size="sm" fw={600} data-testid="context-title">
                {CONTEXT_TITLES[c.pivot]}
                {c.pivot === 'time' && c.same ? `, its ${c.same}'s lines` : ''}
              </Text>
              <ContextControls context={c} scope={scope} setScope={setScope} same={same} setSame={setSame} span={span} setSpan={setSpan} />
              <ContextLines context={c} onPick={onPick} timeZone={timeZone} />
            </Stack>
          )}
        </QueryState>
      )}
    </Drawer>
  )
}
