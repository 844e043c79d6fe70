import { Box, Button, Group, Stack, Text } from '@mantine/core'
import { IconTool } from '@tabler/icons-react'
import { JsonView } from '../../components/json-view'
import type { CallMessage } from '../../lib/api-types'
import { textDir } from '../agents/transcript-page'
import { formatClock, formatLatency } from './call-format'

function Message({ message, selected, onTurn }: { message: CallMessage; selected: boolean; onTurn: (turn: number | null) => void }) {
  const user = message.role === 'user'
  const language = message.language ?? undefined
  const tool = message.tool_name !== null && (message.tool_arguments !== null || message.tool_result !== null)
  return (
    <Box
      px="sm"
      py={6}
      data-testid="call-message"
      data-role={message.role}
      data-turn={message.turn ?? ''}
      data-selected={selected || undefined}
      style={{
        borderRadius: 8,
        border: `1px solid ${selected ? 'var(--mantine-primary-color-filled)' : 'var(--mantine-color-default-border)'}`,
        background: selected ? 'var(--mantine-primary-color-light)' : user ? 'var(--mantine-color-default-hover)' : undefined,
        marginInlineStart: user ? 0 : 24,
        marginInlineEnd: user ? 24 : 0,
      }}
    >
      {message.content && (
        <Text size="sm" dir={textDir(language)} lang={language} style={{ whiteSpace: 'pre-wrap', unicodeBidi: 'plaintext' }} data-testid="call-message-text">
          {message.content}
        </Text>
      )}
      {tool && (
        <Stack gap={4} mt={message.content ? 4 : 0}>
          <Group gap={4}>
            <IconTool size={14} aria-hidden />
            <Text size="xs" ff="monospace" fw={600}>
              {message.tool_name}
            </Text>
          </Group>
          {message.tool_arguments !== null && <JsonView value={message.tool_arguments} />}
          {message.tool_result !== null && <JsonView value={message.tool_result} />}
        </Stack>
      )}
      <Group gap={6} mt={4} justify="space-between" wrap="nowrap">
        <Text size="xs" c="dimmed">
          {message.role} · {formatClock(message.created_at)}
          {message.latency_ms !== null ? ` · ${formatLatency(message.latency_ms)}` : ''}
        </Text>
        {message.turn === null ? (
          <Text size="xs" c="dimmed">
            outside the turns
          </Text>
        ) : (
          <Button size="compact-xs" variant={selected ? 'filled' : 'subtle'} aria-pressed={selected} onClick={() => onTurn(selected ? null : message.turn)} data-testid="message-turn">
            Turn {message.turn}
          </Button>
        )}
      </Group>
    </Box>
  )
}

/** The session's messages, each with its turn: choosing one highlights the turn's lines in the timeline. */
export function CallTranscript({ messages, turn, onTurn }: { messages: CallMessage[]; turn: number | null; onTurn: (turn: number | null) => void }) {
  return (
    <Stack gap={6} data-testid="call-transcript">
      {messages.map((m) => (
        <Message key={m.id} message={m} selected={turn !== null && m.turn === turn} onTurn={onTurn} />
      ))}
    </Stack>
  )
}
