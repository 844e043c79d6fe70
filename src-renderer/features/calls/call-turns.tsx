import { Box, Button, Group, Stack, Table, Text } from '@mantine/core'
import type { CallDetail } from '../../lib/api-types'
import { formatClock, formatLatency } from './call-format'

function Stat({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <Stack gap={0}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text fw={700} size="lg" data-testid={testId} style={{ fontVariantNumeric: 'tabular-nums' }}>
        {value}
      </Text>
    </Stack>
  )
}

/** Response latency per turn (caller stops → agent starts speaking), with the call's median and p90. */
export function CallTurns({ detail, turn, onTurn }: { detail: CallDetail; turn: number | null; onTurn: (turn: number | null) => void }) {
  const { turns, turn_latency: stats } = detail
  const longest = Math.max(1, ...turns.map((t) => t.latency_ms ?? 0))
  if (turns.length === 0) return <Text size="sm" c="dimmed">No turns: the lines have no STT final transcript.</Text>
  return (
    <Stack gap="xs">
      <Group gap="xl">
        <Stat label="Median" value={stats.median_ms === null ? '—' : formatLatency(stats.median_ms)} testId="turn-median" />
        <Stat label="p90" value={stats.p90_ms === null ? '—' : formatLatency(stats.p90_ms)} testId="turn-p90" />
        <Stat label="Turns measured" value={`${stats.count} of ${turns.length}`} testId="turn-count" />
      </Group>
      <Table fz="xs" verticalSpacing={3} data-testid="turns-table" style={{ tableLayout: 'fixed' }}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th w={72}>Turn</Table.Th>
            <Table.Th>Caller said</Table.Th>
            <Table.Th w={92}>Stopped</Table.Th>
            <Table.Th w={150} ta="right">
              Agent spoke after
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {turns.map((t) => {
            const selected = turn === t.number
            return (
              <Table.Tr key={t.number} data-testid="turn-row" data-turn={t.number} style={{ background: selected ? 'var(--mantine-primary-color-light)' : undefined }}>
                <Table.Td>
                  <Button size="compact-xs" variant={selected ? 'filled' : 'light'} aria-pressed={selected} onClick={() => onTurn(selected ? null : t.number)} data-testid="turn-select">
                    Turn {t.number}
                  </Button>
                </Table.Td>
                <Table.Td>
                  <Text size="xs" truncate dir="auto" style={{ unicodeBidi: 'plaintext' }} title={t.caller_text ?? undefined}>
                    {t.caller_text ?? '—'}
                  </Text>
                </Table.Td>
                <Table.Td ff="monospace">{formatClock(t.caller_stopped_at)}</Table.Td>
                <Table.Td ta="right">
                  {t.latency_ms === null ? (
                    <Text size="xs" c="dimmed" data-testid="turn-latency" data-ms="">
                      {t.note ?? 'unknown'}
                    </Text>
                  ) : (
                    <Group gap={6} justify="flex-end" wrap="nowrap">
                      <Box w={50} h={8} aria-hidden style={{ background: 'var(--mantine-color-default-border)', borderRadius: 2 }}>
                        <Box h={8} w={`${(t.latency_ms / longest) * 100}%`} style={{ background: 'var(--mantine-primary-color-filled)', borderRadius: 2 }} />
                      </Box>
                      <Text size="xs" ff="monospace" data-testid="turn-latency" data-ms={t.latency_ms}>
                        {formatLatency(t.latency_ms)}
                      </Text>
                    </Group>
                  )}
                </Table.Td>
              </Table.Tr>
            )
          })}
        </Table.Tbody>
      </Table>
    </Stack>
  )
}
