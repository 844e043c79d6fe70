import { Code, Group, Modal, Pagination, SegmentedControl, Stack, Table, Text } from '@mantine/core'
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { type ReactNode, useState } from 'react'
import { QueryState } from '../../components/query-state'
import type { PulledKind } from '../../lib/api-types'
import { formatNumber, formatTimestamp } from '../../lib/format'
import { useTRPC } from '../../lib/trpc'
import { ExpandableTable } from './run-history'

const PAGE_SIZE = 50
const KIND_LABELS: Record<PulledKind, string> = { session: 'Sessions', squad_analytics: 'Squad analytics', sip_trunks: 'SIP trunks', llm_provider: 'LLM providers' }

type Json = Record<string, unknown>
const asObject = (body: unknown): Json => (typeof body === 'object' && body !== null ? (body as Json) : {})

/** What one document says at a glance; the whole of it shows below the table when picked. */
function summary(kind: PulledKind, body: unknown): ReactNode {
  const b = asObject(body)
  if (kind === 'session') {
    const updated = typeof b.updated_at === 'string' ? formatTimestamp(b.updated_at) : '?'
    // The preview may be Arabic or Hebrew: isolated, it keeps its own direction inside this line.
    return (
      <>
        {formatNumber(Number(b.message_count ?? 0))} messages · last {updated} · <bdi>{String(b.last_message_preview ?? '')}</bdi>
      </>
    )
  }
  if (kind === 'sip_trunks') {
    const trunks = Array.isArray(b.trunks) ? (b.trunks as Json[]) : []
    return `${trunks.length} trunks: ${trunks.map((t) => String(t.name ?? t.sip_trunk_id)).join(', ')}`
  }
  if (kind === 'llm_provider') {
    const models = Array.isArray(b.models) ? b.models.length : 0
    const agents = asObject(b.agents).count
    const configured = asObject(b.credentials).configured
    return `${models} models · ${typeof agents === 'number' ? formatNumber(agents) : '?'} agents · key ${configured === true ? 'configured' : configured === false ? 'not configured' : 'unknown'}`
  }
  // Squad analytics have no fixed shape in the spec: show its top-level figures.
  const figures = Object.entries(b).filter(([, v]) => typeof v === 'number')
  return figures.length ? figures.slice(0, 4).map(([k, v]) => `${k}: ${formatNumber(v as number)}`).join(' · ') : `${Object.keys(b).length} fields`
}

/** A session's key is agent/conversation; the conversation is what people look for. */
function keyCell(kind: PulledKind, key: string): ReactNode {
  if (kind !== 'session') return <Code>{key === '*' ? 'every tenant' : key}</Code>
  const [agent, conversation] = key.split('/')
  return (
    <Stack gap={0}>
      <Code>{conversation}</Code>
      <Text size="xs" c="dimmed">
        agent {agent}
      </Text>
    </Stack>
  )
}

/**
 * What a source's pulls kept as the remote's JSON (session listings, squad analytics, SIP trunk
 * lists), a page at a time: these have no table of their own, so no other page shows them.
 */
export function PulledDocuments({ source, onClose }: { source: string | null; onClose: () => void }) {
  const trpc = useTRPC()
  const [kind, setKind] = useState<PulledKind>('session')
  const [page, setPage] = useState(1)
  const [picked, setPicked] = useState<string | null>(null)
  const documents = useQuery({
    ...trpc.pulls.documents.queryOptions({ source: source ?? '', kind, offset: (page - 1) * PAGE_SIZE, limit: PAGE_SIZE }),
    enabled: source !== null,
    placeholderData: keepPreviousData,
  })
  const counts = documents.data?.counts
  const choose = (next: PulledKind) => {
    setKind(next)
    setPage(1)
    setPicked(null)
  }
  return (
    <Modal opened={source !== null} onClose={onClose} size="80rem" title={<Text fw={600}>Fetched from {source}</Text>} data-testid="pulled-documents">
      <Stack>
        <SegmentedControl
          value={kind}
          onChange={(v) => choose(v as PulledKind)}
          data={(Object.keys(KIND_LABELS) as PulledKind[]).map((k) => ({ value: k, label: `${KIND_LABELS[k]}${counts ? ` (${formatNumber(counts[k])})` : ''}` }))}
        />
        <QueryState query={documents} isEmpty={(d) => d.total === 0} empty="Nothing of this kind was fetched from this source.">
          {(d) => (
            <Stack gap="sm">
              <ExpandableTable
                testId="pulled-documents-table"
                fz="sm"
                columns={[{ label: kind === 'session' ? 'Session' : kind === 'squad_analytics' ? 'Squad' : 'Tenant' }, { label: 'Summary' }, { label: 'Fetched' }]}
                rows={d.items}
                rowKey={(item) => item.key}
                rowLabel={(item) => item.key}
                openKey={picked}
                onToggle={setPicked}
                details={(item) => (
                  <Code block data-testid="pulled-document-json">
                    {JSON.stringify(item.body, null, 2)}
                  </Code>
                )}
                cells={(item) => (
                  <>
                    <Table.Td>{keyCell(kind, item.key)}</Table.Td>
                    <Table.Td>
                      <Text size="sm" lineClamp={2}>
                        {summary(kind, item.body)}
                      </Text>
                    </Table.Td>
                    <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatTimestamp(item.fetchedAt)}</Table.Td>
                  </>
                )}
              />
              <Group justify="space-between">
                <Text size="xs" c="dimmed">
                  {formatNumber(d.total)} in all{d.total > PAGE_SIZE ? `, ${PAGE_SIZE} a page` : ''}; pick one to see it whole.
                </Text>
                {d.total > PAGE_SIZE && <Pagination size="sm" total={Math.ceil(d.total / PAGE_SIZE)} value={page} onChange={setPage} />}
              </Group>
            </Stack>
          )}
        </QueryState>
      </Stack>
    </Modal>
  )
}
