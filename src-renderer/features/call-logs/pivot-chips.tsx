import { Badge, CloseButton, Group } from '@mantine/core'
import type { CallLogViewParams } from '../../../src-shared/call-log-view'

const PIVOTS: Array<{ key: 'callId' | 'traceId' | 'sessionId'; label: string }> = [
  { key: 'callId', label: 'call' },
  { key: 'traceId', label: 'trace' },
  { key: 'sessionId', label: 'session' },
]

/** The id filters set by pivots ("Same call", "Same trace", links), each removable. */
export function PivotChips({ view, setView }: { view: CallLogViewParams; setView: (patch: Partial<CallLogViewParams>) => void }) {
  const active = PIVOTS.filter((p) => view[p.key])
  if (active.length === 0) return null
  return (
    <Group gap="xs" data-testid="pivot-chips">
      {active.map((p) => (
        <Badge
          key={p.key}
          variant="outline"
          size="lg"
          tt="none"
          rightSection={<CloseButton size="xs" aria-label={`Remove ${p.label} filter`} onClick={() => setView({ [p.key]: undefined })} />}
        >
          {p.label} = {view[p.key]}
        </Badge>
      ))}
    </Group>
  )
}
