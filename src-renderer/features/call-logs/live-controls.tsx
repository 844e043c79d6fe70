import { Button, Group, Text } from '@mantine/core'
import { IconArrowUp, IconPlayerPauseFilled, IconPlayerPlayFilled } from '@tabler/icons-react'
import { formatNumber } from '../../lib/format'
import type { LiveTail } from './use-live-tail'

/** The explorer's Live switch, and what the tail is doing, in words (never by colour alone). */
export function LiveSwitch({ live, tail, onChange }: { live: boolean; tail: LiveTail; onChange: (live: boolean) => void }) {
  const state = !live ? null : tail.status === 'error' || tail.status === 'connecting' ? 'Reconnecting…' : tail.paused ? 'Paused while you read' : 'Following new lines'
  return (
    <Group gap="xs">
      {state && (
        <Text size="xs" c="dimmed" role="status" data-testid="live-state">
          {state}
        </Text>
      )}
      <Button
        size="xs"
        variant={live ? 'filled' : 'default'}
        aria-pressed={live}
        leftSection={live ? <IconPlayerPauseFilled size={12} /> : <IconPlayerPlayFilled size={12} />}
        onClick={() => onChange(!live)}
        data-testid="live-switch"
      >
        {live ? 'Stop live' : 'Live'}
      </Button>
    </Group>
  )
}

/** While paused: how many lines came meanwhile, and the way back to the newest. */
export function NewLinesBar({ tail, onResume }: { tail: LiveTail; onResume: () => void }) {
  if (!tail.paused) return null
  const n = tail.pendingCount
  return (
    <Button size="xs" variant="light" leftSection={<IconArrowUp size={14} />} onClick={onResume} data-testid="new-lines" style={{ alignSelf: 'center' }}>
      {n === 0 ? 'Back to the newest lines' : `${formatNumber(n)} new ${n === 1 ? 'line' : 'lines'}: show`}
    </Button>
  )
}
