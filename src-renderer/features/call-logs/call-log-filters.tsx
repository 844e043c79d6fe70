import { Box, Button, Group, MultiSelect, Select, Stack } from '@mantine/core'
import type { CallLogViewParams } from '../../../src-shared/call-log-view'
import { KNOWN_LOG_TYPES, LOG_LEVELS } from '../../../src-shared/constants'
import type { CallLogFacets, FacetCount } from '../../lib/api-types'
import { formatNumber } from '../../lib/format'
import { QueryBox } from './query-box'
import { TimeBounds, TimeRangePresets, useFromRef } from './time-range-fields'

interface CallLogFiltersProps {
  view: CallLogViewParams
  setView: (patch: Partial<CallLogViewParams>) => void
  agents: Array<{ id: string; name: string }>
  facets?: CallLogFacets
  /** The facets are still being counted (newest part of the range first): their counts are "so far". */
  partial?: boolean
}

const withCount = (value: string, counts: FacetCount[] | undefined, partial: boolean) => {
  if (!counts) return value
  return `${value} (${formatNumber(counts.find((c) => c.value === value)?.count ?? 0)}${partial ? ' so far' : ''})`
}

export function CallLogFilters({ view, setView, agents, facets, partial = false }: CallLogFiltersProps) {
  const types = [...new Set<string>([...KNOWN_LOG_TYPES, ...(facets?.types.map((t) => t.value) ?? []), ...(view.types ?? [])])].sort()
  const fromRef = useFromRef()
  const agentOptions = agents.map((a) => ({ value: a.id, label: a.name }))
  if (view.agentId && !agents.some((a) => a.id === view.agentId)) agentOptions.push({ value: view.agentId, label: view.agentId.slice(0, 8) })

  return (
    <Stack gap={6} data-testid="call-log-filters">
      <Group gap="sm" align="flex-start" wrap="nowrap">
        <Box flex={1} miw={0}>
          <QueryBox value={view.query} onCommit={(query) => setView({ query })} />
        </Box>
        <TimeRangePresets view={view} setView={setView} fromRef={fromRef} />
      </Group>
      <Group gap="sm" align="flex-end" wrap="wrap">
        <TimeBounds view={view} setView={setView} fromRef={fromRef} />
        <Select
          label="Agent"
          aria-label="Agent"
          size="xs"
          w={200}
          searchable
          clearable
          placeholder="All agents"
          data={agentOptions}
          value={view.agentId ?? null}
          onChange={(agentId) => setView({ agentId: agentId ?? undefined })}
        />
        <MultiSelect
          label="Level"
          aria-label="Level"
          size="xs"
          w={220}
          clearable
          placeholder={view.levels?.length ? undefined : 'All levels'}
          data={LOG_LEVELS.map((l) => ({ value: l, label: withCount(l, facets?.levels, partial) }))}
          value={view.levels ?? []}
          onChange={(levels) => setView({ levels })}
          data-testid="level-filter"
        />
        <MultiSelect
          label="Type"
          aria-label="Type"
          size="xs"
          w={220}
          clearable
          searchable
          placeholder={view.types?.length ? undefined : 'All types'}
          data={types.map((t) => ({ value: t, label: withCount(t, facets?.types, partial) }))}
          value={view.types ?? []}
          onChange={(types) => setView({ types })}
        />
        <Button
          size="xs"
          variant="subtle"
          onClick={() =>
            setView({ from: undefined, to: undefined, agentId: undefined, levels: undefined, types: undefined, q: undefined, query: undefined, callId: undefined, traceId: undefined, sessionId: undefined })
          }
        >
          Clear filters
        </Button>
      </Group>
    </Stack>
  )
}
