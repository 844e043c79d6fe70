import { Alert, Button, Checkbox, Group, NumberInput, Stack, Switch, TextInput } from '@mantine/core'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { type FormEvent, useEffect, useState } from 'react'
import { isLoopback, type ListenerConfig } from '../../../src-shared/schemas/listener'
import { useTRPC } from '../../lib/trpc'

/**
 * The desktop app's switch for its optional HTTP listener (REST API and this console in a browser):
 * off by default, loopback unless other addresses are explicitly allowed. Applied at once and
 * remembered across restarts; a busy port is shown here, not hidden in a log.
 */
export function ListenerForm() {
  const trpc = useTRPC()
  const queryClient = useQueryClient()
  const status = useQuery(trpc.settings.listener.queryOptions())
  const [draft, setDraft] = useState<ListenerConfig | null>(null)
  useEffect(() => {
    if (status.data && draft === null) setDraft(status.data.config)
  }, [status.data, draft])
  const apply = useMutation(
    trpc.settings.setListener.mutationOptions({
      onSuccess: (next) => {
        queryClient.setQueryData(trpc.settings.listener.queryKey(), next)
        setDraft(next.config)
        void queryClient.invalidateQueries({ queryKey: trpc.settings.info.queryKey() })
      },
    }),
  )
  if (!draft) return null
  const submit = (event: FormEvent) => {
    event.preventDefault()
    apply.mutate(draft)
  }
  const error = apply.error?.message ?? status.data?.error
  return (
    <form onSubmit={submit} data-testid="listener-form">
      <Stack gap="xs" mt="xs">
        <Switch
          label="Serve the REST API and the console over HTTP"
          checked={draft.enabled}
          onChange={(e) => apply.mutate({ ...draft, enabled: e.currentTarget.checked })}
          data-testid="listener-enabled"
        />
        <Group gap="xs" align="flex-end">
          <TextInput label="Address" value={draft.host} onChange={(e) => setDraft({ ...draft, host: e.currentTarget.value })} w={160} />
          <NumberInput label="Port" value={draft.port} min={0} max={65535} onChange={(v) => setDraft({ ...draft, port: Number(v) || 0 })} w={110} hideControls />
          <Button type="submit" variant="default" loading={apply.isPending}>
            Apply
          </Button>
        </Group>
        {!isLoopback(draft.host) && (
          <Checkbox
            label="Allow other machines to reach this port (the API and console are protected by tokens only)"
            checked={draft.allowNonLoopback}
            onChange={(e) => setDraft({ ...draft, allowNonLoopback: e.currentTarget.checked })}
          />
        )}
        {error && (
          <Alert color="red" variant="light" data-testid="listener-error">
            {error}
          </Alert>
        )}
      </Stack>
    </form>
  )
}
