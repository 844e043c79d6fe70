import { Anchor, Badge, Code, Group, Select, SimpleGrid, Stack, Table, Tabs, Text, Title } from '@mantine/core'
import { IconCheck, IconMinus } from '@tabler/icons-react'
import { useQuery } from '@tanstack/react-query'
import { useSearchParams } from 'react-router'
import type { LlmProviderDetails } from '../../../src-shared/schemas/providers'
import { QueryState } from '../../components/query-state'
import { errorCode, Fields, NeedsRole, Section } from '../../components/section'
import { formatNumber } from '../../lib/format'
import { useTRPC } from '../../lib/trpc'
import { SttValidation } from './stt-validation'

const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 3 })
const Yes = ({ on }: { on: boolean }) => (on ? <IconCheck size={14} color="var(--mantine-color-teal-6)" aria-label="yes" /> : <IconMinus size={14} color="var(--mantine-color-dimmed)" aria-label="no" />)

function LlmDetails({ d }: { d: LlmProviderDetails }) {
  return (
    <Stack gap="sm">
      <SimpleGrid cols={{ base: 1, md: 3 }} spacing="sm">
        <Section title="Provider">
          <Fields
            rows={[
              ['Name', d.display_name],
              ['API', <Code key="a">{d.api_base_url}</Code>],
              ['Docs', <Anchor key="d" href={d.docs_url} target="_blank" size="sm">{d.docs_url.replace(/^https?:\/\//, '')}</Anchor>],
              ['Catalog', d.catalog_version],
            ]}
          />
        </Section>
        <Section title="Credentials" testId="llm-credentials">
          <Fields
            rows={[
              ['Configured', d.credentials.configured ? <Badge key="c" color="green">configured</Badge> : <Badge key="c" color="gray" variant="outline">not configured</Badge>],
              ['Source', d.credentials.source ?? '—'],
              ['Key', d.credentials.key_hint ? <Code key="k">{d.credentials.key_hint}</Code> : '—'],
              ['Environment variable', <Code key="e">{d.credentials.env_var}</Code>],
              ['Base URL override', d.credentials.base_url ? <Code key="b">{d.credentials.base_url}</Code> : 'none'],
            ]}
          />
        </Section>
        <Section title="Agents using it" testId="llm-agents">
          <Text size="xl" fw={600}>
            {formatNumber(d.agents.count)}
          </Text>
          <Text size="xs" c="dimmed" mb={4}>
            agents whose language model comes from {d.display_name}
          </Text>
          <Group gap={4} mah={72} style={{ overflow: 'hidden' }}>
            {d.agents.ids.slice(0, 6).map((id) => (
              <Code key={id} fz="xs">
                {id.slice(0, 8)}
              </Code>
            ))}
            {d.agents.count > 6 && <Text size="xs" c="dimmed">+{d.agents.count - 6} more</Text>}
          </Group>
        </Section>
      </SimpleGrid>
      <Section title={`Models (${d.models.length})`} right={<Text size="xs" c="dimmed">{d.description}</Text>}>
        <Table highlightOnHover data-testid="llm-models">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Model</Table.Th>
              <Table.Th ta="right">Context window</Table.Th>
              <Table.Th ta="right">Max output</Table.Th>
              <Table.Th ta="center">Tools</Table.Th>
              <Table.Th ta="center">Streaming</Table.Th>
              <Table.Th ta="center">Vision</Table.Th>
              <Table.Th ta="right">Input / Mtok</Table.Th>
              <Table.Th ta="right">Output / Mtok</Table.Th>
              <Table.Th>Released</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {d.models.map((m) => (
              <Table.Tr key={m.id}>
                <Table.Td>
                  <Text size="sm" fw={500}>
                    {m.display_name}
                  </Text>
                  <Text size="xs" c="dimmed" ff="monospace">
                    {m.id}
                  </Text>
                </Table.Td>
                <Table.Td ta="right">{formatNumber(m.context_window)}</Table.Td>
                <Table.Td ta="right">{formatNumber(m.max_output_tokens)}</Table.Td>
                <Table.Td ta="center"><Yes on={m.supports_tools} /></Table.Td>
                <Table.Td ta="center"><Yes on={m.supports_streaming} /></Table.Td>
                <Table.Td ta="center"><Yes on={m.supports_vision} /></Table.Td>
                <Table.Td ta="right">{usd.format(m.input_price_per_mtok)}</Table.Td>
                <Table.Td ta="right">{usd.format(m.output_price_per_mtok)}</Table.Td>
                <Table.Td>{m.released ?? '—'}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
        <Text size="xs" c="dimmed" mt={6}>
          Prices are indicative list prices in USD per million tokens.
        </Text>
      </Section>
    </Stack>
  )
}

export function ProvidersPage() {
  const trpc = useTRPC()
  const [params, setParams] = useSearchParams()
  const tab = params.get('tab') === 'stt' ? 'stt' : 'llm'
  const catalog = useQuery(trpc.providers.catalog.queryOptions())
  const llmIds = catalog.data?.llm.map((p) => p.id) ?? []
  const provider = llmIds.includes(params.get('llm') ?? '') ? params.get('llm')! : (llmIds[0] ?? '')
  const details = useQuery({ ...trpc.providers.llmDetails.queryOptions({ provider }), enabled: provider !== '' })
  const set = (key: string, value: string) => {
    const next = new URLSearchParams(params)
    next.set(key, value)
    setParams(next, { replace: true })
  }
  if (errorCode(catalog.error) === 'FORBIDDEN') {
    return (
      <Stack>
        <Title order={3}>Providers</Title>
        <NeedsRole what="Provider administration" />
      </Stack>
    )
  }
  return (
    <Stack gap="sm">
      <Group justify="space-between" h={36}>
        <Title order={3}>Providers</Title>
      </Group>
      <Tabs value={tab} onChange={(value) => set('tab', value ?? 'llm')} keepMounted={false}>
        <Tabs.List mb="sm">
          <Tabs.Tab value="llm">LLM providers</Tabs.Tab>
          <Tabs.Tab value="stt">STT validation</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="llm">
          <QueryState query={catalog}>
            {(c) => (
              <Stack gap="sm">
                <Select
                  label="Provider"
                  w={280}
                  data={c.llm.map((p) => ({ value: p.id, label: p.display_name }))}
                  value={provider}
                  onChange={(value) => value && set('llm', value)}
                  allowDeselect={false}
                  data-testid="llm-provider-select"
                />
                <QueryState query={details}>{(d) => <LlmDetails d={d} />}</QueryState>
              </Stack>
            )}
          </QueryState>
        </Tabs.Panel>
        <Tabs.Panel value="stt">
          <QueryState query={catalog}>{(c) => <SttValidation catalog={c.stt} />}</QueryState>
        </Tabs.Panel>
      </Tabs>
    </Stack>
  )
}
