import { Badge } from '@mantine/core'
import type { WebhookAttempt, WebhookDelivery } from '../../lib/api-types'

const DELIVERY_COLOR: Record<WebhookDelivery['status'], string> = {
  pending: 'blue',
  retrying: 'orange',
  succeeded: 'green',
  failed: 'red',
  interrupted: 'gray',
}

export function DeliveryStatusBadge({ status }: { status: WebhookDelivery['status'] }) {
  return (
    <Badge variant="light" color={DELIVERY_COLOR[status]} data-testid="delivery-status">
      {status}
    </Badge>
  )
}

export function InboxStatusBadge({ status }: { status: 'accepted' | 'rejected' }) {
  return (
    <Badge variant="light" color={status === 'accepted' ? 'green' : 'red'} data-testid="inbox-status">
      {status}
    </Badge>
  )
}

/** What an attempt (or a delivery's last one) came back with: the HTTP status, else the error's kind. */
export function outcomeText(status: number | null, errorKind: WebhookAttempt['error_kind']): string {
  if (status !== null) return `HTTP ${status}`
  return errorKind ?? '…'
}
