import { Anchor, AppShell, Burger, Group, NavLink, ScrollArea, Stack, Text, Title } from '@mantine/core'
import { useDisclosure } from '@mantine/hooks'
import { IconBuilding, IconLogout } from '@tabler/icons-react'
import { useQuery } from '@tanstack/react-query'
import { type ReactNode, useState } from 'react'
import { createHashRouter, NavLink as RouterLink, Navigate, Outlet, RouterProvider } from 'react-router'
import { QueryState } from './components/query-state'
import { SignIn } from './features/sign-in/sign-in'
import { TenantProfilePage } from './features/tenants/tenant-profile-page'
import { TenantsPage } from './features/tenants/tenants-page'
import { clearToken } from './lib/auth'
import { useTRPC } from './lib/trpc'

/** Navigation entries, in the order a support engineer reaches for them. */
const NAV: Array<{ to: string; label: string; icon: ReactNode }> = [
  { to: '/tenants', label: 'Tenants', icon: <IconBuilding size={16} /> },
]

function Layout() {
  const [opened, { toggle }] = useDisclosure()
  const trpc = useTRPC()
  const whoami = useQuery(trpc.tokens.whoami.queryOptions())
  if (whoami.error?.data?.code === 'UNAUTHORIZED') return <SignIn />
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
        <AppShell.Section>
          <NavLink
            label="Sign out"
            leftSection={<IconLogout size={16} />}
            onClick={() => {
              clearToken()
              window.location.reload()
            }}
          />
        </AppShell.Section>
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
      { index: true, element: <Navigate to="/tenants" replace /> },
      { path: 'tenants', element: <TenantsPage /> },
      { path: 'tenants/:tenantId', element: <TenantProfilePage /> },
    ],
  },
])

export function App() {
  const [router] = useState(buildRouter)
  return <RouterProvider router={router} />
}
