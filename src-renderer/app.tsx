import { Anchor, AppShell, Burger, Group, NavLink, ScrollArea, Stack, Text, Title } from '@mantine/core'
import { useDisclosure } from '@mantine/hooks'
import { IconBuilding, IconListSearch, IconLogout } from '@tabler/icons-react'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { SourcePicker } from './components/source-picker'
import { TeamServerBadge } from './components/team-server-badge'
import { StoreHealthBanner } from './components/store-health-banner'
import { type ReactNode, useState } from 'react'
import { createHashRouter, NavLink as RouterLink, Navigate, Outlet, RouterProvider } from 'react-router'
import { QueryState } from './components/query-state'
import { IconHeadset, IconLayoutDashboard } from '@tabler/icons-react'
import { prefetchCallLogRows } from './features/call-logs/call-log-rows-query'
import { SignIn } from './features/sign-in/sign-in'
import { clearToken, getToken } from './lib/auth'
import { useTRPC } from './lib/trpc'
import { IconDatabaseImport, IconPhone, IconPlugConnected, IconPhoneCall, IconSettings, IconUsersGroup } from '@tabler/icons-react'

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
          <Group gap="md">
            {whoami.data && window.callscope?.desktop && <TeamServerBadge />}
            {whoami.data && <SourcePicker />}
            {whoami.data && (
              <Text size="xs" c="dimmed" data-testid="signed-in-as">
                {whoami.data.role}
                {whoami.data.tenantId ? ` · tenant ${whoami.data.tenantId.slice(0, 8)}` : ''}
              </Text>
            )}
          </Group>
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
        {whoami.data && <StoreHealthBanner />}
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

/**
 * A route whose page is its own chunk, loaded when first visited: the console's first script holds
 * the shell, the router and the data layer, not every page and chart library, so a new tab draws
 * sooner. The router starts loading the chunk as soon as it matches, beside the page's queries.
 */
function page<M extends Record<string, unknown>>(load: () => Promise<M>, name: keyof M & string) {
  return async () => ({ Component: (await load())[name] as React.ComponentType })
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
      { path: 'overview', lazy: page(() => import('./features/overview/overview-page'), 'OverviewPage') },
      { path: 'agents', lazy: page(() => import('./features/agents/agents-page'), 'AgentsPage') },
      { path: 'agents/:agentId', lazy: page(() => import('./features/agents/agent-page'), 'AgentPage') },
      { path: 'sessions/:conversationId', lazy: page(() => import('./features/agents/transcript-page'), 'TranscriptPage') },
      { path: 'tenants', lazy: page(() => import('./features/tenants/tenants-page'), 'TenantsPage') },
      { path: 'calls', lazy: page(() => import('./features/calls/calls-page'), 'CallsPage') },
      { path: 'calls/:callId', lazy: page(() => import('./features/calls/call-page'), 'CallPage') },
      { path: 'logs', lazy: page(() => import('./features/call-logs/call-logs-page'), 'CallLogsPage') },
      { path: 'tenants/:tenantId', lazy: page(() => import('./features/tenants/tenant-profile-page'), 'TenantProfilePage') },
      { path: 'squads', lazy: page(() => import('./features/squads/squads-page'), 'SquadsPage') },
      { path: 'squads/:squadId', lazy: page(() => import('./features/squads/squad-page'), 'SquadPage') },
      { path: 'providers', lazy: page(() => import('./features/providers/providers-page'), 'ProvidersPage') },
      { path: 'sip-trunks', lazy: page(() => import('./features/sip-trunks/sip-trunks-page'), 'SipTrunksPage') },
      { path: 'data', lazy: page(() => import('./features/data/data-page'), 'DataPage') },
      { path: 'settings', lazy: page(() => import('./features/settings/settings-page'), 'SettingsPage') },
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
