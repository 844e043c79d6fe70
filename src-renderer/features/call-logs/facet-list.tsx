import { ActionIcon, Box, Button, Group, Paper, Stack, Text, Tooltip, UnstyledButton, VisuallyHidden } from '@mantine/core'
import { IconCheck, IconMinus } from '@tabler/icons-react'
import { type ReactNode, useState } from 'react'
import { formatNumber } from '../../lib/format'
import './facet-list.css'

/** One value of a facet: what it shows, how many lines have it, and whether the view filters it in or out. */
export interface FacetItem {
  key: string
  label: string
  /** Null for a value filtered out, which has no lines left to count. */
  count: number | null
  state: 'in' | 'out' | null
  /** Shown dimmed after the label (an id under a name). */
  hint?: string
  /** The end of the label that tells it from another one alike (the start of an id): never cut off. */
  keep?: string
}

/** The label, its end kept in sight when a narrow panel cuts it (two tenants of one name). */
function Label({ item }: { item: FacetItem }) {
  const className = item.state === 'out' ? 'facet-label facet-label-out' : 'facet-label'
  if (!item.keep || !item.label.endsWith(item.keep)) return <span className={className}>{item.label}</span>
  return (
    <span className={`${className} facet-label-split`}>
      <span className="facet-label-start">{item.label.slice(0, -item.keep.length)}</span>
      <span className="facet-label-end">{item.keep}</span>
    </span>
  )
}

interface FacetListProps {
  /** The facet's name, as in "tenant": said in every button's accessible name. */
  name: string
  title: string
  /** A control under the title (the details key picker). */
  control?: ReactNode
  items: FacetItem[] | undefined
  onIn: (item: FacetItem) => void
  onOut: (item: FacetItem) => void
  /** Under the list: what the counts cover (a sample, a cap). */
  note?: ReactNode
  empty?: string
  shown?: number
}

/**
 * A facet: its top values with counts. The value's button filters it in (again: takes the filter
 * away); the minus button filters it out. Active values say so in text and icon, not colour alone.
 */
export function FacetList({ name, title, control, items, onIn, onOut, note, empty = 'No values', shown = 5 }: FacetListProps) {
  const [all, setAll] = useState(false)
  const visible = items ? (all ? items : items.slice(0, shown)) : []
  return (
    <Paper withBorder p={6} radius="sm" className="facet-list" data-testid={`facet-${name}`}>
      <Stack gap={2}>
        <Text size="xs" fw={600} component="h4" m={0}>
          {title}
        </Text>
        {control}
        {items === undefined && <Text size="xs" c="dimmed">Counting…</Text>}
        {items?.length === 0 && <Text size="xs" c="dimmed">{empty}</Text>}
        <Box className={all ? 'facet-list-values facet-list-all' : 'facet-list-values'}>
          {visible.map((item) => (
            <Group key={item.key} gap={2} wrap="nowrap" className="facet-row" data-state={item.state ?? undefined}>
              <UnstyledButton className="facet-value" onClick={() => onIn(item)} aria-pressed={item.state === 'in'} title={item.hint ? `${item.label} (${item.hint})` : item.label}>
                <VisuallyHidden>{item.state === 'in' ? `Stop filtering in ${name} ` : `Filter in ${name} `}</VisuallyHidden>
                {item.state === 'in' && <IconCheck size={12} aria-hidden className="facet-mark" />}
                <Label item={item} />
                {item.state === 'out' && <span className="facet-tag">excluded</span>}
                {item.count !== null && <span className="facet-count">{formatNumber(item.count)}</span>}
              </UnstyledButton>
              <Tooltip label={item.state === 'out' ? 'Stop excluding' : 'Exclude'} openDelay={400}>
                <ActionIcon
                  size="sm"
                  variant={item.state === 'out' ? 'light' : 'subtle'}
                  color="gray"
                  aria-pressed={item.state === 'out'}
                  aria-label={item.state === 'out' ? `Stop filtering out ${name} ${item.label}` : `Filter out ${name} ${item.label}`}
                  onClick={() => onOut(item)}
                >
                  <IconMinus size={12} />
                </ActionIcon>
              </Tooltip>
            </Group>
          ))}
        </Box>
        {items && items.length > shown && (
          <Button size="compact-xs" variant="subtle" onClick={() => setAll(!all)} aria-expanded={all}>
            {all ? 'Show fewer' : `Show all ${formatNumber(items.length)}`}
          </Button>
        )}
        {note && <Text size="xs" c="dimmed" lh={1.3}>{note}</Text>}
      </Stack>
    </Paper>
  )
}
