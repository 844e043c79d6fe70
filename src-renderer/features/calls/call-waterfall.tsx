import { Badge, Box, Button, Group, Stack, Table, Text, UnstyledButton } from '@mantine/core'
import { IconAlertTriangle, IconChevronDown, IconChevronRight, IconHourglassEmpty } from '@tabler/icons-react'
import { Fragment } from 'react'
import { JsonView } from '../../components/json-view'
import type { CallDetail, CallLine, CallSpan, CallTurn } from '../../lib/api-types'
import { formatLogTime } from '../call-logs/format'
import { LogLevelBadge } from '../call-logs/log-level-badge'
import { formatLatency, formatOffset } from './call-format'
import { spanKind } from './span-kinds'

interface WaterfallProps {
  detail: CallDetail
  turn: number | null
  span: number | null
  onSelect: (next: { turn?: number | null; span?: number | null }) => void
}

const NO_SHRINK = { flexShrink: 0, overflow: 'visible' } as const

/** The span's bar on the call's time axis: drawn only, its numbers are in the row's text. */
function Bar({ span, total }: { span: CallSpan; total: number }) {
  const kind = spanKind(span.kind)
  const left = (span.start_ms / total) * 100
  const width = ((span.end_ms - span.start_ms) / total) * 100
  return (
    <Box pos="relative" h={14} aria-hidden>
      <Box
        pos="absolute"
        top={0}
        h={14}
        style={{
          left: `${left}%`,
          width: `max(${width}%, 3px)`,
          borderRadius: 2,
          // Neutral kinds in the dimmed text colour: gray's fill all but vanishes on the dark scheme.
          background: kind.color === 'gray' ? 'var(--mantine-color-dimmed)' : `var(--mantine-color-${kind.color}-filled)`,
          outline: span.error ? '2px solid var(--mantine-color-red-filled)' : undefined,
          outlineOffset: 1,
          opacity: span.unfinished ? 0.55 : 1,
        }}
      />
    </Box>
  )
}

/** Error, warning or unfinished: said in words with an icon, not by colour alone. */
function SpanFlags({ span }: { span: CallSpan }) {
  return (
    <>
      {span.error && (
        <Badge size="xs" color="red" variant="light" style={NO_SHRINK} leftSection={<IconAlertTriangle size={12} aria-hidden />} data-testid="span-error">
          {span.level}
        </Badge>
      )}
      {!span.error && span.level === 'warning' && (
        <Badge size="xs" color="yellow" variant="light" style={NO_SHRINK} leftSection={<IconAlertTriangle size={12} aria-hidden />}>
          warning
        </Badge>
      )}
      {span.unfinished && (
        <Badge size="xs" color="gray" variant="light" style={NO_SHRINK} leftSection={<IconHourglassEmpty size={12} aria-hidden />}>
          no closing line
        </Badge>
      )}
    </>
  )
}

/** A span's lines: time, level, message and details, every text in its own direction. */
function SpanLines({ lines }: { lines: CallLine[] }) {
  return (
    <Stack gap={6} py={4} data-testid="span-lines">
      {lines.map((l) => (
        <Box key={l.id} data-testid="span-line" data-line-id={l.id}>
          <Group gap={8} wrap="nowrap" align="baseline">
            <Text size="xs" ff="monospace" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
              {formatLogTime(l.timestamp).slice(11)}
            </Text>
            <LogLevelBadge level={l.log_level} />
            <Text size="xs" dir="auto" style={{ unicodeBidi: 'plaintext', wordBreak: 'break-word' }}>
              {l.message}
            </Text>
          </Group>
          {Object.keys(l.details).length > 0 && (
            <Box mt={4} ml={4}>
              <JsonView value={l.details} testId="span-line-details" />
            </Box>
          )}
        </Box>
      ))}
    </Stack>
  )
}

function TurnRow({ turn, selected, onTurn }: { turn: CallTurn; selected: boolean; onTurn: (turn: number | null) => void }) {
  return (
    <Table.Tr data-testid="waterfall-turn" data-turn={turn.number} style={{ background: selected ? 'var(--mantine-primary-color-light)' : 'var(--mantine-color-default-hover)' }}>
      <Table.Td colSpan={5} py={4}>
        <Group gap={8} wrap="nowrap">
          <Button size="compact-xs" variant={selected ? 'filled' : 'light'} aria-pressed={selected} onClick={() => onTurn(selected ? null : turn.number)} style={NO_SHRINK}>
            Turn {turn.number}
          </Button>
          <Text size="xs" truncate dir="auto" style={{ unicodeBidi: 'plaintext' }} title={turn.caller_text ?? undefined}>
            {turn.caller_text}
          </Text>
          <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap', marginInlineStart: 'auto' }}>
            {turn.latency_ms === null ? (turn.note ?? 'latency unknown') : `agent spoke after ${formatLatency(turn.latency_ms)}`}
          </Text>
        </Group>
      </Table.Td>
    </Table.Tr>
  )
}

/**
 * The call's lines as a waterfall: one row per span, in time order, a row per turn where it starts.
 * A span's name opens its lines (and selects its turn); a turn's button highlights its spans.
 */
export function CallWaterfall({ detail, turn, span, onSelect }: WaterfallProps) {
  const onTurn = (next: number | null) => onSelect({ turn: next })
  const total = Math.max(1, ...detail.spans.map((s) => s.end_ms))
  const linesById = new Map(detail.lines.map((l) => [l.id, l]))
  const turnsByNumber = new Map(detail.turns.map((t) => [t.number, t]))
  let shownTurn: number | null = null
  return (
    <Table.ScrollContainer minWidth={700}>
      <Table verticalSpacing={3} fz="xs" data-testid="call-waterfall" style={{ tableLayout: 'fixed' }}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th w={84}>At</Table.Th>
            <Table.Th w={108}>Kind</Table.Th>
            <Table.Th>What</Table.Th>
            <Table.Th w="30%">
              <Group justify="space-between" wrap="nowrap">
                <span>0 s</span>
                <span>{formatOffset(total).slice(1)}</span>
              </Group>
            </Table.Th>
            <Table.Th w={84} ta="right">
              Latency
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {detail.spans.map((s) => {
            const startsTurn = s.turn !== null && s.turn !== shownTurn ? turnsByNumber.get(s.turn) : undefined
            if (s.turn !== null) shownTurn = s.turn
            const open = span === s.index
            const inTurn = turn !== null && s.turn === turn
            const kind = spanKind(s.kind)
            const Icon = kind.icon
            return (
              <Fragment key={s.index}>
                {startsTurn && <TurnRow turn={startsTurn} selected={turn === startsTurn.number} onTurn={onTurn} />}
                <Table.Tr
                  data-testid="span-row"
                  data-span={s.index}
                  data-kind={s.kind}
                  data-turn={s.turn ?? ''}
                  data-in-turn={inTurn || undefined}
                  style={{ background: open || inTurn ? 'var(--mantine-primary-color-light)' : undefined }}
                >
                  <Table.Td ff="monospace" style={{ whiteSpace: 'nowrap' }}>
                    {formatOffset(s.start_ms)}
                  </Table.Td>
                  <Table.Td>
                    <Group gap={4} wrap="nowrap">
                      <Icon size={14} aria-hidden />
                      <span style={{ overflow: 'hidden', textOverflow: 'ellipsis' }}>{kind.label}</span>
                    </Group>
                  </Table.Td>
                  <Table.Td>
                    <Group gap={6} wrap="nowrap">
                      <UnstyledButton
                        onClick={() => onSelect(open ? { span: null } : { span: s.index, turn: s.turn })}
                        aria-expanded={open}
                        data-testid="span-toggle"
                        style={{ minWidth: 0, display: 'flex', alignItems: 'center', gap: 4 }}
                      >
                        {open ? <IconChevronDown size={12} aria-hidden style={{ flexShrink: 0 }} /> : <IconChevronRight size={12} aria-hidden style={{ flexShrink: 0 }} />}
                        <Text span size="xs" truncate dir="auto" title={s.label} style={{ unicodeBidi: 'plaintext' }}>
                          {s.label}
                        </Text>
                      </UnstyledButton>
                      <SpanFlags span={s} />
                    </Group>
                  </Table.Td>
                  <Table.Td>
                    <Bar span={s} total={total} />
                  </Table.Td>
                  <Table.Td ta="right" ff="monospace" data-testid="span-latency" style={{ whiteSpace: 'nowrap' }}>
                    {s.latency_ms === null ? '—' : formatLatency(s.latency_ms)}
                  </Table.Td>
                </Table.Tr>
                {open && (
                  <Table.Tr>
                    <Table.Td colSpan={5}>
                      <SpanLines lines={s.line_ids.map((id) => linesById.get(id)).filter((l): l is CallLine => l !== undefined)} />
                    </Table.Td>
                  </Table.Tr>
                )}
              </Fragment>
            )
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  )
}
