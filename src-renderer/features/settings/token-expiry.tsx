import { Badge, Select, Text, TextInput, Tooltip } from '@mantine/core'
import { formatTimestamp } from '../../lib/format'

/**
 * A token's lifetime on the Settings page: a few common choices, or a date. The values are the
 * words `callscope token create --expires` takes (src-shared/token-lifetime.ts), sent as they are,
 * so the server counts them from its own clock and checks them the same way.
 */
const CHOICES = [
  { value: 'never', label: 'Never' },
  { value: '7d', label: 'In 7 days' },
  { value: '30d', label: 'In 30 days' },
  { value: '90d', label: 'In 90 days' },
  { value: '1y', label: 'In 1 year' },
  { value: 'date', label: 'On a date…' },
]

const DAY_MS = 86_400_000

export interface ExpiryChoice {
  choice: string
  /** YYYY-MM-DD, used when `choice` is 'date'. */
  date: string
}

/** What to send as `expires`; '' while a date is still to be picked. */
export const lifetimeOf = ({ choice, date }: ExpiryChoice): string => (choice === 'date' ? date : choice)

export function ExpiryFields({ value, onChange }: { value: ExpiryChoice; onChange: (value: ExpiryChoice) => void }) {
  // A bare date expires at the start of that day, UTC: tomorrow is the earliest that is still ahead.
  const tomorrow = new Date(Date.now() + DAY_MS).toISOString().slice(0, 10)
  return (
    <>
      <Select
        label="Expires"
        data={CHOICES}
        value={value.choice}
        onChange={(choice) => choice && onChange({ ...value, choice })}
        allowDeselect={false}
        w={140}
        data-testid="token-expires"
      />
      {value.choice === 'date' && (
        <TextInput
          type="date"
          // The exact instant (00:00 UTC that day) shows in the created dialog and the table.
          label="Expiry date (UTC)"
          value={value.date}
          min={tomorrow}
          onChange={(e) => onChange({ ...value, date: e.currentTarget.value })}
          required
          w={170}
          data-testid="token-expiry-date"
        />
      )}
    </>
  )
}

export function ExpiresCell({ expiresAt }: { expiresAt: string | null }) {
  if (!expiresAt) {
    return (
      <Text size="xs" c="dimmed">
        never
      </Text>
    )
  }
  return (
    <Text size="xs" data-testid="token-expires-at">
      {formatTimestamp(expiresAt)}
    </Text>
  )
}

interface TokenState {
  status: 'active' | 'expired' | 'revoked'
  expires_at: string | null
  revoked_at: string | null
}

/** The status the server decided at its clock, so the page and the REST port agree on it. */
export function TokenStatusBadge({ token }: { token: TokenState }) {
  if (token.status === 'active') {
    return (
      <Badge color="green" data-testid="token-status">
        active
      </Badge>
    )
  }
  const when = token.status === 'revoked' ? token.revoked_at : token.expires_at
  return (
    <Tooltip label={`${token.status === 'revoked' ? 'Revoked' : 'Expired'} ${when ? formatTimestamp(when) : ''}`}>
      <Badge color={token.status === 'revoked' ? 'gray' : 'orange'} variant="outline" data-testid="token-status">
        {token.status}
      </Badge>
    </Tooltip>
  )
}
