import { Anchor, Badge, Code, Group, Select, SimpleGrid, Stack, Table, Tabs, Text, Title } from '@mantine/core'
import { IconCheck, IconMinus } from '@tabler/icons-react'
import { useQuery } from '@tanstack/react-query'
import { type Column, ListTable } from '../../components/list-table'
import { PulledNote } from '../../components/pulled'
import { QueryState } from '../../components/query-state'
import { errorCode, Fields, NeedsRole, Section } from '../../components/section'
import { NameIdCell } from '../../components/table-cells'
import type { RouterOutputs } from '../../lib/api-types'
import { formatNumber, formatTimestamp } from '../../lib/format'
import { useTRPC } from '../../lib/trpc'
import { useUrlParam } from '../../lib/url-param'
import { SttValidation } from './stt-validation'

const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 3 })
const Yes = ({ on }: { on: boolean }) => (on ? <IconCheck size={14} color="var(--mantine-color-teal-6)" aria-label="yes" /> : <IconMinus size={14} color="var(--mantine-color-dimmed)" aria-label="no" />)

const MODEL_COLUMNS: Column[] = [
  { label: 'Model' },
  { label: 'Context window', ta: 'right' },
  { label: 'Max output', ta: 'right' },
  { label: 'Tools', ta: 'center' },
  { label: 'Streaming', ta: 'center' },
  { label: 'Vision', ta: 'center' },
  { label: 'Input / Mtok', ta: 'right' },
  { label: 'Output / Mtok', ta: 'right' },
  { label: 'Released' },
]

function LlmDetails({ d }: { d: RouterOutputs['providers']['llmDetails'] }) {
  return (
    <Stack gap="sm">
      {d.pulled && (
        <PulledNote source={d.pulled.source} testId="llm-pulled-note">
          The backend's own details, as fetched {formatTimestamp(d.pulled.fetchedAt)}: its models, its key status (masked) and its agents. A key or an agent
          of this store's own for {d.display_name} would show this store's details instead.
        </PulledNote>
      )}
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
        <ListTable
          highlightOnHover
          testId="llm-models"
          columns={MODEL_COLUMNS}
          rows={d.models}
          rowKey={(m) => m.id}
          cells={(m) => (
            <>
              <NameIdCell name={m.display_name} id={m.id} />
              <Table.Td ta="right">{formatNumber(m.context_window)}</Table.Td>
              <Table.Td ta="right">{formatNumber(m.max_output_tokens)}</Table.Td>
              <Table.Td ta="center"><Yes on={m.supports_tools} /></Table.Td>
              <Table.Td ta="center"><Yes on={m.supports_streaming} /></Table.Td>
              <Table.Td ta="center"><Yes on={m.supports_vision} /></Table.Td>
              <Table.Td ta="right">{usd.format(m.input_price_per_mtok)}</Table.Td>
              <Table.Td ta="right">{usd.format(m.output_price_per_mtok)}</Table.Td>
              <Table.Td>{m.released ?? '—'}</Table.Td>
            </>
          )}
        />
        <Text size="xs" c="dimmed" mt={6}>
          Prices are indicative list prices in USD per million tokens.
        </Text>
      </Section>
    </Stack>
  )
}

export function ProvidersPage() {
  const trpc = useTRPC()
  const [tabParam, setTab] = useUrlParam('tab')
  const [llmParam, setLlm] = useUrlParam('llm')
  const tab = tabParam === 'stt' ? 'stt' : 'llm'
  const catalog = useQuery(trpc.providers.catalog.queryOptions())
  const llmIds = catalog.data?.llm.map((p) => p.id) ?? []
  const provider = llmIds.includes(llmParam) ? llmParam : (llmIds[0] ?? '')
  const details = useQuery({ ...trpc.providers.llmDetails.queryOptions({ provider }), enabled: provider !== '' })
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
      <Tabs value={tab} onChange={(value) => setTab(value ?? 'llm')} keepMounted={false}>
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
                  onChange={(value) => value && setLlm(value)}
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
