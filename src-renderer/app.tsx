import { Anchor, AppShell, Burger, Group, NavLink, ScrollArea, Stack, Text, Title } from '@mantine/core'
import { useDisclosure } from '@mantine/hooks'
import { IconBuilding, IconListSearch, IconLogout } from '@tabler/icons-react'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { type ReactNode, useState } from 'react'
import { createHashRouter, NavLink as RouterLink, Navigate, Outlet, RouterProvider } from 'react-router'
import { QueryState } from './components/query-state'
import { AgentPage } from './features/agents/agent-page'
import { AgentsPage } from './features/agents/agents-page'
import { TranscriptPage } from './features/agents/transcript-page'
import { OverviewPage } from './features/overview/overview-page'
import { IconHeadset, IconLayoutDashboard } from '@tabler/icons-react'
import { CallLogsPage } from './features/call-logs/call-logs-page'
import { prefetchCallLogRows } from './features/call-logs/call-log-rows-query'
import { SignIn } from './features/sign-in/sign-in'
import { TenantProfilePage } from './features/tenants/tenant-profile-page'
import { TenantsPage } from './features/tenants/tenants-page'
import { clearToken, getToken } from './lib/auth'
import { useTRPC } from './lib/trpc'
import { IconDatabaseImport, IconPhone, IconPlugConnected, IconPhoneCall, IconSettings, IconUsersGroup } from '@tabler/icons-react'
import { ProvidersPage } from './features/providers/providers-page'
import { SettingsPage } from './features/settings/settings-page'
import { DataPage } from './features/data/data-page'
import { SipTrunksPage } from './features/sip-trunks/sip-trunks-page'
import { CallPage } from './features/calls/call-page'
import { CallsPage } from './features/calls/calls-page'
import { SquadPage } from './features/squads/squad-page'
import { SquadsPage } from './features/squads/squads-page'

/** Navigation entries, in the order a support engineer reaches for them. */
const NAV: Array<{ to: string; label: string; icon: ReactNode }> = [
  { to: '/overview', label: 'Overview', icon: <IconLayoutDashboard size={16} /> },
  { to: '/tenants', label: 'Tenants', icon: <IconBuilding size={16} /> },
  { to: '/calls', label: 'Calls', icon: <IconPhone size={16} /> },
  { to: '/logs', label: 'Call logs', icon: <IconListSearch size={16} /> },
  { to: '/agents', label: 'Agents', icon: <IconHeadset size={16} /> },
  { to: '/squads', label: 'Squads', icon: <IconUsersGroup size={16} /> },
  { to: '/sip-trunks', label: 'SIP trunks', icon: <IconPhoneCall size={16} /> },
  { to: '/providers', label: 'Providers', icon: <IconPlugConnected size={16} /> },
  { to: '/data', label: 'Data', icon: <IconDatabaseImport size={16} /> },
  { to: '/settings', label: 'Settings', icon: <IconSettings size={16} /> },
]

function Layout() {
  const [opened, { toggle }] = useDisclosure()
  const trpc = useTRPC()
  const whoami = useQuery(trpc.tokens.whoami.queryOptions())
  if (whoami.error?.data?.code === 'UNAUTHORIZED') return <SignIn refused={getToken() ? whoami.error.message : null} />
  return (
    <AppShell header={{ height: 44 }} navbar={{ width: 200, breakpoint: 'sm', collapsed: { mobile: !opened } }} padding="md">
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between">
          <Group gap="xs">
            <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label="Menu" />
            <Title order={4}>Callscope</Title>
          </Group>
          {whoami.data && (
            <Text size="xs" c="dimmed" data-testid="signed-in-as">
              {whoami.data.role}
              {whoami.data.tenantId ? ` · tenant ${whoami.data.tenantId.slice(0, 8)}` : ''}
            </Text>
          )}
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="xs">
        <AppShell.Section grow component={ScrollArea}>
          {NAV.map((item) => (
            <NavLink key={item.to} component={RouterLink} to={item.to} label={item.label} leftSection={item.icon} />
          ))}
        </AppShell.Section>
        {/* The desktop app talks to its own store over IPC: there is no token to sign out of. */}
        {!window.callscope?.desktop && (
        <AppShell.Section>
          <NavLink
            // A button: without an address, a link would not be reached with Tab.
            component="button"
            w="100%"
            label="Sign out"
            leftSection={<IconLogout size={16} />}
            onClick={() => {
              clearToken()
              window.location.reload()
            }}
          />
        </AppShell.Section>
        )}
      </AppShell.Navbar>
      <AppShell.Main>
        <QueryState query={whoami}>{() => <Outlet />}</QueryState>
      </AppShell.Main>
    </AppShell>
  )
}

function NotFound() {
  return (
    <Stack p="xl" data-testid="not-found">
      <Title order={3}>Nothing at this address</Title>
      <Text c="dimmed">The link may be from a newer or older version of Callscope.</Text>
      <Anchor component={RouterLink} to="/">
        Back to the console
      </Anchor>
    </Stack>
  )
}

// Built on first render, not at import: main.tsx moves the sign-in token out of the URL
// fragment first, and the hash router must never see it.
const buildRouter = () =>
  createHashRouter([
  {
    path: '/',
    element: <Layout />,
    errorElement: <NotFound />,
    children: [
      { index: true, element: <Navigate to="/overview" replace /> },
      { path: 'overview', element: <OverviewPage /> },
      { path: 'agents', element: <AgentsPage /> },
      { path: 'agents/:agentId', element: <AgentPage /> },
      { path: 'sessions/:conversationId', element: <TranscriptPage /> },
      { path: 'tenants', element: <TenantsPage /> },
      { path: 'calls', element: <CallsPage /> },
      { path: 'calls/:callId', element: <CallPage /> },
      { path: 'logs', element: <CallLogsPage /> },
      { path: 'tenants/:tenantId', element: <TenantProfilePage /> },
      { path: 'squads', element: <SquadsPage /> },
      { path: 'squads/:squadId', element: <SquadPage /> },
      { path: 'providers', element: <ProvidersPage /> },
      { path: 'sip-trunks', element: <SipTrunksPage /> },
      { path: 'data', element: <DataPage /> },
      { path: 'settings', element: <SettingsPage /> },
    ],
  },
])

export function App() {
  const trpc = useTRPC()
  const queryClient = useQueryClient()
  const [router] = useState(() => {
    const built = buildRouter()
    built.subscribe((state) => {
      if (state.location.pathname === '/logs') prefetchCallLogRows(queryClient, trpc, state.location.search)
    })
    return built
  })
  return <RouterProvider router={router} />
}
