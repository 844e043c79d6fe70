import { Anchor, Badge, Button, Chip, Group, SegmentedControl, Select, Stack, Table, Text, TextInput, Title, UnstyledButton } from '@mantine/core'
import { useDebouncedValue } from '@mantine/hooks'
import { IconArrowDown, IconArrowUp } from '@tabler/icons-react'
import { keepPreviousData, useInfiniteQuery, useQuery } from '@tanstack/react-query'
import { useMemo } from 'react'
import { Link, useSearchParams } from 'react-router'
import { CALL_SORTS } from '../../../src-shared/call-list-options'
import { QueryState } from '../../components/query-state'
import type { RouterInputs } from '../../lib/api-types'
import { formatMs, formatNumber, formatTimestamp } from '../../lib/format'
import { useTRPC } from '../../lib/trpc'
import { STATUS_COLOR } from './call-facts'
import { useUrlParam } from '../../lib/url-param'

type Sort = (typeof CALL_SORTS)[number]
type CallsQuery = RouterInputs['calls']['list']['query']

const PAGE = 100
const PERIODS = [
  { value: '1', label: '24 h' },
  { value: '7', label: '7 days' },
  { value: '30', label: '30 days' },
  { value: 'all', label: 'All' },
]

/** A header that sorts the list: the same click again turns the order round. */
function SortHeader({ label, sort, current, order, onSort, ta }: { label: string; sort: Sort; current: Sort; order: 'asc' | 'desc'; onSort: (sort: Sort) => void; ta?: 'right' }) {
  const active = sort === current
  return (
    <Table.Th ta={ta} aria-sort={active ? (order === 'asc' ? 'ascending' : 'descending') : 'none'}>
      <UnstyledButton onClick={() => onSort(sort)} fw={700} fz="sm" data-testid={`sort-${sort}`}>
        <Group gap={4} wrap="nowrap" justify={ta === 'right' ? 'flex-end' : undefined}>
          {label}
          {active && (order === 'asc' ? <IconArrowUp size={14} aria-hidden /> : <IconArrowDown size={14} aria-hidden />)}
        </Group>
      </UnstyledButton>
    </Table.Th>
  )
}

/** Counts of the filter per value, as chips that filter in (or out, clicked again). */
function CountChips({ label, counts, selected, onChange, testId }: { label: string; counts: Array<{ value: string | null; count: number }>; selected: string[]; onChange: (values: string[]) => void; testId: string }) {
  return (
    <Group gap={6} data-testid={testId}>
      <Text size="xs" c="dimmed" w={80}>
        {label}
      </Text>
      <Chip.Group multiple value={selected} onChange={onChange}>
        {counts
          .filter((c) => c.value !== null)
          .map((c) => (
            <Chip key={c.value} value={c.value!} size="xs" variant="outline">
              {c.value} · {formatNumber(c.count)}
            </Chip>
          ))}
      </Chip.Group>
    </Group>
  )
}

/** Every call of a filter, newest first by default, with the filter's counts: where an investigation starts. */
export function CallsPage() {
  const trpc = useTRPC()
  const [tenant, setTenant] = useUrlParam('tenant')
  const [statusParam, setStatus] = useUrlParam('status')
  const [reasonParam, setReason] = useUrlParam('end_reason')
  const [direction, setDirection] = useUrlParam('direction')
  const [phone, setPhone] = useUrlParam('phone')
  const [period, setPeriod] = useUrlParam('period')
  const [params, setParams] = useSearchParams()
  const sortParam = params.get('sort') ?? ''
  const orderParam = params.get('order') ?? ''
  const [typedPhone] = useDebouncedValue(phone, 300)
  const sort: Sort = (CALL_SORTS as readonly string[]).includes(sortParam) ? (sortParam as Sort) : 'started_at'
  const order = orderParam === 'asc' ? 'asc' : 'desc'
  const status = statusParam ? statusParam.split(',') : []
  const endReason = reasonParam ? reasonParam.split(',') : []
  const days = period === 'all' ? null : Number(period || 30)

  const query = useMemo<CallsQuery>(
    () => ({
      tenant_id: tenant || undefined,
      status: status.length ? status : undefined,
      end_reason: endReason.length ? endReason : undefined,
      direction: direction === 'inbound' || direction === 'outbound' ? direction : undefined,
      phone: typedPhone.trim().length >= 3 ? typedPhone.trim() : undefined,
      // Whole minutes, so the query (and its cache key) stays the same while the page is open.
      start_date: days === null ? undefined : new Date(Math.floor(Date.now() / 60_000) * 60_000 - days * 86_400_000).toISOString(),
      sort,
      order,
      limit: PAGE,
    }),
    [tenant, statusParam, reasonParam, direction, typedPhone, days, sort, order],
  )
  const tenants = useQuery(trpc.tenants.list.queryOptions({}))
  const agents = useQuery(trpc.agents.list.queryOptions())
  const agentNames = useMemo(() => new Map((agents.data ?? []).map((a) => [a.id, a.name ?? a.id])), [agents.data])
  const calls = useInfiniteQuery({
    ...trpc.calls.list.infiniteQueryOptions({ query }, { getNextPageParam: (page) => page.next_cursor ?? undefined }),
    placeholderData: keepPreviousData,
  })
  const first = calls.data?.pages[0]
  const rows = useMemo(() => calls.data?.pages.flatMap((p) => p.calls) ?? [], [calls.data])
  // Sort and order change together, in one URL update (two would each start from the old URL).
  const onSort = (next: Sort) =>
    setParams(
      (current) => {
        const url = new URLSearchParams(current)
        const flip = next === sort && order === 'desc'
        if (next === 'started_at') url.delete('sort')
        else url.set('sort', next)
        if (flip) url.set('order', 'asc')
        else url.delete('order')
        return url
      },
      { replace: true },
    )

  return (
    <Stack gap="sm">
      <Group justify="space-between" h={36}>
        <Group gap="sm" align="baseline">
          <Title order={3}>Calls</Title>
          <Text size="sm" c="dimmed" data-testid="calls-count">
            {first ? `${formatNumber(first.total)} matching · ${formatNumber(rows.length)} shown` : ''}
          </Text>
        </Group>
      </Group>
      <Group gap="sm" align="flex-end" wrap="wrap">
        <Select
          label="Tenant"
          placeholder="All tenants"
          data={(tenants.data ?? []).map((t) => ({ value: t.id, label: t.name }))}
          value={tenant || null}
          onChange={setTenant}
          clearable
          searchable
          w={220}
        />
        <TextInput label="Phone number" placeholder="+1 415…" value={phone} onChange={(e) => setPhone(e.currentTarget.value)} w={180} data-testid="calls-phone" />
        <Stack gap={2}>
          <Text size="sm" fw={500} id="calls-direction-label">
            Direction
          </Text>
          <SegmentedControl
            aria-labelledby="calls-direction-label"
            value={direction || 'all'}
            onChange={(v) => setDirection(v === 'all' ? null : v)}
            data={[{ value: 'all', label: 'All' }, { value: 'inbound', label: 'Inbound' }, { value: 'outbound', label: 'Outbound' }]}
          />
        </Stack>
        <Stack gap={2}>
          <Text size="sm" fw={500} id="calls-period-label">
            Started in the last
          </Text>
          <SegmentedControl aria-labelledby="calls-period-label" value={period || '30'} onChange={(v) => setPeriod(v === '30' ? null : v)} data={PERIODS} />
        </Stack>
      </Group>
      {first && (
        <Stack gap={6}>
          <CountChips
            label="Status"
            testId="calls-by-status"
            counts={first.by_status.map((c) => ({ value: c.status, count: c.count }))}
            selected={status}
            onChange={(v) => setStatus(v.join(',') || null)}
          />
          <CountChips
            label="End reason"
            testId="calls-by-end-reason"
            counts={first.by_end_reason.map((c) => ({ value: c.end_reason, count: c.count }))}
            selected={endReason}
            onChange={(v) => setReason(v.join(',') || null)}
          />
        </Stack>
      )}
      <QueryState query={calls} isEmpty={() => rows.length === 0} empty={<Text c="dimmed">No call matches this filter.</Text>}>
        {() => (
          <Table.ScrollContainer minWidth={900}>
            <Table highlightOnHover data-testid="calls-table" style={{ opacity: calls.isPlaceholderData ? 0.6 : 1 }}>
              <Table.Thead>
                <Table.Tr>
                  <SortHeader label="Started" sort="started_at" current={sort} order={order} onSort={onSort} />
                  <Table.Th>Direction</Table.Th>
                  <Table.Th>From → to</Table.Th>
                  <Table.Th>Agent</Table.Th>
                  <SortHeader label="Status" sort="status" current={sort} order={order} onSort={onSort} />
                  <Table.Th>End reason</Table.Th>
                  <SortHeader label="Duration" sort="duration_ms" current={sort} order={order} onSort={onSort} ta="right" />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.map((c) => (
                  <Table.Tr key={c.id} data-call-id={c.id}>
                    <Table.Td>
                      <Anchor component={Link} to={`/calls/${encodeURIComponent(c.id)}`} size="sm" title="This call's page: timeline, turns, transcript" data-testid="call-link">
                        {formatTimestamp(c.started_at)}
                      </Anchor>
                    </Table.Td>
                    <Table.Td>{c.direction}</Table.Td>
                    <Table.Td style={{ fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' }}>
                      <bdi>{c.from_number}</bdi> → <bdi>{c.to_number}</bdi>
                    </Table.Td>
                    <Table.Td>
                      {c.agent_id ? (
                        <Anchor component={Link} to={`/agents/${c.agent_id}`} size="sm">
                          {agentNames.get(c.agent_id) ?? c.agent_id.slice(0, 8)}
                        </Anchor>
                      ) : (
                        '—'
                      )}
                    </Table.Td>
                    <Table.Td>
                      <Badge size="sm" variant="light" color={STATUS_COLOR[c.status] ?? 'gray'}>
                        {c.status}
                      </Badge>
                    </Table.Td>
                    <Table.Td>{c.end_reason ?? '—'}</Table.Td>
                    <Table.Td ta="right" style={{ fontVariantNumeric: 'tabular-nums' }}>
                      {c.duration_ms === null ? '—' : formatMs(c.duration_ms)}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </QueryState>
      {calls.hasNextPage && (
        <Group justify="center">
          <Button variant="light" onClick={() => void calls.fetchNextPage()} loading={calls.isFetchingNextPage} data-testid="calls-more">
            Show {PAGE} more
          </Button>
        </Group>
      )}
    </Stack>
  )
}
