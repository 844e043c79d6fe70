import { Badge, Button, Group, Select, SimpleGrid, Stack, Text } from '@mantine/core'
import { useLocalStorage } from '@mantine/hooks'
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import type { CallLogViewParams } from '../../../src-shared/call-log-view'
import { excludedTerms, facetTerm, termState, withFacetTerm } from '../../../src-shared/log-query/facet-terms'
import { DETAILS_FACET_LINES, DETAILS_KEYS_LINES, type CallLogFacets, type DetailsFacet, type NamedFacetCount } from '../../../src-shared/schemas/call-log-facets'
import type { CallLogFilterInput } from '../../../src-shared/schemas/call-log-search'
import { formatNumber } from '../../lib/format'
import { useTRPC } from '../../lib/trpc'
import { type FacetItem, FacetList } from './facet-list'
import { ABORT_WHEN_SUPERSEDED } from './query-options'

interface FacetPanelProps {
  view: CallLogViewParams
  setView: (patch: Partial<CallLogViewParams>) => void
  facets: CallLogFacets | undefined
  filter: CallLogFilterInput
  /** Counting waits for the rows of the filter (call-logs-page.tsx). */
  enabled: boolean
  /** The counts of a new filter are on their way (the old ones stay shown until then, or its partial ones). */
  counting: boolean
  /** The counts shown are this filter's, over the newest part of its range only (`scanned`, 0–1). */
  partial: boolean
  scanned: number
  /** Why the counts could not be had (a query stopped at its budget says which part is slow). */
  error?: string
  /** The details key whose values are counted: part of the view's link (`facet=`). */
  detailsKey?: string
  setDetailsKey: (key: string | undefined) => void
}

/** A tenant or agent goes into the query by name when no other has it (names match any case), else by id. */
const namedTerm = (field: 'tenant' | 'agent', c: NamedFacetCount) => facetTerm(field, c.name && !c.nameShared ? c.name : c.value)

const toggle = (list: string[] | undefined, value: string) => {
  const next = list?.includes(value) ? list.filter((v) => v !== value) : [...(list ?? []), value]
  return next.length ? next : undefined
}

/** Values the query filters out (no lines left to count) first, so each can be taken back, then the counted ones. */
function withExcluded(items: FacetItem[] | undefined, query: string | undefined, field: string): FacetItem[] | undefined {
  if (!items) return items
  const listed = new Set(items.map((i) => i.key))
  const out = excludedTerms(query, field).filter((e) => !listed.has(e.term))
  return [...out.map((e): FacetItem => ({ key: e.term, label: e.value, count: null, state: 'out' })), ...items]
}

const detailsLabel = (value: DetailsFacet['values'][number]['value']) => (typeof value === 'string' ? value : String(value))

/**
 * Facets with counts (issue 17 pt 2): tenant, agent, level, type and one details key the user picks.
 * Tenant, agent and details filter through the query line (`tenant:"Acme"`, `-agent:…`), so what
 * is applied is written where it can be read and edited; level and type filter in through their
 * existing filters (every other value stays counted beside them) and out through the query.
 */
export function FacetPanel({ view, setView, facets, filter, enabled, counting, partial, scanned, error, detailsKey, setDetailsKey }: FacetPanelProps) {
  const trpc = useTRPC()
  const [open, setOpen] = useLocalStorage({ key: 'callscope.facets.open', defaultValue: true })
  const key = detailsKey ?? null
  const percent = Math.floor(scanned * 100)
  const keys = useQuery({ ...trpc.callLogs.detailsKeys.queryOptions({ filter }, ABORT_WHEN_SUPERSEDED), placeholderData: keepPreviousData, enabled: enabled && open })
  const details = useQuery({
    ...trpc.callLogs.detailsFacet.queryOptions({ filter, key: key ?? '' }, ABORT_WHEN_SUPERSEDED),
    placeholderData: keepPreviousData,
    enabled: enabled && open && key !== null,
  })

  const byQuery = (term: string, mode: 'in' | 'out') => setView({ query: withFacetTerm(view.query, term, mode) || undefined })
  const named = (field: 'tenant' | 'agent', list: NamedFacetCount[] | undefined): FacetItem[] | undefined =>
    list?.map((c) => {
      const term = namedTerm(field, c)
      // Two with one name are told apart by the start of their ids.
      const label = c.name ? (c.nameShared ? `${c.name} · ${c.value.slice(0, 8)}` : c.name) : c.value
      return { key: term, label, hint: c.name ? c.value : undefined, keep: c.name && c.nameShared ? ` · ${c.value.slice(0, 8)}` : undefined, count: c.count, state: termState(view.query, term) }
    })
  const listed = (field: 'level' | 'type', list: Array<{ value: string; count: number }> | undefined, chosen: string[] | undefined): FacetItem[] | undefined =>
    list?.map((c) => {
      const term = facetTerm(field, c.value)
      return { key: term, label: c.value, count: c.count, state: chosen?.includes(c.value) ? 'in' : termState(view.query, term) === 'out' ? 'out' : null }
    })
  // Filtering in a level or type that the query filters out takes that term away too.
  const paramIn = (field: 'level' | 'type', item: FacetItem) => {
    const list = field === 'level' ? 'levels' : 'types'
    const query = item.state === 'out' ? withFacetTerm(view.query, item.key, 'out') || undefined : view.query
    setView({ query, [list]: toggle(view[list], item.label) })
  }
  // Filtering out a level or type also drops it from the chosen ones, so the two never contradict.
  const paramOut = (field: 'level' | 'type', item: FacetItem) => {
    const list = field === 'level' ? 'levels' : 'types'
    const query = withFacetTerm(view.query, item.key, 'out') || undefined
    setView({ query, [list]: view[list]?.filter((v) => v !== item.label).length ? view[list]?.filter((v) => v !== item.label) : undefined })
  }
  const detailsData = key !== null && details.data?.key === key ? details.data : undefined
  const detailItems: FacetItem[] | undefined = detailsData?.values.map((v) => {
    const term = facetTerm(`details.${key}`, v.value)
    return { key: term, label: detailsLabel(v.value), count: v.count, state: termState(view.query, term) }
  })

  return (
    <Stack gap={4} data-testid="facet-panel">
      <Group gap="xs">
        <Button size="compact-xs" variant="subtle" aria-expanded={open} aria-controls="call-log-facets" onClick={() => setOpen(!open)}>
          {open ? 'Hide facets' : 'Show facets'}
        </Button>
        {open && partial && (
          <Badge size="sm" variant="light" color="yellow" data-testid="facets-partial">
            {`Partial, ${percent}% scanned`}
          </Badge>
        )}
        <Text size="xs" c="dimmed" role="status" data-testid="facets-status">
          {!open
            ? ''
            : counting && partial
              ? `Counting: the newest ${percent}% of the range counted…`
              : counting || (details.isFetching && key !== null)
                ? 'Counting…'
                : partial
                  ? `Counted the newest ${percent}% of the range before the count stopped`
                  : ''}
        </Text>
      </Group>
      {open && error && (
        <Text size="xs" className="call-log-query-error" data-testid="facets-error">
          {partial ? 'Facets not counted to the end' : 'Facets not counted'}: {error}
        </Text>
      )}
      {open && (
        <SimpleGrid id="call-log-facets" cols={{ base: 2, sm: 1 }} spacing={6} verticalSpacing={6}>
          <FacetList name="tenant" title="Tenant" items={withExcluded(named('tenant', facets?.tenants), view.query, 'tenant')} onIn={(i) => byQuery(i.key, 'in')} onOut={(i) => byQuery(i.key, 'out')} />
          <FacetList name="agent" title="Agent" items={withExcluded(named('agent', facets?.agents), view.query, 'agent')} onIn={(i) => byQuery(i.key, 'in')} onOut={(i) => byQuery(i.key, 'out')} />
          <FacetList name="level" title="Level" items={withExcluded(listed('level', facets?.levels, view.levels), view.query, 'level')} onIn={(i) => paramIn('level', i)} onOut={(i) => paramOut('level', i)} />
          <FacetList name="type" title="Type" items={withExcluded(listed('type', facets?.types, view.types), view.query, 'type')} onIn={(i) => paramIn('type', i)} onOut={(i) => paramOut('type', i)} />
          <FacetList
            name={`details.${key ?? ''}`}
            title="Details"
            control={
              <Select
                size="xs"
                aria-label="Details key"
                placeholder="Pick a details key"
                searchable
                clearable
                data={keyOptions(keys.data?.keys, key)}
                value={key}
                onChange={(k) => setDetailsKey(k ?? undefined)}
                nothingFoundMessage={`No key in the newest ${formatNumber(DETAILS_KEYS_LINES)} matching lines`}
                data-testid="details-key"
              />
            }
            items={key === null ? [] : withExcluded(detailItems, view.query, `details.${key}`)}
            empty={key === null ? 'Pick a key to count its values' : 'No plain values for this key'}
            onIn={(i) => byQuery(i.key, 'in')}
            onOut={(i) => byQuery(i.key, 'out')}
            note={detailsData && <DetailsNote facet={detailsData} />}
          />
        </SimpleGrid>
      )}
    </Stack>
  )
}

/** The keys of the newest lines, and the picked one although they lack it (a link's key stays shown). */
function keyOptions(keys: Array<{ key: string; count: number }> | undefined, picked: string | null) {
  const options = (keys ?? []).map((k) => ({ value: k.key, label: `details.${k.key} (${formatNumber(k.count)})` }))
  if (picked !== null && !options.some((o) => o.value === picked)) options.unshift({ value: picked, label: `details.${picked}` })
  return options
}

/** What a details facet counted: the newest lines only, or every line (an indexed key over a bare range). */
function DetailsNote({ facet }: { facet: DetailsFacet }) {
  const lines = formatNumber(facet.linesRead)
  return (
    <Text span size="xs" data-testid="details-note">
      {facet.sampled ? `Top values in the newest ${formatNumber(DETAILS_FACET_LINES)} matching lines` : `Top values in all ${lines} matching lines`}
      {`; ${formatNumber(facet.linesWithKey)} have details.${facet.key}.`}
    </Text>
  )
}
