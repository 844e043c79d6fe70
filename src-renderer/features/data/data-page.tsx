import { Button, FileInput, Group, Progress, Stack, Table, Text, Title } from '@mantine/core'
import { IconFileImport } from '@tabler/icons-react'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import type { Column } from '../../components/list-table'
import { QueryState } from '../../components/query-state'
import { NeedsRole, Section } from '../../components/section'
import type { ImportReport } from '../../lib/api-types'
import { formatBytes, formatNumber, formatTimestamp } from '../../lib/format'
import { useTRPC } from '../../lib/trpc'
import { ImportErrors } from './import-errors'
import { ExpandableTable, RunStatusBadge, runDuration } from './run-history'
import { PullForm } from './pull-form'
import { PullHistory } from './pull-history'
import { SyncList } from './sync-list'
import { uploadCallLogs } from './upload-call-logs'

function Counts({ report }: { report: ImportReport }) {
  return (
    <Text size="sm" data-testid="import-counts">
      {formatNumber(report.recordsRead)} records read: {formatNumber(report.inserted)} new, {formatNumber(report.duplicates)} already stored,{' '}
      {formatNumber(report.invalid)} refused
    </Text>
  )
}

function ImportForm() {
  const trpc = useTRPC()
  const queryClient = useQueryClient()
  const [file, setFile] = useState<File | null>(null)
  const upload = useMutation({
    mutationFn: uploadCallLogs,
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: trpc.imports.list.queryKey() })
      void queryClient.invalidateQueries({ queryKey: trpc.callLogs.pathKey() })
    },
  })
  // While a file uploads, the import's own record (bytes read, counts) is the progress.
  const history = useQuery({ ...trpc.imports.list.queryOptions({ limit: 1 }), refetchInterval: upload.isPending ? 400 : false, enabled: upload.isPending })
  const running = upload.isPending ? history.data?.find((r) => r.status === 'running' && r.source === file?.name) : undefined
  const desktop = Boolean(window.callscope?.desktop)

  return (
    <Stack gap="sm">
      <Text size="sm" c="dimmed">
        NDJSON, a JSON array (what <code>GET /logs/calls</code> returns) or CSV (what the console exports). Each record is checked; refused records are
        listed with their line, the others are kept, and records already stored (same id) are skipped.
      </Text>
      {desktop ? (
        <Text size="sm">In the desktop app, import with <code>callscope import logs FILE --db</code> and the database path shown in Settings.</Text>
      ) : (
        <Group align="flex-end">
          <FileInput
            label="File"
            placeholder="Pick a .ndjson, .json or .csv file"
            accept=".ndjson,.jsonl,.json,.csv,application/json,text/csv"
            value={file}
            onChange={setFile}
            w={360}
            clearable
            data-testid="import-file"
          />
          <Button leftSection={<IconFileImport size={16} />} disabled={!file} loading={upload.isPending} onClick={() => file && upload.mutate(file)} data-testid="import-start">
            Import
          </Button>
        </Group>
      )}
      {upload.isPending && (
        <Stack gap={4} data-testid="import-progress">
          <Progress value={running?.bytesTotal ? (100 * running.bytesRead) / running.bytesTotal : 0} animated />
          <Text size="xs" c="dimmed">
            {running ? `${formatBytes(running.bytesRead)} of ${running.bytesTotal ? formatBytes(running.bytesTotal) : '?'} · ${formatNumber(running.recordsRead)} records` : 'Sending…'}
          </Text>
        </Stack>
      )}
      {upload.isError && (
        <Text size="sm" c="red">
          {upload.error.message}
        </Text>
      )}
      {upload.data && (
        <Stack gap="xs" data-testid="import-result">
          <Group gap="xs">
            <RunStatusBadge status={upload.data.status} />
            <Counts report={upload.data} />
          </Group>
          <ImportErrors report={upload.data} />
        </Stack>
      )}
    </Stack>
  )
}

const IMPORT_COLUMNS: Column[] = [
  { label: 'Started' },
  { label: 'File' },
  { label: 'Format' },
  { label: 'Status' },
  { label: 'Read', ta: 'right' },
  { label: 'New', ta: 'right' },
  { label: 'Known', ta: 'right' },
  { label: 'Refused', ta: 'right' },
  { label: 'Time', ta: 'right' },
]

function ImportHistory() {
  const trpc = useTRPC()
  const imports = useQuery(trpc.imports.list.queryOptions({ limit: 50 }))
  const [open, setOpen] = useState<string | null>(null)
  return (
    <QueryState query={imports} isEmpty={(rows) => rows.length === 0} empty="No imports yet.">
      {(rows) => (
        <ExpandableTable
          testId="import-history"
          columns={IMPORT_COLUMNS}
          rows={rows}
          rowKey={(r) => r.id}
          rowLabel={(r) => `${r.source}, ${formatTimestamp(r.startedAt)}`}
          openKey={open}
          onToggle={setOpen}
          details={(r) => <ImportErrors report={r} />}
          cells={(r) => (
            <>
              <Table.Td>{formatTimestamp(r.startedAt)}</Table.Td>
              <Table.Td>{r.source}</Table.Td>
              <Table.Td>{r.format}</Table.Td>
              <Table.Td>
                <RunStatusBadge status={r.status} />
              </Table.Td>
              <Table.Td ta="right">{formatNumber(r.recordsRead)}</Table.Td>
              <Table.Td ta="right">{formatNumber(r.inserted)}</Table.Td>
              <Table.Td ta="right">{formatNumber(r.duplicates)}</Table.Td>
              <Table.Td ta="right" c={r.invalid > 0 ? 'red' : undefined}>
                {formatNumber(r.invalid)}
              </Table.Td>
              <Table.Td ta="right">{runDuration(r.durationMs)}</Table.Td>
            </>
          )}
        />
      )}
    </QueryState>
  )
}

/** Bringing data in: upload a call log file or pull from a live backend, watch it land, read what was refused and why. */
export function DataPage() {
  const trpc = useTRPC()
  const whoami = useQuery(trpc.tokens.whoami.queryOptions())
  return (
    <Stack gap="md" data-testid="data-page">
      <Title order={3}>Data</Title>
      {whoami.data && whoami.data.role !== 'admin' ? (
        <NeedsRole what="Importing and pulling data" />
      ) : (
        <>
          <Section title="Import call logs">
            <ImportForm />
          </Section>
          <Section title="Imports">
            <ImportHistory />
          </Section>
          <Section title="Pull from a live backend">
            <PullForm />
          </Section>
          <Section title="Kept in sync" testId="syncs">
            <SyncList />
          </Section>
          <Section title="Pulls" testId="pulls">
            <PullHistory />
          </Section>
        </>
      )}
    </Stack>
  )
}
