import { Anchor, Badge, Box, Card, Code, Group, SimpleGrid, Stack, Table, Text } from '@mantine/core'
import { IconListDetails, IconTool } from '@tabler/icons-react'
import { useQuery } from '@tanstack/react-query'
import type { ReactNode } from 'react'
import { Link, useParams } from 'react-router'
import { BreadcrumbTitle } from '../../components/breadcrumb-title'
import { JsonView } from '../../components/json-view'
import { QueryState } from '../../components/query-state'
import { Fields, Section } from '../../components/section'
import type { TranscriptMessage } from '../../lib/api-types'
import { formatMs, formatTimestamp } from '../../lib/format'
import { useTRPC } from '../../lib/trpc'
import { SessionStatusBadge } from './agent-status'

/** Scripts written right to left, by primary language subtag. */
const RTL = new Set(['ar', 'he', 'fa', 'ur', 'ps', 'sd', 'yi', 'dv', 'ckb'])
export const textDir = (language: string | null | undefined): 'rtl' | 'auto' =>
  language && RTL.has(language.toLowerCase().split(/[-_]/)[0]!) ? 'rtl' : 'auto'

const time = new Intl.DateTimeFormat('en-GB', { timeStyle: 'medium', timeZone: 'UTC' })
const clock = (iso: string) => time.format(new Date(iso))
/** A tool's arguments or result: JSON with each string isolated (right-to-left values read right), or plain text. */
function JsonOrText({ value, color }: { value: unknown; color?: string }) {
  if (typeof value !== 'string') return <JsonView value={value} fz={11} color={color} />
  return (
    <Code block fz={11} dir="auto" color={color}>
      {value}
    </Code>
  )
}

function Bubble({ message, fallbackLanguage }: { message: TranscriptMessage; fallbackLanguage: string }) {
  const user = message.role === 'user'
  const language = message.language ?? fallbackLanguage
  return (
    <Box
      maw="78%"
      px="sm"
      py={6}
      bg={user ? 'var(--mantine-color-default-hover)' : 'var(--mantine-color-indigo-light)'}
      style={{ borderRadius: 10, alignSelf: user ? 'flex-start' : 'flex-end' }}
      data-testid="message"
      data-role={message.role}
    >
      <Text size="sm" dir={textDir(language)} lang={language} style={{ whiteSpace: 'pre-wrap', unicodeBidi: 'plaintext' }} data-testid="message-text">
        {message.content}
      </Text>
      <Text size="10px" c="dimmed" mt={2} ta={user ? 'left' : 'right'}>
        {message.role} · {clock(message.created_at)}
        {message.role === 'assistant' && message.latency_ms !== null ? ` · ${formatMs(message.latency_ms)}` : ''}
      </Text>
    </Box>
  )
}

function ToolCall({ call, result }: { call: TranscriptMessage | null; result: TranscriptMessage | null }) {
  const name = call?.tool_name ?? result?.tool_name ?? 'tool'
  const failed = result !== null && typeof result.tool_result === 'object' && result.tool_result !== null && 'error' in result.tool_result
  return (
    <Card withBorder padding={8} radius="sm" maw="78%" style={{ alignSelf: 'flex-end' }} data-testid="tool-call">
      <Group gap={6} mb={4} justify="space-between" wrap="nowrap">
        <Group gap={6} wrap="nowrap">
          <IconTool size={14} />
          <Text size="xs" ff="monospace" fw={600}>
            {name}
          </Text>
          {result && <Badge size="xs" color={failed ? 'red' : 'green'}>{failed ? 'error' : 'ok'}</Badge>}
        </Group>
        <Text size="xs" c="dimmed">
          {result?.latency_ms != null ? formatMs(result.latency_ms) : ''}
          {call?.tool_call_id ? ` · ${call.tool_call_id}` : ''}
        </Text>
      </Group>
      <SimpleGrid cols={result ? 2 : 1} spacing={6}>
        {call?.tool_arguments != null && (
          <Box>
            <Text size="10px" c="dimmed" tt="uppercase" fw={600}>
              Arguments
            </Text>
            <JsonOrText value={call.tool_arguments} />
          </Box>
        )}
        {result && (
          <Box>
            <Text size="10px" c="dimmed" tt="uppercase" fw={600}>
              Result
            </Text>
            <JsonOrText value={result.tool_result} color={failed ? 'red.0' : undefined} />
          </Box>
        )}
      </SimpleGrid>
    </Card>
  )
}

/** Messages in order; a tool call and its result (joined by tool_call_id) form one inline card. */
function Transcript({ messages, language }: { messages: TranscriptMessage[]; language: string }) {
  const results = new Map(messages.filter((m) => m.role === 'tool' && m.tool_call_id).map((m) => [m.tool_call_id!, m]))
  const paired = new Set<string>()
  const items: ReactNode[] = []
  for (const m of messages) {
    if (m.role === 'tool') {
      if (m.tool_call_id && paired.has(m.tool_call_id)) continue
      items.push(<ToolCall key={m.id} call={null} result={m} />)
      continue
    }
    if (m.role === 'system') {
      items.push(
        <Text key={m.id} size="xs" c="dimmed" ta="center" dir="auto" fs="italic">
          {m.content}
        </Text>,
      )
      continue
    }
    if (m.content) items.push(<Bubble key={m.id} message={m} fallbackLanguage={language} />)
    if (m.tool_name && (m.tool_arguments || m.tool_call_id)) {
      const result = m.tool_call_id ? (results.get(m.tool_call_id) ?? null) : null
      if (m.tool_call_id) paired.add(m.tool_call_id)
      items.push(<ToolCall key={`${m.id}-tool`} call={m} result={result} />)
    }
  }
  return (
    <Stack gap={6} data-testid="transcript">
      {items}
    </Stack>
  )
}

const yesNo = (v: boolean | null) => (v === null ? '—' : v ? 'yes' : 'no')

export function TranscriptPage() {
  const { conversationId = '' } = useParams()
  const trpc = useTRPC()
  const conversation = useQuery(trpc.conversations.get.queryOptions({ conversationId }))
  return (
    <QueryState query={conversation}>
      {({ conversation: c, messages, calls, transfers }) => (
        <Stack gap="md">
          <Group justify="space-between">
            <BreadcrumbTitle
              crumbs={[
                { to: '/agents', label: 'Agents' },
                { to: `/agents/${c.agent_id}`, label: c.agent_name },
              ]}
              title="Session"
            >
              <SessionStatusBadge status={c.status} />
            </BreadcrumbTitle>
            <Group gap="sm">
              <Anchor component={Link} to={`/logs?session=${encodeURIComponent(c.id)}`} size="sm" data-testid="session-logs-link">
                <Group gap={4}>
                  <IconListDetails size={14} />
                  Call logs of this session
                </Group>
              </Anchor>
              <Code>{c.id}</Code>
            </Group>
          </Group>
          <Box style={{ display: 'grid', gridTemplateColumns: 'minmax(0, 1fr) 380px', gap: 'var(--mantine-spacing-md)', alignItems: 'start' }}>
            <Card withBorder padding="sm">
              <Group justify="space-between" mb="xs">
                <Text fw={600} size="sm">
                  Transcript
                </Text>
                <Text size="xs" c="dimmed">
                  {messages.length} messages · {c.language} · {textDir(c.language) === 'rtl' ? 'right to left' : 'left to right'}
                </Text>
              </Group>
              {messages.length === 0 ? <Text c="dimmed" size="sm">No messages.</Text> : <Transcript messages={messages} language={c.language} />}
            </Card>
            <Stack gap="sm">
              <Section title="Session">
                <Fields
                  rows={[
                    ['Status', <SessionStatusBadge key="s" status={c.status} />],
                    ['Channel', c.channel],
                    ['Language', <Badge key="l" tt="none" variant="outline">{c.language}</Badge>],
                    ['Tenant', <Anchor key="t" component={Link} to={`/tenants/${c.tenant_id}`} size="sm">{c.tenant_name}</Anchor>],
                    ['Squad', c.squad_id ? <Anchor key="q" component={Link} to={`/squads/${c.squad_id}`} size="sm">{c.squad_name}</Anchor> : '—'],
                    ['Routing', c.routing_strategy ?? '—'],
                    ['Wait', c.wait_ms === null ? '—' : formatMs(c.wait_ms)],
                    ['Resolved', yesNo(c.resolved)],
                    ['Started', formatTimestamp(c.created_at)],
                    ['Ended', c.ended_at ? formatTimestamp(c.ended_at) : '—'],
                  ]}
                />
              </Section>
              {calls.map((call) => (
                <Section
                  key={call.id}
                  title="Call"
                  right={
                    <Anchor component={Link} to={`/logs?call=${encodeURIComponent(call.id)}`} size="xs">
                      Logs of this call
                    </Anchor>
                  }
                >
                  <Fields
                    rows={[
                      ['Direction', call.direction],
                      ['From → to', `${call.from_number} → ${call.to_number}`],
                      ['Status', call.status + (call.end_reason ? ` (${call.end_reason})` : '')],
                      ['Duration', call.duration_ms === null ? '—' : formatMs(call.duration_ms)],
                      ['Trunk', call.sip_trunk_id ?? '—'],
                    ]}
                  />
                </Section>
              ))}
              {transfers.length > 0 && (
                <Section title="Transfers">
                  <Table>
                    <Table.Tbody>
                      {transfers.map((t) => (
                        <Table.Tr key={t.id}>
                          <Table.Td>
                            <Text size="sm">
                              {t.from_agent_name} → {t.to_agent_name}
                            </Text>
                            <Text size="xs" c="dimmed">
                              {t.reason} · {formatMs(t.latency_ms)} · {clock(t.requested_at)}
                            </Text>
                          </Table.Td>
                          <Table.Td ta="right" w={84}>
                            <Badge style={{ overflow: 'visible' }} color={t.outcome === 'success' ? 'green' : 'red'}>{t.outcome}</Badge>
                          </Table.Td>
                        </Table.Tr>
                      ))}
                    </Table.Tbody>
                  </Table>
                </Section>
              )}
            </Stack>
          </Box>
        </Stack>
      )}
    </QueryState>
  )
}
