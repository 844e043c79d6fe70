import { Button, Group, Select, Stack, Switch, Text, TextInput } from '@mantine/core'
import { IconSend } from '@tabler/icons-react'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { type FormEvent, useState } from 'react'
import { WEBHOOK_EVENT_KINDS, WEBHOOK_EVENT_SUMMARIES, type WebhookEventKind } from '../../../src-shared/schemas/webhook-events'
import { webhookUrlSchema } from '../../../src-shared/schemas/webhooks'
import type { WebhookDelivery } from '../../lib/api-types'
import { useTRPC } from '../../lib/trpc'

interface TestSendFormProps {
  tenantId: string
  webhookUrl: string | null
  onSent: (delivery: WebhookDelivery) => void
}

/** Kind, target and (optionally) the call to build it from; the delivery opens in the log below. */
export function TestSendForm({ tenantId, webhookUrl, onSent }: TestSendFormProps) {
  const trpc = useTRPC()
  const queryClient = useQueryClient()
  const [event, setEvent] = useState<WebhookEventKind>('call.ended')
  const [url, setUrl] = useState(webhookUrl ?? '')
  const [callId, setCallId] = useState('')
  const settings = useQuery(trpc.webhooks.settings.queryOptions())
  const setSettings = useMutation(
    trpc.webhooks.setSettings.mutationOptions({ onSuccess: (next) => queryClient.setQueryData(trpc.webhooks.settings.queryKey(), next) }),
  )
  const send = useMutation(
    trpc.webhooks.testSend.mutationOptions({
      onSuccess: (delivery) => {
        void queryClient.invalidateQueries({ queryKey: trpc.webhooks.deliveries.queryKey({ tenantId }) })
        onSent(delivery)
      },
    }),
  )
  const urlCheck = url.trim() ? webhookUrlSchema.safeParse(url) : null
  const urlError = urlCheck && !urlCheck.success ? urlCheck.error.issues[0]?.message : undefined
  const submit = (e: FormEvent) => {
    e.preventDefault()
    if (urlError) return
    send.mutate({ tenantId, event, url: url.trim() || undefined, call_id: callId.trim() || undefined })
  }
  return (
    <form onSubmit={submit} data-testid="test-send-form">
      <Stack gap="xs">
        <Group gap="xs" align="flex-end">
          <Select
            label="Event"
            data={WEBHOOK_EVENT_KINDS.map((k) => ({ value: k, label: k }))}
            value={event}
            onChange={(v) => v && setEvent(v as WebhookEventKind)}
            allowDeselect={false}
            w={180}
            data-testid="test-send-event"
          />
          <TextInput
            label="URL"
            placeholder="https://hooks.example.com/voice/events"
            value={url}
            onChange={(e) => setUrl(e.currentTarget.value)}
            error={urlError}
            style={{ flex: 1, minWidth: 240 }}
            data-testid="test-send-url"
          />
          <TextInput label="Call id (optional)" placeholder="newest that fits" value={callId} onChange={(e) => setCallId(e.currentTarget.value)} w={200} data-testid="test-send-call" />
          <Button type="submit" leftSection={<IconSend size={14} />} loading={send.isPending} disabled={!url.trim() || urlError !== undefined} data-testid="test-send-submit">
            Send
          </Button>
        </Group>
        <Text size="xs" c="dimmed">
          {WEBHOOK_EVENT_SUMMARIES[event]} Built from the tenant&apos;s stored calls, signed, and retried on failure (at once, 5 s, 30 s, 2 min, 10 min, 30 min).
        </Text>
        <Switch
          size="xs"
          label="Allow loopback and private targets (a receiver on this machine or your network)"
          checked={settings.data?.allow_private_targets ?? false}
          disabled={!settings.data || setSettings.isPending}
          onChange={(e) => setSettings.mutate({ allow_private_targets: e.currentTarget.checked })}
          data-testid="allow-private"
        />
        {send.error && (
          <Text c="red" size="xs" data-testid="test-send-error">
            {send.error.message}
          </Text>
        )}
      </Stack>
    </form>
  )
}
