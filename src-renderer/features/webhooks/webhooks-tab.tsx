import { SimpleGrid, Stack, Text } from '@mantine/core'
import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { Section } from '../../components/section'
import { useTRPC } from '../../lib/trpc'
import { DeliveryLog } from './delivery-log'
import { TestSendForm } from './test-send-form'
import { WebhookInbox } from './webhook-inbox'
import { WebhookSecret } from './webhook-secret'

/**
 * A tenant's webhooks (issue 18): the signing secret, a test-send, the delivery log with every
 * attempt and replay, and the inbox of what a real backend sent here. Sending and the secret are
 * for admin tokens; the lists are for whoever may see the tenant.
 */
export function WebhooksTab({ tenant }: { tenant: { id: string; webhook_url?: string | null; webhook_timeout_seconds: number } }) {
  const trpc = useTRPC()
  const whoami = useQuery(trpc.tokens.whoami.queryOptions())
  const isAdmin = whoami.data?.role === 'admin'
  const [openDelivery, setOpenDelivery] = useState<string | null>(null)
  return (
    <Stack gap="md" data-testid="webhooks-tab">
      <SimpleGrid cols={{ base: 1, lg: isAdmin ? 2 : 1 }}>
        <Section title="Signing secret" testId="webhook-secret-section">
          <WebhookSecret tenantId={tenant.id} isAdmin={isAdmin} />
        </Section>
        {isAdmin && (
          <Section title="Send a test event" testId="test-send-section" right={<Text size="xs" c="dimmed">timeout {tenant.webhook_timeout_seconds} s</Text>}>
            <TestSendForm tenantId={tenant.id} webhookUrl={tenant.webhook_url ?? null} onSent={(d) => setOpenDelivery(d.id)} />
          </Section>
        )}
      </SimpleGrid>
      <Section title="Deliveries" testId="deliveries-section">
        <DeliveryLog tenantId={tenant.id} isAdmin={isAdmin} openId={openDelivery} onOpen={setOpenDelivery} />
      </Section>
      <Section title="Inbox" testId="inbox-section">
        <WebhookInbox tenantId={tenant.id} />
      </Section>
    </Stack>
  )
}
