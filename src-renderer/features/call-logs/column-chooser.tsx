import { ActionIcon, Autocomplete, Button, Checkbox, Group, Popover, Stack, Text } from '@mantine/core'
import { IconColumns, IconX } from '@tabler/icons-react'
import { useState } from 'react'
import { BASE_COLUMNS, DEFAULT_COLUMNS, DETAILS_COLUMN_PREFIX, isColumn, MAX_COLUMNS } from '../../../src-shared/explorer-state'

const LABELS: Record<(typeof BASE_COLUMNS)[number], string> = {
  time: 'Time',
  level: 'Level',
  type: 'Type',
  tenant: 'Tenant',
  agent: 'Agent',
  call: 'Call',
  message: 'Message',
}

interface ColumnChooserProps {
  columns: readonly string[]
  /** Undefined: the default columns. */
  setColumns: (columns: string[] | undefined) => void
  /** Details keys of the matching lines, offered to add as columns. */
  detailsKeys: string[]
}

/** A base column goes back to its place in the default order; details columns stay where they were added. */
function withColumn(columns: readonly string[], name: string): string[] {
  if (name.startsWith(DETAILS_COLUMN_PREFIX)) return [...columns, name]
  const rank = (c: string) => (DEFAULT_COLUMNS.includes(c) ? DEFAULT_COLUMNS.indexOf(c) : c === 'tenant' ? DEFAULT_COLUMNS.indexOf('agent') - 0.5 : Infinity)
  const at = columns.findIndex((c) => rank(c) > rank(name))
  return at < 0 ? [...columns, name] : [...columns.slice(0, at), name, ...columns.slice(at)]
}

const same = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((c, i) => c === b[i])

/**
 * Which columns the table shows (issue 17 pt 5): the base ones by a checkbox each, and any
 * `details.<key>`, typed or picked from the keys of the matching lines. The view's link keeps them.
 */
export function ColumnChooser({ columns, setColumns, detailsKeys }: ColumnChooserProps) {
  const [key, setKey] = useState('')
  const set = (next: string[]) => setColumns(same(next, DEFAULT_COLUMNS) ? undefined : next)
  const toggle = (name: string, on: boolean) => set(on ? withColumn(columns, name) : columns.filter((c) => c !== name))
  const details = columns.filter((c) => c.startsWith(DETAILS_COLUMN_PREFIX))
  const candidate = `${DETAILS_COLUMN_PREFIX}${key.trim().replace(/^details\./, '')}`
  const problem = !key.trim() ? null : !isColumn(candidate) ? 'Letters, digits, _ and - with dots between parts' : columns.includes(candidate) ? 'Already shown' : columns.length >= MAX_COLUMNS ? `At most ${MAX_COLUMNS} columns` : null
  const add = () => {
    if (!key.trim() || problem) return
    set(withColumn(columns, candidate))
    setKey('')
  }
  return (
    <Popover position="bottom-end" width={300} shadow="md" withArrow trapFocus returnFocus>
      <Popover.Target>
        <Button size="xs" variant="default" leftSection={<IconColumns size={14} />} data-testid="column-chooser">
          Columns
        </Button>
      </Popover.Target>
      <Popover.Dropdown data-testid="column-chooser-panel">
        <Stack gap={6}>
          <Text size="xs" fw={600} id="columns-title">
            Columns shown
          </Text>
          <Stack gap={4} role="group" aria-labelledby="columns-title">
            {BASE_COLUMNS.map((name) => {
              const on = columns.includes(name)
              return (
                <Checkbox
                  key={name}
                  size="xs"
                  label={LABELS[name]}
                  checked={on}
                  // The last column shown stays: a table of no columns shows nothing to click.
                  disabled={on && columns.length === 1}
                  onChange={(e) => toggle(name, e.currentTarget.checked)}
                />
              )
            })}
          </Stack>
          {details.map((name) => (
            <Group key={name} gap={4} justify="space-between" wrap="nowrap">
              <Text size="xs" ff="monospace" truncate="end">
                {name}
              </Text>
              <ActionIcon size="sm" variant="subtle" color="gray" aria-label={`Remove column ${name}`} disabled={columns.length === 1} onClick={() => toggle(name, false)}>
                <IconX size={12} />
              </ActionIcon>
            </Group>
          ))}
          <Group gap={4} align="flex-start" wrap="nowrap">
            <Autocomplete
              size="xs"
              flex={1}
              label="Add a details column"
              placeholder="provider, usage.tokens"
              data={detailsKeys.filter((k) => !columns.includes(`${DETAILS_COLUMN_PREFIX}${k}`))}
              value={key}
              onChange={setKey}
              onKeyDown={(e) => e.key === 'Enter' && add()}
              error={problem}
              data-testid="details-column-key"
            />
            <Button size="xs" mt={22} variant="light" onClick={add} disabled={!key.trim() || problem !== null}>
              Add
            </Button>
          </Group>
          <Button size="compact-xs" variant="subtle" onClick={() => setColumns(undefined)} disabled={same(columns, DEFAULT_COLUMNS)}>
            Default columns
          </Button>
        </Stack>
      </Popover.Dropdown>
    </Popover>
  )
}
