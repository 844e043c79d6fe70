import { Anchor, Badge, Group, Pagination, Select, SimpleGrid, Stack, Table, Text } from '@mantine/core'
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { Link, useParams, useSearchParams } from 'react-router'
import { SESSIONS_PAGE } from '../../../src-shared/constants'
import { type Column, ListTable } from '../../components/list-table'
import { PulledBadge, PulledNote } from '../../components/pulled'
import { QueryState } from '../../components/query-state'
import { RecordHeading } from '../../components/record-heading'
import { Fields, Section } from '../../components/section'
import { CountCell } from '../../components/table-cells'
import type { RouterOutputs } from '../../lib/api-types'
import { formatNumber, formatTimestamp } from '../../lib/format'
import { useTRPC } from '../../lib/trpc'
import { AgentStatusBadge, providerModel } from './agent-status'

export const PAGE_SIZES = ['10', '20', '50', '100']

const SESSION_COLUMNS: Column[] = [{ label: 'Started', w: 230 }, { label: 'Last activity', w: 230 }, { label: 'Messages', w: 90, ta: 'right' }, { label: 'Last message' }]

/** Page (1-based) and page size from the URL, clamped to what the API accepts. */
function usePaging() {
  const [params, setParams] = useSearchParams()
  const sizeParam = Number(params.get('size'))
  const size = PAGE_SIZES.includes(String(sizeParam)) ? sizeParam : SESSIONS_PAGE.limitDefault
  const page = Math.max(1, Math.floor(Number(params.get('page')) || 1))
  const set = (next: { page?: number; size?: number }) => {
    const p = new URLSearchParams(params)
    p.set('page', String(next.page ?? page))
    p.set('size', String(next.size ?? size))
    setParams(p)
  }
  return { page, size, set }
}

type Agent = RouterOutputs['agents']['get']

function LocalProfile({ a }: { a: Extract<Agent, { kind: 'local' }> }) {
  return (
    <SimpleGrid cols={{ base: 1, md: 3 }} spacing="sm">
      <Section title="Profile">
        <Fields
          rows={[
            ['Tenant', <Anchor key="t" component={Link} to={`/tenants/${a.tenant_id}`} size="sm">{a.tenant_name}</Anchor>],
            ['Description', a.description ?? <Text key="d" c="dimmed" size="sm">none</Text>],
            [
              'Languages',
              <Group key="l" gap={4}>
                {a.languages.map((l) => (
                  <Badge key={l} tt="none" color={l === a.primary_language ? 'indigo' : 'gray'} variant={l === a.primary_language ? 'light' : 'outline'}>
                    {l}
                  </Badge>
                ))}
              </Group>,
            ],
            ['Sessions', formatNumber(a.session_count)],
          ]}
        />
      </Section>
      <Section title="Models">
        <Fields
          rows={[
            ['LLM', providerModel(a.llm_provider, a.llm_model)],
            ['STT', providerModel(a.stt_provider, a.stt_model)],
            ['TTS', providerModel(a.tts_provider, a.tts_model)],
            ['Voice', a.voice_id ?? '—'],
          ]}
        />
      </Section>
      <Section title="Timestamps">
        <Fields rows={[['Created', formatTimestamp(a.created_at)], ['Updated', formatTimestamp(a.updated_at)]]} />
      </Section>
    </SimpleGrid>
  )
}

/** The backend's interface has no agent profile: a pulled agent is known by id, tenant and sessions. */
function PulledProfile({ a }: { a: Extract<Agent, { kind: 'pulled' }> }) {
  return (
    <SimpleGrid cols={{ base: 1, md: 2 }} spacing="sm">
      <Section title="Profile">
        <Fields
          rows={[
            ['Tenant', a.tenant_id ? <Anchor key="t" component={Link} to={`/tenants/${a.tenant_id}`} size="sm">{a.tenant_name ?? a.tenant_id}</Anchor> : 'unknown'],
            ['Name', a.name ?? <Text key="n" c="dimmed" size="sm">not known</Text>],
            ['Sessions', formatNumber(a.session_count)],
            ['Log lines', <Anchor key="l" component={Link} to={`/logs?agent=${encodeURIComponent(a.id)}`} size="sm">in the explorer</Anchor>],
          ]}
        />
      </Section>
      <PulledNote source={a.pulled.source} testId="agent-pulled-note">
        Known from the call logs and the sessions listing fetched {formatTimestamp(a.pulled.fetchedAt)}
        {a.name ? ', its name from the pulled squad analytics' : ''}. The backend's interface has no agent profile, so its languages and models are not known
        here; its sessions are listed as the backend listed them, without transcripts.
      </PulledNote>
    </SimpleGrid>
  )
}

/** An agent's profile and its sessions, paged exactly as GET /agents/{agent_id}/sessions pages them. */
export function AgentPage() {
  const { agentId = '' } = useParams()
  const trpc = useTRPC()
  const { page, size, set } = usePaging()
  const agent = useQuery(trpc.agents.get.queryOptions({ agentId }))
  const sessions = useQuery({
    ...trpc.sessions.listForAgent.queryOptions({ agentId, limit: size, offset: (page - 1) * size }),
    placeholderData: keepPreviousData,
  })
  return (
    <QueryState query={agent}>
      {(a) => {
        const pages = Math.max(1, Math.ceil((sessions.data?.total ?? a.session_count) / size))
        return (
          <Stack gap="md">
            <RecordHeading crumbs={[{ to: '/agents', label: 'Agents' }]} title={a.name ?? a.id} titleTestId="agent-name" id={a.id}>
              {a.kind === 'local' ? <AgentStatusBadge status={a.status} /> : <PulledBadge title={`Known from a pull of ${a.pulled.source}`} testId="pulled-agent" />}
            </RecordHeading>
            {a.kind === 'local' ? <LocalProfile a={a} /> : <PulledProfile a={a} />}
            <Section
              title="Sessions"
              testId="agent-sessions"
              right={
                <Text size="xs" c="dimmed" data-testid="sessions-range">
                  {sessions.data
                    ? sessions.data.total === 0
                      ? 'no sessions'
                      : `${formatNumber(Math.min(sessions.data.offset + 1, sessions.data.total))}–${formatNumber(
                          Math.min(sessions.data.offset + sessions.data.sessions.length, sessions.data.total),
                        )} of ${formatNumber(sessions.data.total)}`
                    : '…'}
                </Text>
              }
            >
              <QueryState query={sessions} isEmpty={(d) => d.sessions.length === 0} empty="No sessions on this page.">
                {(d) => (
                  <ListTable
                    highlightOnHover
                    testId="sessions-table"
                    style={{ tableLayout: 'fixed' }}
                    columns={SESSION_COLUMNS}
                    rows={d.sessions}
                    rowKey={(s) => s.conversation_id}
                    rowProps={(s) => ({ 'data-session-id': s.conversation_id })}
                    cells={(s) => (
                      <>
                        <Table.Td>
                          <Anchor
                            component={Link}
                            to={a.kind === 'local' ? `/sessions/${s.conversation_id}` : `/logs?session=${encodeURIComponent(s.conversation_id)}`}
                            size="sm"
                            title={a.kind === 'local' ? 'Open the transcript' : 'Its log lines (a pulled session has no transcript here)'}
                          >
                            {formatTimestamp(s.created_at)}
                          </Anchor>
                        </Table.Td>
                        <Table.Td>{formatTimestamp(s.updated_at)}</Table.Td>
                        <CountCell>{s.message_count}</CountCell>
                        <Table.Td>
                          <Text size="sm" truncate="end" dir="auto" title={s.last_message_preview}>
                            {s.last_message_preview || <Text span c="dimmed" size="sm">—</Text>}
                          </Text>
                        </Table.Td>
                      </>
                    )}
                  />
                )}
              </QueryState>
              <Group justify="space-between" mt="sm">
                <Group gap="xs">
                  <Text size="xs" c="dimmed">
                    Per page
                  </Text>
                  <Select
                    data={PAGE_SIZES}
                    value={String(size)}
                    onChange={(v) => v && set({ size: Number(v), page: 1 })}
                    w={80}
                    size="xs"
                    allowDeselect={false}
                    aria-label="Sessions per page"
                  />
                </Group>
                <Pagination total={pages} value={Math.min(page, pages)} onChange={(p) => set({ page: p })} size="sm" siblings={1} data-testid="sessions-pagination" />
              </Group>
            </Section>
          </Stack>
        )
      }}
    </QueryState>
  )
}
