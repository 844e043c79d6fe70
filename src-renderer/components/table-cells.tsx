import { Anchor, Table, Text } from '@mantine/core'
import type { ReactNode } from 'react'
import { Link } from 'react-router'

// Cells several tables share, so a record's name, its id or a count reads the same on every page.

/** A count, right-aligned in tabular figures so the digits of a column line up. */
export function CountCell({ children, testId, w }: { children: ReactNode; testId?: string; w?: number }) {
  return (
    <Table.Td ta="right" w={w} style={{ fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' }} data-testid={testId}>
      {children}
    </Table.Td>
  )
}

/** A record's name, linking to its own page: the first cell of a list's row. */
export function NameLinkCell({ to, children, nowrap }: { to: string; children: ReactNode; nowrap?: boolean }) {
  return (
    // Kept to one line, a name too long for a fixed-width table ends in an ellipsis (its whole text in the title).
    <Table.Td style={nowrap ? { whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis' } : undefined}>
      <Anchor component={Link} to={to} size="sm" fw={500} title={nowrap && typeof children === 'string' ? children : undefined}>
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
