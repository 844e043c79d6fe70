import { Box, Button, Code, CopyButton, Drawer, Group, Stack, Table, Text, Tooltip } from '@mantine/core'
import { IconCopy, IconLink, IconPhone, IconRoute } from '@tabler/icons-react'
import { useQuery } from '@tanstack/react-query'
import type { CallLogViewParams } from '../../../src-shared/call-log-view'
import { QueryState } from '../../components/query-state'
import type { CallLogContext, CallLogLine, CallLogOrigin } from '../../lib/api-types'
import { formatTimestamp } from '../../lib/format'
import { useTRPC } from '../../lib/trpc'
import { formatLogTime } from './format'
import { LogLevelBadge } from './log-level-badge'

interface CallLogDetailsProps {
  id: string | null
  onClose: () => void
  onPick: (id: string) => void
  setView: (patch: Partial<CallLogViewParams>) => void
}

const FIELDS: Array<keyof CallLogLine> = ['id', 'timestamp', 'log_level', 'log_type', 'message', 'tenant_id', 'agent_id', 'session_id', 'call_id', 'trace_id', 'request_id', 'user_id']

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

function Fields({ line, levelAsSent }: { line: CallLogLine; levelAsSent: string | null }) {
  return (
    <Table fz="xs" verticalSpacing={4} data-testid="details-fields">
      <Table.Tbody>
        {FIELDS.map((f) => (
          <Table.Tr key={f}>
            <Table.Td w={110} c="dimmed">
              {f}
            </Table.Td>
            <Table.Td style={{ wordBreak: 'break-word', whiteSpace: 'pre-wrap' }} ff={f === 'message' ? undefined : 'monospace'}>
              {f === 'log_level' ? <Level line={line} asSent={levelAsSent} /> : ((line[f] as string | null) ?? <Text span c="dimmed" size="xs">null</Text>)}
            </Table.Td>
          </Table.Tr>
        ))}
        <Table.Tr>
          <Table.Td c="dimmed">details</Table.Td>
          <Table.Td>
            <Code block fz="xs" data-testid="details-json">
              {JSON.stringify(line.details, null, 2)}
            </Code>
          </Table.Td>
        </Table.Tr>
      </Table.Tbody>
    </Table>
  )
}

function ContextLines({ context, onPick }: { context: CallLogContext; onPick: (id: string) => void }) {
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
            {formatLogTime(l.timestamp).slice(11)}
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

/** The selected line: every field, its details JSON, pivots, and the lines around it in its call. */
export function CallLogDetails({ id, onClose, onPick, setView }: CallLogDetailsProps) {
  const trpc = useTRPC()
  const context = useQuery({ ...trpc.callLogs.context.queryOptions({ id: id ?? '', before: 15, after: 15 }), enabled: id !== null })
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
              <Fields line={c.anchor} levelAsSent={c.levelAsSent} />
              <OriginNote origin={c.origin} />
              <Text size="sm" fw={600}>
                {c.pivot === 'call' ? 'Around it in the same call' : c.pivot === 'trace' ? 'Around it in the same trace' : 'No call or trace to show around it'}
              </Text>
              {c.pivot && <ContextLines context={c} onPick={onPick} />}
            </Stack>
          )}
        </QueryState>
      )}
    </Drawer>
  )
}
