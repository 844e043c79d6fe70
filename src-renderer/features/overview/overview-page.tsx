import { BarChart, LineChart } from '@mantine/charts'
import { Anchor, Badge, Group, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core'
import { useQuery } from '@tanstack/react-query'
import { Link } from 'react-router'
import { QueryState } from '../../components/query-state'
import { Section } from '../../components/section'
import { CountCell, NameLinkCell } from '../../components/table-cells'
import { formatNumber, formatTimestamp } from '../../lib/format'
import { useTRPC } from '../../lib/trpc'

const CHART_H = 200
const shortDay = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', timeZone: 'UTC' })

function Stat({ label, value, to }: { label: string; value: number; to?: string }) {
  return (
    <Section title={label} testId={`count-${label.toLowerCase().replace(/\s+/g, '-')}`}>
      <Text fz={22} fw={600} lh={1} style={{ fontVariantNumeric: 'tabular-nums' }}>
        {to ? (
          <Anchor component={Link} to={to} inherit c="inherit" underline="never">
            {formatNumber(value)}
          </Anchor>
        ) : (
          formatNumber(value)
        )}
      </Text>
    </Section>
  )
}

/** The most specific call log view for a line: its session, else its call, else its trace. */
function logsLink(e: { session_id: string | null; call_id: string | null; trace_id: string | null }): string | null {
  if (e.session_id) return `/logs?session=${encodeURIComponent(e.session_id)}`
  if (e.call_id) return `/logs?call=${encodeURIComponent(e.call_id)}`
  if (e.trace_id) return `/logs?trace=${encodeURIComponent(e.trace_id)}`
  return null
}

export function OverviewPage() {
  const trpc = useTRPC()
  const overview = useQuery(trpc.overview.get.queryOptions())
  return (
    <>
      <Group justify="space-between" mb="md">
        <Title order={3}>Overview</Title>
        {overview.data && (
          <Text size="xs" c="dimmed">
            Last {overview.data.period.days} days (UTC), since {formatTimestamp(overview.data.period.since)}
          </Text>
        )}
      </Group>
      <QueryState query={overview}>
        {(o) => {
          const daily = o.daily.map((d) => ({
            day: shortDay.format(new Date(`${d.day}T00:00:00Z`)),
            Answered: d.calls - d.failed_calls,
            Failed: d.failed_calls,
            'Failed calls': Number((d.error_rate * 100).toFixed(1)),
          }))
          const calls = o.daily.reduce((s, d) => s + d.calls, 0)
          const failed = o.daily.reduce((s, d) => s + d.failed_calls, 0)
          const errorLines = o.daily.reduce((s, d) => s + d.error_log_lines, 0)
          return (
            <Stack gap="md" data-testid="overview">
              <SimpleGrid cols={{ base: 2, sm: 5 }} spacing="sm">
                <Stat label="Tenants" value={o.counts.tenants} to="/tenants" />
                <Stat label="Agents" value={o.counts.agents} to="/agents" />
                <Stat label="Sessions" value={o.counts.sessions} />
                <Stat label="Calls" value={o.counts.calls} />
                <Stat label="Call logs" value={o.counts.call_logs} to="/logs" />
              </SimpleGrid>
              <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="sm">
                <Section
                  title="Call volume per day"
                  right={
                    <Text size="xs" c="dimmed">
                      {formatNumber(calls)} calls
                    </Text>
                  }
                >
                  <BarChart
                    h={CHART_H}
                    data={daily}
                    dataKey="day"
                    type="stacked"
                    series={[
                      { name: 'Answered', color: 'indigo.5' },
                      { name: 'Failed', color: 'red.5' },
                    ]}
                    gridAxis="y"
                    tickLine="none"
                    withLegend
                    legendProps={{ verticalAlign: 'top', height: 24 }}
                    xAxisProps={{ interval: 'preserveStartEnd', minTickGap: 24 }}
                    yAxisProps={{ width: 40 }}
                    data-testid="volume-chart"
                  />
                </Section>
                <Section
                  title="Error rate per day"
                  right={
                    <Text size="xs" c="dimmed">
                      {calls > 0 ? ((failed / calls) * 100).toFixed(1) : '0.0'} % of calls failed · {formatNumber(errorLines)} error log lines
                    </Text>
                  }
                >
                  <LineChart
                    h={CHART_H}
                    data={daily}
                    dataKey="day"
                    series={[{ name: 'Failed calls', color: 'red.6' }]}
                    valueFormatter={(v) => `${v} %`}
                    yAxisProps={{ width: 44 }}
                    curveType="linear"
                    withDots={false}
                    gridAxis="y"
                    tickLine="none"
                    withLegend
                    legendProps={{ verticalAlign: 'top', height: 24 }}
                    xAxisProps={{ interval: 'preserveStartEnd', minTickGap: 24 }}
                    data-testid="error-rate-chart"
                  />
                </Section>
              </SimpleGrid>
              <div style={{ display: 'grid', gridTemplateColumns: 'minmax(0, 5fr) minmax(0, 7fr)', gap: 'var(--mantine-spacing-sm)', alignItems: 'start' }}>
                <Section title="Busiest agents" right={<Text size="xs" c="dimmed">sessions, last {o.period.days} days</Text>} testId="busiest-agents">
                  {o.busiest_agents.length === 0 ? (
                    <Text c="dimmed" size="sm">
                      No sessions in this period.
                    </Text>
                  ) : (
                    // Fixed layout: long names end in an ellipsis rather than pushing the counts (a team
                    // server's are five digits) out of the card.
                    <Table highlightOnHover style={{ tableLayout: 'fixed' }}>
                      <Table.Tbody>
                        {o.busiest_agents.map((a, i) => (
                          <Table.Tr key={a.agent_id}>
                            <Table.Td w={32} c="dimmed">
                              {i + 1}
                            </Table.Td>
                            <NameLinkCell to={`/agents/${a.agent_id}`} nowrap>
                              {a.agent_name}
                            </NameLinkCell>
                            <Table.Td w="36%" c="dimmed" title={a.tenant_name ?? undefined} style={{ whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis' }}>
                              {a.tenant_name}
                            </Table.Td>
                            <CountCell w={72}>{formatNumber(a.sessions)}</CountCell>
                          </Table.Tr>
                        ))}
                      </Table.Tbody>
                    </Table>
                  )}
                </Section>
                <Section title="Recent errors" right={<Text size="xs" c="dimmed">latest {o.recent_errors.length} error and critical lines</Text>} testId="recent-errors">
                  {o.recent_errors.length === 0 ? (
                    <Text c="dimmed" size="sm">
                      No errors. Calm day.
                    </Text>
                  ) : (
                    <Table highlightOnHover style={{ tableLayout: 'fixed' }}>
                      <Table.Tbody>
                        {o.recent_errors.map((e) => {
                          const to = logsLink(e)
                          return (
                            <Table.Tr key={e.id}>
                              <Table.Td w={150} c="dimmed" fz="xs" style={{ whiteSpace: 'nowrap' }}>
                                {formatTimestamp(e.timestamp).replace(' UTC', '')}
                              </Table.Td>
                              <Table.Td w={78}>
                                <Badge color={e.log_level === 'critical' ? 'grape' : 'red'} size="xs" style={{ overflow: 'visible' }}>
                                  {e.log_level}
                                </Badge>
                              </Table.Td>
                              <Table.Td w={60} fz="xs" c="dimmed">
                                {e.log_type}
                              </Table.Td>
                              <Table.Td>
                                <Text size="xs" truncate="end" title={e.message}>
                                  {to ? (
                                    <Anchor component={Link} to={to} inherit>
                                      {e.message}
                                    </Anchor>
                                  ) : (
                                    e.message
                                  )}
                                </Text>
                              </Table.Td>
                              <Table.Td w={150} fz="xs" style={{ whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis' }}>
                                {e.agent_id && e.agent_name ? (
                                  <Anchor component={Link} to={`/agents/${e.agent_id}`} inherit title={e.agent_name}>
                                    {e.agent_name}
                                  </Anchor>
                                ) : (
                                  <Text span c="dimmed" inherit>
                                    {e.tenant_name ?? '—'}
                                  </Text>
                                )}
                              </Table.Td>
                            </Table.Tr>
                          )
                        })}
                      </Table.Tbody>
                    </Table>
                  )}
                </Section>
              </div>
            </Stack>
          )
        }}
      </QueryState>
    </>
  )
}
