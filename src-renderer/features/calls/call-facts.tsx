import { Alert, Anchor, Badge, Box, Group, List, SimpleGrid, Stack, Text } from '@mantine/core'
import { IconArrowRight, IconInfoCircle } from '@tabler/icons-react'
import type { ReactNode } from 'react'
import { Link } from 'react-router'
import type { CallDetail } from '../../lib/api-types'
import { formatBytes, formatMs, formatTimestamp } from '../../lib/format'
import { formatLatency } from './call-format'

export const STATUS_COLOR: Record<string, string> = { completed: 'green', failed: 'red', in_progress: 'blue', ringing: 'blue', busy: 'orange', no_answer: 'orange' }

const dash = <Text span c="dimmed" size="sm">—</Text>

function Field({ label, testId, children }: { label: string; testId: string; children: ReactNode }) {
  return (
    <Box>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" component="div" data-testid={`call-${testId}`} style={{ wordBreak: 'break-word' }}>
        {children ?? dash}
      </Text>
    </Box>
  )
}

const agentLink = (id: string | null, name: string | null) =>
  id ? (
    <Anchor component={Link} to={`/agents/${encodeURIComponent(id)}`} size="sm" dir="auto">
      {name ?? id}
    </Anchor>
  ) : null

/** Who called whom, how it went, when, and who answered. */
export function CallHeaderFields({ detail }: { detail: CallDetail }) {
  const c = detail.call
  const time = (iso: string | null) => (iso ? formatTimestamp(iso) : null)
  return (
    <SimpleGrid cols={{ base: 2, lg: 3 }} spacing="sm" verticalSpacing={8} data-testid="call-header">
      <Field label="From → to" testId="numbers">
        {c.from_number || c.to_number ? (
          <span style={{ fontVariantNumeric: 'tabular-nums' }}>
            <bdi>{c.from_number ?? '?'}</bdi> → <bdi>{c.to_number ?? '?'}</bdi>
          </span>
        ) : null}
      </Field>
      <Field label="Direction" testId="direction">{c.direction}</Field>
      <Field label="Status" testId="status">
        {c.status ? (
          <Badge size="sm" variant="light" color={STATUS_COLOR[c.status] ?? 'gray'}>
            {c.status}
          </Badge>
        ) : (
          <Text span size="sm" c="dimmed">unknown (no call record)</Text>
        )}
      </Field>
      <Field label="End reason" testId="end-reason">{c.end_reason}</Field>
      <Field label="Duration" testId="duration">{c.duration_ms === null ? null : `${formatMs(c.duration_ms)} (${c.duration_ms.toLocaleString('en-US')} ms)`}</Field>
      <Field label="Caller waited" testId="wait">{c.wait_ms === null ? null : formatMs(c.wait_ms)}</Field>
      <Field label="Started" testId="started">{time(c.started_at)}</Field>
      <Field label="Answered" testId="answered">{time(c.answered_at)}</Field>
      <Field label="Ended" testId="ended">{time(c.ended_at)}</Field>
      <Field label="Agent" testId="agent">{agentLink(c.agent_id, c.agent_name)}</Field>
      <Field label="Tenant" testId="tenant">
        {c.tenant_name ? (
          <Anchor component={Link} to={`/tenants/${c.tenant_id}`} size="sm" dir="auto">
            {c.tenant_name}
          </Anchor>
        ) : (
          c.tenant_id || null
        )}
      </Field>
      <Field label="Squad" testId="squad">
        {c.squad_id ? (
          <Anchor component={Link} to={`/squads/${encodeURIComponent(c.squad_id)}`} size="sm" dir="auto">
            {c.squad_name ?? c.squad_id}
          </Anchor>
        ) : null}
      </Field>
      <Field label="SIP trunk" testId="trunk">{c.sip_trunk_id}</Field>
      <Field label="Recording" testId="recording">
        {detail.recording ? (
          <>
            {[detail.recording.format, detail.recording.size_bytes === null ? null : formatBytes(detail.recording.size_bytes), detail.recording.retention_days === null ? null : `kept ${detail.recording.retention_days} days`]
              .filter(Boolean)
              .join(' · ')}
            {detail.recording.url && (
              <>
                {' · '}
                <Anchor href={detail.recording.url} size="sm" target="_blank" rel="noreferrer">
                  file
                </Anchor>
              </>
            )}
          </>
        ) : (
          <Text span size="sm" c="dimmed">none in the lines</Text>
        )}
      </Field>
    </SimpleGrid>
  )
}

/** The agents the call went through, each hand-over with its reason, outcome and time. */
export function TransferChain({ detail }: { detail: CallDetail }) {
  const c = detail.call
  if (detail.transfers.length === 0) {
    return (
      <Text size="sm" data-testid="transfer-chain">
        {c.agent_id ? (
          <>
            No transfer: {agentLink(c.agent_id, c.agent_name)} handled the call{c.squad_name ? ` in ${c.squad_name}` : ''}.
          </>
        ) : (
          'No transfer in the records or the lines.'
        )}
      </Text>
    )
  }
  const first = detail.transfers[0]!
  return (
    <Group gap={6} wrap="wrap" data-testid="transfer-chain">
      <Badge variant="outline" tt="none" size="lg">
        {agentLink(first.from_agent_id, first.from_agent_name) ?? 'unknown agent'}
      </Badge>
      {detail.transfers.map((t, i) => (
        <Group key={`${t.requested_at}-${i}`} gap={6} wrap="nowrap" data-testid="transfer-hop">
          <Stack gap={0} align="center">
            <IconArrowRight size={16} aria-hidden />
            <Text size="10px" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
              {[t.reason, t.latency_ms === null ? null : formatLatency(t.latency_ms)].filter(Boolean).join(' · ')}
            </Text>
          </Stack>
          <Badge variant="outline" tt="none" size="lg" color={t.outcome === 'failed' ? 'red' : undefined}>
            {agentLink(t.to_agent_id, t.to_agent_name) ?? 'unknown agent'}
          </Badge>
          <Badge size="xs" variant="light" color={t.outcome === 'success' ? 'green' : t.outcome === 'failed' ? 'red' : 'gray'}>
            {t.outcome ?? 'outcome unknown'}
          </Badge>
        </Group>
      ))}
      {detail.transfers[0]?.source === 'log_lines' && (
        <Text size="xs" c="dimmed">
          (from the transfer lines: the session has no transfer records here)
        </Text>
      )}
    </Group>
  )
}

/** What the data lacks for this page, in words: pulled data may not carry every detail. */
export function MissingNote({ missing }: { missing: string[] }) {
  if (missing.length === 0) return null
  return (
    <Alert variant="light" color="gray" icon={<IconInfoCircle size={16} />} title="What this call's data does not say" data-testid="call-missing">
      <List size="sm" spacing={2}>
        {missing.map((m) => (
          <List.Item key={m}>{m}</List.Item>
        ))}
      </List>
    </Alert>
  )
}
