import { Alert, Button, Code, Group, NumberInput, Select, Stack, Text, TextInput } from '@mantine/core'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { type FormEvent, useEffect, useState } from 'react'
import { type BackupSchedule, parseBackupPeriod } from '../../../src-shared/schemas/backup-schedule'
import { formatBytes, formatTimestamp } from '../../lib/format'
import { useTRPC } from '../../lib/trpc'

const PERIODS = [
  { value: 'off', label: 'Off' },
  { value: '6h', label: 'Every 6 hours' },
  { value: '24h', label: 'Every day' },
  { value: '7d', label: 'Every week' },
]

/**
 * The desktop app's scheduled backups of the open store (as `serve --backup-every`): how often, how
 * many to keep, where (empty: a backups folder beside the store). Applied at once and remembered;
 * the last backup and a failure are shown here.
 */
export function BackupsForm() {
  const trpc = useTRPC()
  const queryClient = useQueryClient()
  const status = useQuery(trpc.settings.backups.queryOptions())
  const [draft, setDraft] = useState<BackupSchedule | null>(null)
  useEffect(() => {
    if (status.data && draft === null) setDraft(status.data.schedule)
  }, [status.data, draft])
  const apply = useMutation(
    trpc.settings.setBackups.mutationOptions({
      onSuccess: (next) => {
        queryClient.setQueryData(trpc.settings.backups.queryKey(), next)
        setDraft(next.schedule)
      },
    }),
  )
  if (!draft || !status.data) return null
  const submit = (event: FormEvent) => {
    event.preventDefault()
    apply.mutate(draft)
  }
  // A period set from the command line or the settings file that is not one of the choices is still shown.
  const periods = draft.every && !PERIODS.some((p) => p.value === draft.every) && parseBackupPeriod(draft.every) ? [...PERIODS, { value: draft.every, label: `Every ${draft.every}` }] : PERIODS
  const { last, dir } = status.data
  const error = apply.error?.message ?? status.data.error
  return (
    <form onSubmit={submit} data-testid="backups-form">
      <Stack gap="xs">
        <Group gap="xs" align="flex-end">
          <Select label="Back up" data={periods} value={draft.every ?? 'off'} onChange={(v) => setDraft({ ...draft, every: !v || v === 'off' ? null : v })} w={170} allowDeselect={false} />
          <NumberInput label="Keep" value={draft.keep} min={1} max={1000} onChange={(v) => setDraft({ ...draft, keep: Math.max(1, Number(v) || 1) })} w={90} />
          <TextInput label="Folder" placeholder={dir} value={draft.dir ?? ''} onChange={(e) => setDraft({ ...draft, dir: e.currentTarget.value.trim() || null })} style={{ flex: 1 }} />
          <Button type="submit" variant="default" loading={apply.isPending}>
            Apply
          </Button>
        </Group>
        <Text size="sm" c="dimmed" data-testid="backups-last">
          {last ? (
            <>
              Last backup: <Code>{last.file}</Code> ({formatBytes(last.sizeBytes)}, {formatTimestamp(last.at)}).
            </>
          ) : (
            'No backup in that folder yet.'
          )}{' '}
          The sealing key of provider keys (the store's <Code>.key</Code> file) is not in backups: keep a copy of it with them.
        </Text>
        {error && (
          <Alert color="red" variant="light" data-testid="backups-error">
            {error}
          </Alert>
        )}
      </Stack>
    </form>
  )
}
