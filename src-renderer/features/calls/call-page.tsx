import { Alert, Anchor, Badge, Box, Button, Group, Stack, Text } from '@mantine/core'
import { IconAlertTriangle, IconListDetails, IconMessages, IconRefresh, IconRoute } from '@tabler/icons-react'
import { useQuery } from '@tanstack/react-query'
import { useEffect } from 'react'
import { Link, useParams, useSearchParams } from 'react-router'
import { BreadcrumbTitle } from '../../components/breadcrumb-title'
import { QueryState } from '../../components/query-state'
import { errorCode, Section } from '../../components/section'
import type { CallDetail } from '../../lib/api-types'
import { useTRPC } from '../../lib/trpc'
import { CallEvents } from '../webhooks/call-events'
import { CallHeaderFields, MissingNote, STATUS_COLOR, TransferChain } from './call-facts'
import { CallTranscript } from './call-transcript'
import { CallTurns } from './call-turns'
import { CallWaterfall } from './call-waterfall'
import { useCallLive } from './use-call-live'

const intParam = (text: string) => (/^\d+$/.test(text) ? Number(text) : null)

/** Session, trace and explorer: where to go from the call, each with the explorer's own URL parameters. */
function CallLinks({ detail }: { detail: CallDetail }) {
  const { links, call } = detail
  const session = links.session_id
  return (
    <Group gap="md" data-testid="call-links">
      {session && (
        <Anchor
          component={Link}
          to={links.session_in_store ? `/sessions/${encodeURIComponent(session)}` : `/logs?session=${encodeURIComponent(session)}`}
          size="sm"
          data-testid="call-session-link"
        >
          <Group gap={4} wrap="nowrap">
            <IconMessages size={14} aria-hidden />
            {links.session_in_store ? 'Session' : 'Session lines'}
          </Group>
        </Anchor>
      )}
      {links.trace_ids.map((trace, i) => (
        <Anchor key={trace} component={Link} to={`/logs?trace=${encodeURIComponent(trace)}`} size="sm" data-testid="call-trace-link">
          <Group gap={4} wrap="nowrap">
            <IconRoute size={14} aria-hidden />
            {links.trace_ids.length > 1 ? `Trace ${i + 1}` : 'Trace'}
          </Group>
        </Anchor>
      ))}
      <Anchor component={Link} to={`/logs?call=${encodeURIComponent(call.id)}`} size="sm" data-testid="call-explorer-link">
        <Group gap={4} wrap="nowrap">
          <IconListDetails size={14} aria-hidden />
          {detail.lines_total.toLocaleString('en-US')} lines in the explorer
        </Group>
      </Anchor>
    </Group>
  )
}

/** What the page's live tail is doing, in words, and the lines held back while a turn or span is chosen. */
function LiveNote({ live }: { live: ReturnType<typeof useCallLive> }) {
  if (live.pending > 0) {
    return (
      <Button size="compact-xs" variant="light" leftSection={<IconRefresh size={12} />} onClick={live.refresh} data-testid="call-new-lines">
        {live.pending.toLocaleString('en-US')} new {live.pending === 1 ? 'line' : 'lines'}: show
      </Button>
    )
  }
  return (
    <Text size="xs" c="dimmed" role="status" data-testid="call-live-state">
      {live.status === 'pending' ? 'Following new lines' : live.status === 'idle' ? '' : 'Connecting…'}
    </Text>
  )
}

/** The page's content: header, latency, transfers, then the waterfall beside the transcript. */
function CallView({ detail }: { detail: CallDetail }) {
  const [params, setParams] = useSearchParams()
  const turn = intParam(params.get('turn') ?? '')
  const span = intParam(params.get('span') ?? '')
  // Turn and span change together, in one URL update (two would each start from the old URL).
  const select = (next: { turn?: number | null; span?: number | null }) =>
    setParams(
      (current) => {
        const url = new URLSearchParams(current)
        for (const [key, value] of Object.entries(next)) {
          if (value === null || value === undefined) url.delete(key)
          else url.set(key, String(value))
        }
        return url
      },
      { replace: true },
    )
  const setTurn = (next: number | null) => select({ turn: next })
  const live = useCallLive(detail.call.id, turn !== null || span !== null)
  const c = detail.call
  // A turn chosen on one side is brought into view on the other.
  useEffect(() => {
    if (turn === null) return
    document.querySelector(`[data-testid="call-transcript"] [data-turn="${turn}"]`)?.scrollIntoView({ block: 'nearest' })
  }, [turn])
  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-start">
        <BreadcrumbTitle crumbs={[{ to: '/calls', label: 'Calls' }]} title="Call" titleTestId="call-title">
          {c.status && (
            <Badge variant="light" color={STATUS_COLOR[c.status] ?? 'gray'}>
              {c.status}
            </Badge>
          )}
          {c.end_reason && (
            <Badge variant="outline" color="gray" tt="none">
              {c.end_reason}
            </Badge>
          )}
          <Text size="xs" c="dimmed" ff="monospace" data-testid="call-id">
            {c.id}
          </Text>
        </BreadcrumbTitle>
        <Stack gap={4} align="flex-end">
          <CallLinks detail={detail} />
          <LiveNote live={live} />
        </Stack>
      </Group>
      <MissingNote missing={detail.missing} />
      <Box style={{ display: 'grid', gridTemplateColumns: 'minmax(0, 3fr) minmax(0, 2fr)', gap: 'var(--mantine-spacing-md)', alignItems: 'start' }}>
        <Stack gap="md">
          <Section title="Call">
            <CallHeaderFields detail={detail} />
          </Section>
          <Section title="Transfer chain">
            <TransferChain detail={detail} />
          </Section>
        </Stack>
        <Section title="Response latency (caller stops → agent speaks)" testId="call-turns">
          <CallTurns detail={detail} turn={turn} onTurn={setTurn} />
        </Section>
      </Box>
      <Box style={{ display: 'grid', gridTemplateColumns: 'minmax(0, 1fr) 340px', gap: 'var(--mantine-spacing-md)', alignItems: 'start' }}>
        <Section title="Timeline" right={<Text size="xs" c="dimmed">{detail.spans.length} spans from {detail.lines.length.toLocaleString('en-US')} lines</Text>}>
          {detail.spans.length === 0 ? <Text size="sm" c="dimmed">No log lines.</Text> : <CallWaterfall detail={detail} turn={turn} span={span} onSelect={select} />}
        </Section>
        <Box style={{ position: 'sticky', top: 56, maxHeight: 'calc(100vh - 72px)', overflowY: 'auto' }}>
          <Section title="Transcript" right={turn !== null ? <Anchor component="button" size="xs" onClick={() => setTurn(null)} data-testid="clear-turn">Clear the turn</Anchor> : undefined}>
            {detail.transcript.length === 0 ? (
              <Text size="sm" c="dimmed">
                {!detail.links.session_id ? 'No transcript: the call names no session.' : detail.links.session_in_store ? 'The session has no messages.' : 'No transcript: the session is not in this store.'}
              </Text>
            ) : <CallTranscript messages={detail.transcript} turn={turn} onTurn={setTurn} />}
          </Section>
        </Box>
      </Box>
      <Section title="Webhook events" testId="call-events-section">
        <CallEvents callId={c.id} tenantId={c.tenant_id} />
      </Section>
    </Stack>
  )
}

/** One call: opened from a row of the Calls page (`#/calls/<id>`). */
export function CallPage() {
  const { callId = '' } = useParams()
  const trpc = useTRPC()
  const detail = useQuery({ ...trpc.calls.get.queryOptions({ callId }), retry: (count, error) => errorCode(error) !== 'NOT_FOUND' && count < 2 })
  if (errorCode(detail.error) === 'NOT_FOUND') {
    return (
      <Alert color="gray" icon={<IconAlertTriangle size={16} />} title="No such call" data-testid="call-not-found">
        Neither a call record nor a log line with the call id <bdi>{callId}</bdi> is visible to this token. It may belong to another tenant, or
        its lines were never imported or pulled. <Anchor component={Link} to="/calls">Back to the calls</Anchor>
      </Alert>
    )
  }
  return <QueryState query={detail}>{(d) => <CallView detail={d} />}</QueryState>
}
