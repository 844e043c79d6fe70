import { Button, Group, NumberInput, PasswordInput, Select, Stack, Switch, Text, TextInput } from '@mantine/core'
import { IconCloudDownload, IconRefresh } from '@tabler/icons-react'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { SYNC_INTERVALS_S, syncRequestSchema } from '../../../src-shared/schemas/pull'
import { useTRPC } from '../../lib/trpc'

type Field = 'baseUrl' | 'token' | 'tenantId' | 'since' | 'rate'

/** Starts a pull from a live backend; the pull then runs in the service, followed in the history below. */
export function PullForm() {
  const trpc = useTRPC()
  const queryClient = useQueryClient()
  const [values, setValues] = useState({ baseUrl: '', token: '', tenantId: '', since: '', rate: 5 as number | string })
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({})
  const [keepInSync, setKeepInSync] = useState(false)
  const [interval, setSyncInterval] = useState('30')
  const onSuccess = () => {
    setValues((v) => ({ ...v, token: '' }))
    void queryClient.invalidateQueries({ queryKey: trpc.pulls.list.queryKey() })
    void queryClient.invalidateQueries({ queryKey: trpc.pulls.syncs.queryKey() })
  }
  const start = useMutation(trpc.pulls.start.mutationOptions({ onSuccess }))
  const sync = useMutation(trpc.pulls.syncStart.mutationOptions({ onSuccess }))
  const pending = start.isPending || sync.isPending
  const failed = start.error ?? sync.error
  const set = (field: Field) => (value: string | number) => {
    setValues((v) => ({ ...v, [field]: value }))
    setErrors((e) => ({ ...e, [field]: undefined }))
  }
  const submit = () => {
    // The same schema the service's tRPC input uses: what passes here is what it accepts.
    const parsed = syncRequestSchema.safeParse({ ...values, rate: typeof values.rate === 'number' ? values.rate : undefined, intervalSeconds: Number(interval) })
    if (!parsed.success) {
      setErrors(Object.fromEntries(parsed.error.issues.map((i) => [String(i.path[0]), i.message])))
      return
    }
    const { intervalSeconds, ...pull } = parsed.data
    if (keepInSync) sync.mutate({ ...pull, intervalSeconds })
    else start.mutate(pull)
  }

  return (
    <Stack gap="sm">
      <Text size="sm" c="dimmed">
        Copies a backend&apos;s data through its REST interface: the tenant profile, call logs since the date (7 days by default), every agent&apos;s
        sessions, squad analytics, the SIP trunks and the LLM providers&apos; details. A pull after one that stopped picks up where it stopped. Kept in
        sync, it pulls again every interval, only what is new, until switched off. The token is held in memory for that time only and never stored.
      </Text>
      <Group align="flex-start" gap="sm" wrap="wrap">
        <TextInput label="Base URL" placeholder="https://api.example.com" w={280} value={values.baseUrl} onChange={(e) => set('baseUrl')(e.currentTarget.value)} error={errors.baseUrl} data-testid="pull-base-url" />
        <PasswordInput label="Token" w={220} value={values.token} onChange={(e) => set('token')(e.currentTarget.value)} error={errors.token} data-testid="pull-token" />
        <TextInput label="Tenant id" placeholder="every tenant" w={300} value={values.tenantId} onChange={(e) => set('tenantId')(e.currentTarget.value)} error={errors.tenantId} data-testid="pull-tenant" />
        <TextInput label="Since" placeholder="7 days ago" w={150} value={values.since} onChange={(e) => set('since')(e.currentTarget.value)} error={errors.since} data-testid="pull-since" />
        <NumberInput label="Requests/s" w={100} min={0.1} max={1000} value={values.rate} onChange={set('rate')} error={errors.rate} />
      </Group>
      <Group>
        <Switch label="Keep in sync" checked={keepInSync} onChange={(e) => setKeepInSync(e.currentTarget.checked)} data-testid="pull-keep-in-sync" />
        <Select
          aria-label="Pull again every"
          w={130}
          disabled={!keepInSync}
          value={interval}
          onChange={(v) => v && setSyncInterval(v)}
          allowDeselect={false}
          data={SYNC_INTERVALS_S.map((s) => ({ value: String(s), label: s < 60 ? `every ${s} s` : `every ${s / 60} min` }))}
          data-testid="pull-interval"
        />
        <Button leftSection={keepInSync ? <IconRefresh size={16} /> : <IconCloudDownload size={16} />} loading={pending} onClick={submit} data-testid="pull-start">
          {keepInSync ? 'Start syncing' : 'Pull'}
        </Button>
        {failed && (
          <Text size="sm" c="red" data-testid="pull-error">
            {failed.message}
          </Text>
        )}
      </Group>
    </Stack>
  )
}
