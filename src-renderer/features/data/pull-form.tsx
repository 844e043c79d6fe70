import { Button, Group, NumberInput, PasswordInput, Stack, Text, TextInput } from '@mantine/core'
import { IconCloudDownload } from '@tabler/icons-react'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { pullRequestSchema } from '../../../src-shared/schemas/pull'
import { useTRPC } from '../../lib/trpc'

type Field = 'baseUrl' | 'token' | 'tenantId' | 'since' | 'rate'

/** Starts a pull from a live backend; the pull then runs in the service, followed in the history below. */
export function PullForm() {
  const trpc = useTRPC()
  const queryClient = useQueryClient()
  const [values, setValues] = useState({ baseUrl: '', token: '', tenantId: '', since: '', rate: 5 as number | string })
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({})
  const start = useMutation(
    trpc.pulls.start.mutationOptions({
      onSuccess: () => {
        setValues((v) => ({ ...v, token: '' }))
        void queryClient.invalidateQueries({ queryKey: trpc.pulls.list.queryKey() })
      },
    }),
  )
  const set = (field: Field) => (value: string | number) => {
    setValues((v) => ({ ...v, [field]: value }))
    setErrors((e) => ({ ...e, [field]: undefined }))
  }
  const submit = () => {
    // The same schema the service's tRPC input uses: what passes here is what it accepts.
    const parsed = pullRequestSchema.safeParse({ ...values, rate: typeof values.rate === 'number' ? values.rate : undefined })
    if (!parsed.success) {
      setErrors(Object.fromEntries(parsed.error.issues.map((i) => [String(i.path[0]), i.message])))
      return
    }
    start.mutate(parsed.data)
  }

  return (
    <Stack gap="sm">
      <Text size="sm" c="dimmed">
        Copies a backend&apos;s data through its REST interface: the tenant profile, call logs since the date (7 days by default), every agent&apos;s
        sessions, squad analytics and the SIP trunks. A pull after one that stopped picks up where it stopped. The token is used for this pull only and
        never stored.
      </Text>
      <Group align="flex-start" gap="sm" wrap="wrap">
        <TextInput label="Base URL" placeholder="https://api.example.com" w={280} value={values.baseUrl} onChange={(e) => set('baseUrl')(e.currentTarget.value)} error={errors.baseUrl} data-testid="pull-base-url" />
        <PasswordInput label="Token" w={220} value={values.token} onChange={(e) => set('token')(e.currentTarget.value)} error={errors.token} data-testid="pull-token" />
        <TextInput label="Tenant id" placeholder="every tenant" w={300} value={values.tenantId} onChange={(e) => set('tenantId')(e.currentTarget.value)} error={errors.tenantId} data-testid="pull-tenant" />
        <TextInput label="Since" placeholder="7 days ago" w={150} value={values.since} onChange={(e) => set('since')(e.currentTarget.value)} error={errors.since} data-testid="pull-since" />
        <NumberInput label="Requests/s" w={100} min={0.1} max={1000} value={values.rate} onChange={set('rate')} error={errors.rate} />
      </Group>
      <Group>
        <Button leftSection={<IconCloudDownload size={16} />} loading={start.isPending} onClick={submit} data-testid="pull-start">
          Pull
        </Button>
        {start.isError && (
          <Text size="sm" c="red" data-testid="pull-error">
            {start.error.message}
          </Text>
        )}
      </Group>
    </Stack>
  )
}
