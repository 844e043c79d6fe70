import { ActionIcon, Code, Popover, Stack, Table, Text, UnstyledButton } from '@mantine/core'
import { IconHelp } from '@tabler/icons-react'

/** The query language at a glance (docs/query-language.md has the whole of it); a click on an example puts it in the box. */
const EXAMPLES: Array<[string, string, string?]> = [
  ['imeout', 'text anywhere in the message, any case (finds timeout)'],
  ['"rate limit"', 'these whole words, in this order'],
  ['time*', 'words starting with time'],
  ['level:error', 'a level; level>=warning for warning and above'],
  ['type:llm', 'a log type'],
  ['tenant:"Acme Health"', 'a tenant, by name or id'],
  ['agent:"Aria · Reception"', 'an agent, by name or id'],
  ['call:… trace:… session:…', 'one call, trace or session (also user:, request:)', 'call:'],
  ['details.provider:groq', 'a key of details (any case)'],
  ['details.latency_ms>2000', 'numbers compare with > >= < <='],
  ['details.model:gpt*', 'text starting with gpt'],
  ['details.error:*', 'the key is present'],
  ['level:error imeout', 'both (AND is implied)'],
  ['groq OR openai', 'either'],
  ['NOT type:webhook', 'not (also -type:webhook)'],
  ['level:error (groq OR openai)', 'parentheses group; NOT binds first, then AND, then OR'],
  ['@last 15m', 'time: 15m, 1h, 24h, 7d; @since 2026-11-01, @until …'],
]

export function QueryHelp({ onPick }: { onPick: (example: string) => void }) {
  return (
    <Popover width={520} position="bottom-end" shadow="md" withArrow>
      <Popover.Target>
        <ActionIcon variant="subtle" size="lg" aria-label="Query help" data-testid="query-help-button">
          <IconHelp size={18} />
        </ActionIcon>
      </Popover.Target>
      <Popover.Dropdown data-testid="query-help">
        <Stack gap="xs">
          <Text size="sm" fw={600}>
            Query language
          </Text>
          <Table withRowBorders={false} verticalSpacing={2} horizontalSpacing="xs">
            <Table.Tbody>
              {EXAMPLES.map(([example, meaning, insert]) => (
                <Table.Tr key={example}>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>
                    <UnstyledButton onClick={() => onPick(insert ?? example)} aria-label={`Use ${example}`}>
                      <Code>{example}</Code>
                    </UnstyledButton>
                  </Table.Td>
                  <Table.Td>
                    <Text size="xs">{meaning}</Text>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          <Text size="xs" c="dimmed">
            AND, OR and NOT are upper-case. Quote values with spaces. Terms of 1–2 characters find words starting with them.
          </Text>
        </Stack>
      </Popover.Dropdown>
    </Popover>
  )
}
