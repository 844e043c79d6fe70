import { Badge, Code, Progress, SimpleGrid, Stack, Tabs, Text } from '@mantine/core'
import { useQuery } from '@tanstack/react-query'
import { useParams } from 'react-router'
import type { Tenant } from '../../../src-shared/schemas/tenant'
import { JsonView } from '../../components/json-view'
import { QueryState } from '../../components/query-state'
import { RecordHeading } from '../../components/record-heading'
import { Fields, Section } from '../../components/section'
import { formatCents, formatNumber, formatTimestamp } from '../../lib/format'
import { useTRPC } from '../../lib/trpc'
import { useUrlParam } from '../../lib/url-param'
import { WebhooksTab } from '../webhooks/webhooks-tab'
import { StatusBadge } from './status-badge'

const Flag = ({ on, label }: { on: boolean; label?: string }) => (
  <Badge color={on ? 'green' : 'gray'} variant={on ? 'light' : 'outline'}>
    {label ?? (on ? 'on' : 'off')}
  </Badge>
)

function UsageBar({ used, limit, unit }: { used: number; limit: number; unit: string }) {
  const pct = limit > 0 ? Math.min(100, (used / limit) * 100) : 100
  return (
    <Stack gap={2}>
      <Text size="xs">
        {formatNumber(used)} of {formatNumber(limit)} {unit} ({pct.toFixed(0)} %)
      </Text>
      <Progress value={pct} color={pct >= 90 ? 'red' : pct >= 75 ? 'orange' : 'indigo'} size="sm" aria-label={`${unit} used`} />
    </Stack>
  )
}

export function TenantProfilePage() {
  const { tenantId = '' } = useParams()
  const trpc = useTRPC()
  const tenant = useQuery(trpc.tenants.get.queryOptions({ tenantId }))
  const usage = useQuery(trpc.tenants.usage.queryOptions({ tenantId }))
  const origin = useQuery(trpc.tenants.origin.queryOptions({ tenantId }))
  const [tab, setTab] = useUrlParam('tab')
  return (
    <QueryState query={tenant}>
      {(t: Tenant) => (
        <Stack>
          <RecordHeading crumbs={[{ to: '/tenants', label: 'Tenants' }]} title={t.name} titleTestId="tenant-name" id={t.id}>
            <StatusBadge status={t.status} />
          </RecordHeading>
          <Tabs value={tab || 'profile'} onChange={(value) => setTab(value === 'profile' ? null : value)} keepMounted={false}>
            <Tabs.List mb="sm">
              <Tabs.Tab value="profile">Profile</Tabs.Tab>
              <Tabs.Tab value="webhooks" data-testid="tab-webhooks">
                Webhooks
              </Tabs.Tab>
            </Tabs.List>
            <Tabs.Panel value="webhooks">
              <WebhooksTab tenant={t} />
            </Tabs.Panel>
            <Tabs.Panel value="profile">
              <SimpleGrid cols={{ base: 1, md: 2, xl: 3 }}>
                <Section title="Organization">
                  <Fields rows={[['Name', t.name], ['Status', <StatusBadge key="s" status={t.status} />], ['Customer since', formatTimestamp(t.created_at)]]} />
                </Section>
                <Section title="Billing plan and usage">
                  <Fields
                    rows={[
                      ['Plan', t.billing_plan],
                      ['Usage this month', formatCents(t.monthly_usage_cents)],
                      ['Calls this month', usage.data ? <UsageBar used={usage.data.calls_this_month} limit={t.monthly_call_limit} unit="calls" /> : '…'],
                      ['Max concurrent calls', formatNumber(t.max_concurrent_calls)],
                    ]}
                  />
                </Section>
                <Section title="Features">
                  <Fields rows={[['SIP', <Flag key="a" on={t.sip_enabled} />], ['Recording', <Flag key="b" on={t.recording_enabled} />], ['Analytics', <Flag key="c" on={t.analytics_enabled} />]]} />
                </Section>
                <Section title="Compliance">
                  <Fields rows={[['HIPAA', <Flag key="a" on={t.hipaa_enabled} />], ['PCI DSS', <Flag key="b" on={t.pci_enabled} />], ['Data encryption', <Flag key="c" on={t.data_encryption_enabled} />]]} />
                </Section>
                <Section title="Recording">
                  <Fields rows={[['Format', t.recording_format], ['Retention', `${formatNumber(t.retention_days)} days`]]} />
                </Section>
                <Section title="Webhook">
                  <Fields rows={[['URL', t.webhook_url ? <Code key="u">{t.webhook_url}</Code> : <Text c="dimmed" size="sm">none</Text>], ['Timeout', `${t.webhook_timeout_seconds} s`]]} />
                </Section>
                <Section title="SIP">
                  <Fields rows={[['Domain', t.sip_domain ?? '—'], ['Username', t.sip_username ?? '—']]} />
                </Section>
                <Section title="Metadata">
                  {t.meta_data ? <JsonView value={t.meta_data} fz="sm" /> : <Text c="dimmed" size="sm">none</Text>}
                </Section>
                <Section title="Timestamps">
                  <Fields
                    rows={[
                      ['Created', formatTimestamp(t.created_at)],
                      ['Updated', formatTimestamp(t.updated_at)],
                      [
                        'Source',
                        origin.data === undefined ? '…' : origin.data === null ? 'this store' : (
                          <Text key="o" size="sm" data-testid="tenant-origin">
                            pulled from <Code>{origin.data.source}</Code> on {formatTimestamp(origin.data.at)}
                          </Text>
                        ),
                      ],
                    ]}
                  />
                </Section>
              </SimpleGrid>
            </Tabs.Panel>
          </Tabs>
        </Stack>
      )}
    </QueryState>
  )
}
