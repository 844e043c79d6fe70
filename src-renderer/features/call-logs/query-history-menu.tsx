import { ActionIcon, Menu, Text } from '@mantine/core'
import { IconHistory, IconTrash } from '@tabler/icons-react'
import { clearQueryHistory, useQueryHistory } from './query-history'

/**
 * What closes the list from outside: Mantine's Menu also counts a key pressed outside it, and the ↓
 * that opens it from the box is one (Escape still closes it, from inside).
 */
const OUTSIDE = ['mousedown', 'touchstart']

interface QueryHistoryMenuProps {
  /** Runs a query again. */
  onPick: (query: string) => void
  opened: boolean
  setOpened: (opened: boolean) => void
}

/**
 * The recent queries, newest first: a menu (arrows move, Enter runs, Escape closes), opened by its
 * button or by ↓ in the box; closing it gives the keys back to the box (query-box.tsx).
 */
export function QueryHistoryMenu({ onPick, opened, setOpened }: QueryHistoryMenuProps) {
  const history = useQueryHistory()
  return (
    <Menu opened={opened} onChange={setOpened} position="bottom-end" width={520} shadow="md" withinPortal returnFocus={false} withInitialFocusPlaceholder={false} clickOutsideEvents={OUTSIDE}>
      <Menu.Target>
        <ActionIcon variant="subtle" size="lg" aria-label="Recent queries" data-testid="query-history-button">
          <IconHistory size={18} />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown data-testid="query-history">
        <Menu.Label>Recent queries (this console)</Menu.Label>
        {history.length === 0 && (
          <Text size="xs" c="dimmed" px="sm" py={4}>
            Queries you run show here.
          </Text>
        )}
        {history.map((entry) => (
          <Menu.Item key={entry.query} onClick={() => onPick(entry.query)} title={entry.query} data-testid="query-history-item">
            <Text size="xs" ff="monospace" truncate="end" maw={480}>
              {entry.query}
            </Text>
          </Menu.Item>
        ))}
        {history.length > 0 && (
          <>
            <Menu.Divider />
            <Menu.Item leftSection={<IconTrash size={14} />} onClick={clearQueryHistory} data-testid="query-history-clear">
              Clear history
            </Menu.Item>
          </>
        )}
      </Menu.Dropdown>
    </Menu>
  )
}
