import { Anchor, Table, Text } from '@mantine/core'
import type { ReactNode } from 'react'
import { Link } from 'react-router'

// Cells several tables share, so a record's name, its id or a count reads the same on every page.

/** A count, right-aligned in tabular figures so the digits of a column line up. */
export function CountCell({ children, testId }: { children: ReactNode; testId?: string }) {
  return (
    <Table.Td ta="right" style={{ fontVariantNumeric: 'tabular-nums' }} data-testid={testId}>
      {children}
    </Table.Td>
  )
}

/** A record's name, linking to its own page: the first cell of a list's row. */
export function NameLinkCell({ to, children, nowrap }: { to: string; children: ReactNode; nowrap?: boolean }) {
  return (
    <Table.Td>
      <Anchor component={Link} to={to} size="sm" fw={500} style={nowrap ? { whiteSpace: 'nowrap' } : undefined}>
        {children}
      </Anchor>
    </Table.Td>
  )
}

/** A record's display name with its machine id beneath it. */
export function NameIdCell({ name, id }: { name: ReactNode; id: string }) {
  return (
    <Table.Td>
      <Text size="sm" fw={500}>
        {name}
      </Text>
      <Text size="xs" c="dimmed" ff="monospace">
        {id}
      </Text>
    </Table.Td>
  )
}
