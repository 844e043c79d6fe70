import { Button, Group, Stack, Table, Text } from '@mantine/core'
import { useMutation, useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import type { Column } from '../../components/list-table'
import { QueryState } from '../../components/query-state'
import type { PullReport } from '../../lib/api-types'
import { formatNumber, formatTimestamp } from '../../lib/format'
import { useTRPC } from '../../lib/trpc'
import { PulledDocuments } from './pulled-documents'
import { ExpandableTable, RunStatusBadge, runDuration } from './run-history'

/** What a pull fetched, one line per kind, as the CLI prints it. */
function PullDetails({ report, onBrowse }: { report: PullReport; onBrowse: () => void }) {
  const c = report.counts
  return (
    <Stack gap={4} data-testid="pull-details">
      {report.failure && (
        <Text size="sm" c="red" data-testid="pull-failure">
          Stopped: {report.failure}. What was fetched is kept; pull again to resume.
        </Text>
      )}
      <Text size="sm">
        Call logs since {formatTimestamp(report.since)}: {formatNumber(c.callLogs.fetched)} fetched in {formatNumber(c.callLogs.windows)} windows,{' '}
        {formatNumber(c.callLogs.inserted)} new, {formatNumber(c.callLogs.duplicates)} already stored, {formatNumber(c.callLogs.invalid)} refused
        {c.callLogs.otherTenants > 0 && `, ${formatNumber(c.callLogs.otherTenants)} of other tenants skipped`}
      </Text>
      <Text size="sm">
        Tenants: {c.tenants.fetched} · Sessions: {formatNumber(c.sessions.fetched)} of {c.sessions.agents} agents · Squad analytics: {c.squadAnalytics.fetched} ·
        SIP trunks: {c.sipTrunks.fetched ? 'fetched' : 'not fetched'}
        {c.skipped > 0 && ` · ${c.skipped} steps already done by the interrupted pull`}
      </Text>
      <Group gap="sm">
        <Text size="xs" c="dimmed">
          {formatNumber(report.requests)} requests, {report.retries} retries
        </Text>
        <Button size="compact-xs" variant="light" onClick={onBrowse} data-testid="pull-browse">
          Browse sessions, analytics and trunks
        </Button>
      </Group>
      {report.errors.length > 0 && (
        <Table striped withTableBorder fz="xs" data-testid="pull-errors">
          <Table.Tbody>
            {report.errors.map((e, i) => (
              <Table.Tr key={i}>
                <Table.Td w={260}>{e.step}</Table.Td>
                <Table.Td>{e.reason}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Stack>
  )
}

const PULL_COLUMNS: Column[] = [
  { label: 'Started' },
  { label: 'Source' },
  { label: 'Status' },
  { label: 'Call logs', ta: 'right' },
  { label: 'New', ta: 'right' },
  { label: 'Sessions', ta: 'right' },
  { label: 'Problems', ta: 'right' },
  { label: 'Time', ta: 'right' },
]

/** Every pull, newest first; refreshed while one runs. The newest opens by itself. */
export function PullHistory() {
  const trpc = useTRPC()
  const pulls = useQuery({
    ...trpc.pulls.list.queryOptions({ limit: 20 }),
    refetchInterval: (query) => (query.state.data?.some((p) => p.status === 'running') ? 500 : false),
  })
  const cancel = useMutation(trpc.pulls.cancel.mutationOptions({ onSettled: () => void pulls.refetch() }))
  const [open, setOpen] = useState<string | null>(null)
  const [browsing, setBrowsing] = useState<string | null>(null)
  const shown = open ?? pulls.data?.[0]?.id ?? null
  return (
    <>
      <PulledDocuments source={browsing} onClose={() => setBrowsing(null)} />
      <QueryState query={pulls} isEmpty={(rows) => rows.length === 0} empty="No pulls yet.">
        {(rows) => (
          <ExpandableTable
            testId="pull-history"
            columns={PULL_COLUMNS}
            rows={rows}
            rowKey={(r) => r.id}
            rowLabel={(r) => `${r.source}, ${formatTimestamp(r.startedAt)}`}
            openKey={shown}
            // Closing leaves '' rather than null, so the newest pull does not open again by itself.
            onToggle={(key) => setOpen(key ?? '')}
            details={(r) => <PullDetails report={r} onBrowse={() => setBrowsing(r.source)} />}
            cells={(r) => (
              <>
                <Table.Td>{formatTimestamp(r.startedAt)}</Table.Td>
                <Table.Td>
                  {r.source}
                  {r.tenantId && <Text size="xs" c="dimmed">tenant {r.tenantId}</Text>}
                </Table.Td>
                <Table.Td>
                  <RunStatusBadge status={r.status} testId="pull-status" />
                  {r.status === 'running' && (
                    <Button size="compact-xs" variant="subtle" ml={4} onClick={(e) => (e.stopPropagation(), cancel.mutate({ id: r.id }))}>
                      Cancel
                    </Button>
                  )}
                </Table.Td>
                <Table.Td ta="right">{formatNumber(r.counts.callLogs.fetched)}</Table.Td>
                <Table.Td ta="right">{formatNumber(r.counts.callLogs.inserted)}</Table.Td>
                <Table.Td ta="right">{formatNumber(r.counts.sessions.fetched)}</Table.Td>
                <Table.Td ta="right" c={r.errors.length > 0 ? 'red' : undefined}>
                  {r.errors.length}
                </Table.Td>
                <Table.Td ta="right">{runDuration(r.durationMs)}</Table.Td>
              </>
            )}
          />
        )}
      </QueryState>
    </>
  )
}
