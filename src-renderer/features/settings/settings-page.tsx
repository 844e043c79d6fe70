import { ActionIcon, Alert, Badge, Button, Code, Grid, Group, Modal, Select, Stack, Table, Text, TextInput, Title, Tooltip } from '@mantine/core'
import { IconKey } from '@tabler/icons-react'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { type FormEvent, useState } from 'react'
import { TOKEN_ROLES, type TokenRole } from '../../../src-shared/constants'
import { type Column, ListTable } from '../../components/list-table'
import { QueryState } from '../../components/query-state'
import { errorCode, Fields, NeedsRole, Section } from '../../components/section'
import { CountCell } from '../../components/table-cells'
import { formatBytes, formatNumber, formatTimestamp } from '../../lib/format'
import { useTRPC } from '../../lib/trpc'
import { BackupsForm } from './backups-form'
import { ListenerForm } from './listener-form'
import { TeamServerForm } from './team-server-form'
import { ExpiresCell, type ExpiryChoice, ExpiryFields, lifetimeOf, TokenStatusBadge } from './token-expiry'
import { ShownOnceValue } from '../../components/shown-once-value'

const ROLE_COLOR: Record<string, string> = { admin: 'red', viewer: 'blue', tenant: 'grape' }

interface NewToken {
  token: string
  name: string
  expiresAt: string | null
}

function CreateToken({ tenants, onCreated }: { tenants: Array<{ id: string; name: string }>; onCreated: (created: NewToken) => void }) {
  const trpc = useTRPC()
  const queryClient = useQueryClient()
  const [name, setName] = useState('')
  const [role, setRole] = useState<TokenRole>('viewer')
  const [tenantId, setTenantId] = useState<string | null>(null)
  const [expiry, setExpiry] = useState<ExpiryChoice>({ choice: 'never', date: '' })
  const create = useMutation(
    trpc.tokens.create.mutationOptions({
      onSuccess: (created) => {
        void queryClient.invalidateQueries({ queryKey: trpc.tokens.list.queryKey() })
        void queryClient.invalidateQueries({ queryKey: trpc.settings.info.queryKey() })
        onCreated({ token: created.token, name: created.record.name, expiresAt: created.record.expires_at })
        setName('')
        setTenantId(null)
      },
    }),
  )
  const submit = (event: FormEvent) => {
    event.preventDefault()
    create.mutate({ name, role, tenantId: role === 'tenant' ? tenantId : null, expires: lifetimeOf(expiry) })
  }
  return (
    <form onSubmit={submit} data-testid="create-token-form">
      <Group align="flex-end" gap="xs">
        <TextInput label="Name" placeholder="e.g. grafana, ci" value={name} onChange={(e) => setName(e.currentTarget.value)} required w={200} data-testid="token-name" />
        <Select
          label="Role"
          data={TOKEN_ROLES.map((r) => ({ value: r, label: r }))}
          value={role}
          onChange={(value) => value && setRole(value as TokenRole)}
          allowDeselect={false}
          w={120}
          data-testid="token-role"
        />
        <Select
          label="Tenant"
          placeholder={role === 'tenant' ? 'Pick a tenant' : 'all tenants'}
          data={tenants.map((t) => ({ value: t.id, label: t.name }))}
          value={role === 'tenant' ? tenantId : null}
          onChange={setTenantId}
          disabled={role !== 'tenant'}
          required={role === 'tenant'}
          searchable
          w={220}
          data-testid="token-tenant"
        />
        <ExpiryFields value={expiry} onChange={setExpiry} />
        <Button
          type="submit"
          leftSection={<IconKey size={14} />}
          loading={create.isPending}
          disabled={!name.trim() || (role === 'tenant' && !tenantId) || !lifetimeOf(expiry)}
          data-testid="create-token"
        >
          Create token
        </Button>
      </Group>
      {create.error && (
        <Text c="red" size="xs" mt={4}>
          {create.error.message}
        </Text>
      )}
    </form>
  )
}

const TOKEN_COLUMNS: Column[] = [
  { label: 'Prefix' },
  { label: 'Name' },
  { label: 'Role' },
  { label: 'Tenant' },
  { label: 'Created' },
  { label: 'Last used' },
  { label: 'Expires' },
  { label: 'Status' },
  { w: 90 },
]

function Tokens() {
  const trpc = useTRPC()
  const queryClient = useQueryClient()
  const tokens = useQuery(trpc.tokens.list.queryOptions())
  const tenants = useQuery(trpc.tenants.list.queryOptions({}))
  // The created token stays in state after the modal closes so its closing animation keeps the text.
  const [created, setCreated] = useState<NewToken | null>(null)
  const [showCreated, setShowCreated] = useState(false)
  const [revoking, setRevoking] = useState<{ id: string; name: string; prefix: string } | null>(null)
  const revoke = useMutation(
    trpc.tokens.revoke.mutationOptions({
      onSuccess: () => {
        void queryClient.invalidateQueries({ queryKey: trpc.tokens.list.queryKey() })
        void queryClient.invalidateQueries({ queryKey: trpc.settings.info.queryKey() })
        setRevoking(null)
      },
    }),
  )
  if (errorCode(tokens.error) === 'FORBIDDEN') return <NeedsRole what="Managing API tokens" />
  const tenantName = new Map((tenants.data ?? []).map((t) => [t.id, t.name]))
  return (
    <Stack gap="sm">
      <CreateToken tenants={tenants.data ?? []} onCreated={(token) => {
          setCreated(token)
          setShowCreated(true)
        }} />
      <QueryState query={tokens} isEmpty={(rows) => rows.length === 0} empty="No stored tokens.">
        {(rows) => (
          <ListTable
            highlightOnHover
            testId="tokens-table"
            columns={TOKEN_COLUMNS}
            rows={rows}
            rowKey={(t) => t.id}
            rowProps={(t) => ({ 'data-testid': `token-row-${t.name}`, c: t.status === 'active' ? undefined : 'dimmed' })}
            cells={(t) => (
              <>
                <Table.Td>
                  <Code fz="xs">{t.token_prefix}…</Code>
                </Table.Td>
                <Table.Td>{t.name}</Table.Td>
                <Table.Td>
                  <Badge color={ROLE_COLOR[t.role] ?? 'gray'}>{t.role}</Badge>
                </Table.Td>
                <Table.Td>{t.tenant_id ? (tenantName.get(t.tenant_id) ?? <Code fz="xs">{t.tenant_id.slice(0, 8)}</Code>) : <Text size="xs" c="dimmed">all</Text>}</Table.Td>
                <Table.Td>
                  <Text size="xs">{formatTimestamp(t.created_at)}</Text>
                </Table.Td>
                <Table.Td>
                  <Text size="xs">{t.last_used_at ? formatTimestamp(t.last_used_at) : 'never'}</Text>
                </Table.Td>
                <Table.Td>
                  <ExpiresCell expiresAt={t.expires_at} />
                </Table.Td>
                <Table.Td>
                  <TokenStatusBadge token={t} />
                </Table.Td>
                <Table.Td ta="right">
                  {t.status !== 'revoked' && (
                    <Button size="compact-xs" variant="subtle" color="red" onClick={() => setRevoking({ id: t.id, name: t.name, prefix: t.token_prefix })} data-testid="revoke-token">
                      Revoke
                    </Button>
                  )}
                </Table.Td>
              </>
            )}
          />
        )}
      </QueryState>
      <Modal opened={showCreated} onClose={() => setShowCreated(false)} title={`Token “${created?.name ?? ''}” created`} size="lg" closeOnClickOutside={false}>
        <Stack gap="sm">
          <Alert color="yellow" variant="light">
            Copy it now: it is shown only this once. Callscope stores only a hash of it.{' '}
            {created?.expiresAt ? `It stops working on ${formatTimestamp(created.expiresAt)}.` : 'It does not expire.'}
          </Alert>
          <ShownOnceValue value={created?.token ?? ''} what="token" testId="new-token" />
          <Text size="xs" c="dimmed">
            Use it as <Code fz="xs">Authorization: Bearer &lt;token&gt;</Code> on the REST API, or paste it on the console’s sign-in screen.
          </Text>
          <Group justify="flex-end">
            <Button onClick={() => setShowCreated(false)} data-testid="close-new-token">
              Done
            </Button>
          </Group>
        </Stack>
      </Modal>
      <Modal opened={revoking !== null} onClose={() => setRevoking(null)} title="Revoke token?">
        <Stack gap="sm">
          <Text size="sm">
            “{revoking?.name}” (<Code fz="xs">{revoking?.prefix}…</Code>) stops working immediately. This cannot be undone.
          </Text>
          {revoke.error && (
            <Text c="red" size="xs">
              {revoke.error.message}
            </Text>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setRevoking(null)}>
              Cancel
            </Button>
            <Button color="red" loading={revoke.isPending} onClick={() => revoking && revoke.mutate({ id: revoking.id })} data-testid="confirm-revoke">
              Revoke
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  )
}

function ServiceInfo() {
  const trpc = useTRPC()
  const info = useQuery(trpc.settings.info.queryOptions())
  if (errorCode(info.error) === 'FORBIDDEN') return <NeedsRole what="Service information" role="an admin or viewer" />
  return (
    <QueryState query={info}>
      {({ database: db, runtime }) => (
        <Grid gap="sm">
          <Grid.Col span={{ base: 12, md: 5 }}>
            <Stack gap="sm">
              <Section title="HTTP listener" testId="listener">
                <Fields
                  rows={[
                    ['Mode', runtime.mode === 'headless' ? 'headless (callscope serve)' : 'desktop app'],
                    [
                      'Status',
                      runtime.listenerUrl ? (
                        <Badge key="s" color="green">listening</Badge>
                      ) : (
                        <Badge key="s" color="gray" variant="outline">not listening</Badge>
                      ),
                    ],
                    ['Address', runtime.listenerUrl ? <Code key="u" data-testid="listener-url">{runtime.listenerUrl}</Code> : '—'],
                    ['REST API', runtime.listenerUrl ? <Code key="o">{`${runtime.listenerUrl}/openapi.json`}</Code> : '—'],
                  ]}
                />
                {window.callscope?.desktop && <ListenerForm />}
              </Section>
              <Section title="Database" testId="database">
                <Fields
                  rows={[
                    ['Location', <Code key="p" style={{ wordBreak: 'break-all' }} data-testid="db-path">{db.path}</Code>],
                    ['Size', db.sizeBytes === null ? 'in memory' : formatBytes(db.sizeBytes)],
                    ['Schema version', <Text key="v" size="sm" data-testid="db-schema">{db.schema.current ?? 'empty'} ({db.schema.applied} of {db.schema.available} migrations)</Text>],
                  ]}
                />
              </Section>
            </Stack>
          </Grid.Col>
          <Grid.Col span={{ base: 12, md: 7 }}>
            <Section title="Rows" testId="row-counts">
              <Table>
                <Table.Tbody>
                  {Object.entries(db.counts).map(([table, n]) => (
                    <Table.Tr key={table}>
                      <Table.Td>
                        <Code fz="xs">{table}</Code>
                      </Table.Td>
                      <CountCell testId={`count-${table}`}>{formatNumber(n)}</CountCell>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Section>
          </Grid.Col>
        </Grid>
      )}
    </QueryState>
  )
}

export function SettingsPage() {
  return (
    <Stack gap="sm">
      <Group h={36}>
        <Title order={3}>Settings</Title>
      </Group>
      {window.callscope?.desktop && (
        <Section title="Backups" testId="backups">
          <BackupsForm />
        </Section>
      )}
      {window.callscope?.desktop && (
        <Section title="Team server" testId="team-server">
          <TeamServerForm />
        </Section>
      )}
      <Section title="API tokens" testId="tokens">
        <Tokens />
      </Section>
      <ServiceInfo />
    </Stack>
  )
}
