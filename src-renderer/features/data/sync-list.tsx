import { Badge, Switch, Table, Text, Tooltip } from '@mantine/core'
import { useMutation, useQuery } from '@tanstack/react-query'
import { type Column, ListTable } from '../../components/list-table'
import { QueryState } from '../../components/query-state'
import type { RouterOutputs } from '../../lib/api-types'
import { formatNumber, formatTimestamp } from '../../lib/format'
import { useTRPC } from '../../lib/trpc'

type Sync = RouterOutputs['pulls']['syncs'][number]

const STATE: Record<Sync['state'], { color: string; label: string }> = {
  pulling: { color: 'blue', label: 'pulling' },
  waiting: { color: 'teal', label: 'in sync' },
  retrying: { color: 'orange', label: 'retrying' },
  stopped: { color: 'gray', label: 'off' },
  failed: { color: 'red', label: 'failed' },
}

const COLUMNS: Column[] = [
  { label: 'Keep in sync', w: 130 },
  { label: 'Source' },
  { label: 'State' },
  { label: 'Last synced' },
  { label: 'Next pull' },
  { label: 'Pulls', ta: 'right' },
  { label: 'Problem' },
]

/** Each source kept in sync (now or before): its state, when it last synced, and the switch that stops it. */
export function SyncList() {
  const trpc = useTRPC()
  const syncs = useQuery({
    ...trpc.pulls.syncs.queryOptions(),
    // While one runs, its state moves by itself: followed every 2 s.
    refetchInterval: (query) => (query.state.data?.some((s) => s.running) ? 2000 : false),
  })
  const stop = useMutation(trpc.pulls.syncStop.mutationOptions({ onSettled: () => void syncs.refetch() }))
  return (
    <QueryState query={syncs} isEmpty={(rows) => rows.length === 0} empty="No source is kept in sync. Switch on “Keep in sync” above to pull a backend again and again.">
      {(rows) => (
        <ListTable
          testId="sync-list"
          columns={COLUMNS}
          rows={rows}
          rowKey={(s) => s.source}
          cells={(s) => (
            <>
              <Table.Td>
                <Tooltip label="Switch it on again from the form above: the token is not stored" disabled={s.running} withArrow>
                  <Switch
                    checked={s.running}
                    disabled={!s.running || stop.isPending}
                    onChange={() => stop.mutate({ source: s.source })}
                    aria-label={`Keep ${s.source} in sync`}
                    data-testid="sync-switch"
                  />
                </Tooltip>
              </Table.Td>
              <Table.Td>
                {s.source}
                {s.tenantId && (
                  <Text size="xs" c="dimmed">
                    tenant {s.tenantId}
                  </Text>
                )}
              </Table.Td>
              <Table.Td>
                <Badge size="sm" variant="light" color={STATE[s.state].color} data-testid="sync-state">
                  {STATE[s.state].label}
                </Badge>
              </Table.Td>
              <Table.Td data-testid="sync-last">{s.lastSuccessAt ? formatTimestamp(s.lastSuccessAt) : 'not yet'}</Table.Td>
              <Table.Td>{s.nextCycleAt ? formatTimestamp(s.nextCycleAt) : '—'}</Table.Td>
              <Table.Td ta="right">
                {formatNumber(s.cycles)}
                {s.failures > 0 && (
                  <Text span size="xs" c="red">
                    {' '}
                    ({s.failures} failed)
                  </Text>
                )}
              </Table.Td>
              <Table.Td>
                <Text size="sm" c={s.lastError ? 'red' : 'dimmed'} lineClamp={2} title={s.lastError ?? undefined} data-testid="sync-error">
                  {s.lastError ?? 'none'}
                </Text>
              </Table.Td>
            </>
          )}
        />
      )}
    </QueryState>
  )
}
