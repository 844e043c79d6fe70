import { BarChart, type BarChartProps } from '@mantine/charts'
import { Anchor, Box, Card, Code, Grid, Group, Loader, SegmentedControl, SimpleGrid, Stack, Table, Text, Tooltip, useComputedColorScheme, useMantineTheme } from '@mantine/core'
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { useMemo } from 'react'
import { Link, useParams, useSearchParams } from 'react-router'
import type { SquadAnalytics } from '../../../src-shared/schemas/squad-analytics'
import type { PulledAnalyticsMark } from '../../lib/api-types'
import { BreadcrumbTitle } from '../../components/breadcrumb-title'
import { PulledNote } from '../../components/pulled'
import { QueryState } from '../../components/query-state'
import { Section } from '../../components/section'
import { formatDate, formatMs, formatTimestamp, formatNumber, formatRate } from '../../lib/format'
import { mixColors, textOn } from '../../theme'
import { useTRPC } from '../../lib/trpc'
import { PERIOD_DAYS, parseDays, periodQuery } from './period'
import { StrategyBadge, strategyLabel } from './strategy'

const CHART_H = 220

function Stat({ label, value, hint, testId }: { label: string; value: string; hint?: string; testId: string }) {
  return (
    <Card withBorder padding="sm">
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text size="xl" fw={600} data-testid={testId} style={{ fontVariantNumeric: 'tabular-nums' }}>
        {value}
      </Text>
      <Text size="xs" c="dimmed" h={18}>
        {hint ?? ''}
      </Text>
    </Card>
  )
}

/** Who handed over to whom: rows are the agents handing over, columns the agents taking over. */
function TransferMatrix({ data }: { data: SquadAnalytics }) {
  const theme = useMantineTheme()
  // A cell's colour as drawn (indigo over the card, deeper for more transfers), so its count can be
  // set in black or white, whichever reads on it.
  const card = useComputedColorScheme('light') === 'dark' ? theme.colors.dark[6] : theme.white
  const heat = (share: number) => mixColors(theme.colors.indigo[6], card, 0.12 + 0.78 * share)
  const cells = data.transfer_statistics.matrix
  if (cells.length === 0) {
    return (
      <Text c="dimmed" size="sm" py="xl" ta="center">
        No transfers in this period.
      </Text>
    )
  }
  // Members first in routing order, then any other agent that appears.
  const order = new Map<string, string>()
  for (const m of data.member_utilization) order.set(m.agent_id, m.agent_name)
  for (const c of cells) {
    if (!order.has(c.from_agent_id)) order.set(c.from_agent_id, c.from_agent_name)
    if (!order.has(c.to_agent_id)) order.set(c.to_agent_id, c.to_agent_name)
  }
  const from = [...order].filter(([id]) => cells.some((c) => c.from_agent_id === id))
  const to = [...order].filter(([id]) => cells.some((c) => c.to_agent_id === id))
  const byPair = new Map(cells.map((c) => [`${c.from_agent_id}>${c.to_agent_id}`, c]))
  const max = Math.max(...cells.map((c) => c.count))
  return (
    <Table.ScrollContainer minWidth={320}>
      <Table withColumnBorders={false} data-testid="transfer-matrix" style={{ tableLayout: 'fixed' }}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th w={130}>
              <Text size="xs" c="dimmed">
                from ↓ to →
              </Text>
            </Table.Th>
            {to.map(([id, name]) => (
              <Table.Th key={id} ta="center">
                <Text size="xs" truncate title={name}>
                  {name}
                </Text>
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {from.map(([fromId, fromName]) => (
            <Table.Tr key={fromId}>
              <Table.Td>
                <Text size="xs" truncate title={fromName}>
                  {fromName}
                </Text>
              </Table.Td>
              {to.map(([toId, toName]) => {
                const cell = byPair.get(`${fromId}>${toId}`)
                const share = cell ? cell.count / max : 0
                const background = cell ? heat(share) : undefined
                return (
                  <Table.Td key={toId} p={2}>
                    <Tooltip
                      label={cell ? `${fromName} → ${toName}: ${cell.count} (${cell.successful} successful, ${cell.failed} failed)` : `${fromName} → ${toName}: none`}
                      withArrow
                    >
                      <Box
                        data-testid={`matrix-cell-${fromId}-${toId}`}
                        ta="center"
                        py={6}
                        style={{
                          borderRadius: 3,
                          background: background ?? 'var(--mantine-color-default-hover)',
                          color: background ? textOn(background) : undefined,
                          fontSize: 'var(--mantine-font-size-sm)',
                          fontVariantNumeric: 'tabular-nums',
                        }}
                      >
                        {cell ? cell.count : '·'}
                      </Box>
                    </Tooltip>
                  </Table.Td>
                )
              })}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  )
}

/** The routing strategies compared, one bar group per strategy: both strategy charts draw it alike, each with its own measures. */
function StrategyChart({ data, series, unit, testId }: { data: BarChartProps['data']; series: BarChartProps['series']; unit: string; testId: string }) {
  return (
    <BarChart
      h={CHART_H}
      data={data}
      dataKey="strategy"
      series={series}
      valueFormatter={(v) => `${v} ${unit}`}
      withLegend
      legendProps={{ verticalAlign: 'bottom', height: 28 }}
      gridAxis="x"
      maxBarWidth={40}
      data-testid={testId}
    />
  )
}

function Analytics({ data, fetching }: { data: SquadAnalytics; fetching: boolean }) {
  const t = data.transfer_statistics
  const dist = data.session_distribution
  const utilization = data.member_utilization.map((m) => ({ agent: m.agent_name, utilization: m.utilization_pct, sessions: m.sessions_handled }))
  const strategies = data.routing_strategy_performance.map((s) => ({
    strategy: `${strategyLabel(s.strategy)}${s.is_current ? ' (current)' : ''}`,
    'Resolution rate': Math.round(s.resolution_rate * 1000) / 10,
    'Transfer rate': Math.round(s.transfer_rate * 1000) / 10,
    'Mean wait': Math.round(s.mean_wait_ms / 100) / 10,
  }))
  const hours = dist.by_hour.map((h) => ({ hour: String(h.hour).padStart(2, '0'), sessions: h.sessions }))
  const languages = dist.by_language.map((l) => ({ language: l.language, sessions: l.sessions }))
  return (
    <Stack gap="sm" style={{ opacity: fetching ? 0.6 : 1, transition: 'opacity 120ms' }}>
      <SimpleGrid cols={{ base: 2, md: 5 }} spacing="sm">
        <Stat label="Sessions" value={formatNumber(dist.total_sessions)} testId="stat-sessions" hint={`${data.member_utilization.length} members`} />
        <Stat label="Transfers" value={formatNumber(t.total)} testId="stat-total" hint={`${formatNumber(t.successful)} ok · ${formatNumber(t.failed)} failed`} />
        <Stat label="Transfer success" value={formatRate(t.success_rate)} testId="stat-success-rate" />
        <Stat label="Mean time to transfer" value={t.successful ? formatMs(t.mean_time_to_transfer_ms) : '—'} testId="stat-mean" hint="successful transfers" />
        <Stat label="p90 time to transfer" value={t.successful ? formatMs(t.p90_time_to_transfer_ms) : '—'} testId="stat-p90" hint="nearest rank" />
      </SimpleGrid>
      <Grid gap="sm">
        <Grid.Col span={{ base: 12, lg: 7 }}>
          <Section h="100%" title="Transfer matrix" right={<Text size="xs" c="dimmed">transfers requested, darker = more</Text>}>
            <TransferMatrix data={data} />
          </Section>
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 5 }}>
          <Section h="100%" title="Utilization per member" right={<Text size="xs" c="dimmed">handle time / period</Text>}>
            {utilization.length === 0 ? (
              <Text c="dimmed" size="sm">
                The squad has no members.
              </Text>
            ) : (
              <BarChart
                h={Math.max(CHART_H - 40, utilization.length * 30 + 40)}
                data={utilization}
                dataKey="agent"
                orientation="vertical"
                series={[{ name: 'utilization', label: 'Utilization', color: 'indigo.6' }]}
                valueFormatter={(v) => `${v.toFixed(2)} %`}
                barChartProps={{ margin: { right: 48 } }}
                yAxisProps={{ width: 120 }}
                gridAxis="y"
                withBarValueLabel
                maxBarWidth={18}
                data-testid="utilization-chart"
              />
            )}
          </Section>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 6 }}>
          <Section title="Routing strategies: outcomes" right={<Text size="xs" c="dimmed">% of sessions</Text>}>
            <StrategyChart
              data={strategies}
              series={[
                { name: 'Resolution rate', color: 'teal.6' },
                { name: 'Transfer rate', color: 'orange.5' },
              ]}
              unit="%"
              testId="strategy-rates-chart"
            />
          </Section>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 6 }}>
          <Section title="Routing strategies: mean wait" right={<Text size="xs" c="dimmed">seconds until an agent picked up</Text>}>
            <StrategyChart data={strategies} series={[{ name: 'Mean wait', color: 'grape.5' }]} unit="s" testId="strategy-wait-chart" />
          </Section>
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 8 }}>
          <Section h="100%" title="Sessions by hour of day" right={<Text size="xs" c="dimmed">UTC, summed over the period</Text>}>
            <BarChart h={CHART_H} data={hours} dataKey="hour" series={[{ name: 'sessions', label: 'Sessions', color: 'indigo.5' }]} gridAxis="x" data-testid="hour-chart" />
          </Section>
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 4 }}>
          <Section h="100%" title="Sessions by language">
            {languages.length === 0 ? (
              <Text c="dimmed" size="sm">
                No sessions in this period.
              </Text>
            ) : (
              <BarChart
                h={CHART_H}
                data={languages}
                dataKey="language"
                orientation="vertical"
                series={[{ name: 'sessions', label: 'Sessions', color: 'cyan.6' }]}
                yAxisProps={{ width: 40 }}
                gridAxis="y"
                maxBarWidth={16}
                data-testid="language-chart"
              />
            )}
          </Section>
        </Grid.Col>
      </Grid>
    </Stack>
  )
}

/** Analytics a pull fetched: the backend's figures for the period it was asked, not recomputed here. */
function PulledPeriodNote({ pulled }: { pulled: PulledAnalyticsMark }) {
  return (
    <PulledNote source={pulled.source} testId="pulled-note">
      These figures are the backend's own, for <b data-testid="pulled-period">{formatDate(pulled.periodStart)} – {formatDate(pulled.periodEnd)} UTC</b>, as fetched{' '}
      {formatTimestamp(pulled.fetchedAt)}. Callscope cannot recompute them from pulled rows, so the period cannot be changed here; pull again for newer figures.
    </PulledNote>
  )
}

export function SquadPage() {
  const { squadId = '' } = useParams()
  const [params, setParams] = useSearchParams()
  const days = parseDays(params.get('days'))
  const trpc = useTRPC()
  const range = useMemo(() => periodQuery(days, Date.now()), [days])
  const analytics = useQuery({ ...trpc.squads.analytics.queryOptions({ squadId, ...range }), placeholderData: keepPreviousData })
  const data = analytics.data
  const squads = useQuery(trpc.squads.list.queryOptions())
  return (
    <Stack gap="sm">
      <Group justify="space-between" h={36} wrap="nowrap">
        <BreadcrumbTitle crumbs={[{ to: '/squads', label: 'Squads' }]} title={data?.squad_name ?? '…'} titleTestId="squad-name" wrap="nowrap">
          {data && <StrategyBadge strategy={data.routing_strategy} />}
          {data && (
            <Anchor component={Link} to={`/tenants/${data.tenant_id}`} size="sm" c="dimmed" data-testid="squad-tenant">
              {squads.data?.find((s) => s.id === data.squad_id)?.tenant_name ?? 'tenant'}
            </Anchor>
          )}
        </BreadcrumbTitle>
        <Group gap="sm" wrap="nowrap" display={data?.pulled ? 'none' : undefined}>
          <Box w={16}>{analytics.isFetching && data ? <Loader size={14} /> : null}</Box>
          <Text size="xs" c="dimmed" data-testid="squad-period" data-start={range.start_date} data-end={range.end_date}>
            {formatDate(range.start_date)} – {formatDate(range.end_date)} UTC
          </Text>
          <SegmentedControl
            size="xs"
            aria-label="Period"
            value={String(days)}
            onChange={(value) => setParams({ days: value }, { replace: true })}
            data={PERIOD_DAYS.map((d) => ({ value: String(d), label: `${d} days` }))}
          />
        </Group>
      </Group>
      {data?.pulled && <PulledPeriodNote pulled={data.pulled} />}
      <QueryState query={analytics}>{(a) => <Analytics data={a} fetching={analytics.isPlaceholderData} />}</QueryState>
      {data && (
        <Text size="xs" c="dimmed">
          Squad <Code fz="xs">{data.squad_id}</Code>. Definitions of every figure: docs/api.md, “Squad analytics”.
        </Text>
      )}
    </Stack>
  )
}
