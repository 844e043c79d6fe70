import { Alert, Stack, Text } from '@mantine/core'
import { IconAlertTriangle, IconDatabaseOff } from '@tabler/icons-react'
import { useQuery } from '@tanstack/react-query'
import { useTRPC } from '../lib/trpc'

/** How often the banner asks again: damage met by a read or a refused write shows up within this. */
const POLL_MS = 15_000

/**
 * On every page while the store is damaged or the disk refused the last write (issue 36): what is
 * wrong and what to do, in the server's own words (the same as a 503 or 507 says). An alert, so a
 * screen reader announces it when it appears.
 */
export function StoreHealthBanner() {
  const trpc = useTRPC()
  const health = useQuery({ ...trpc.storeHealth.status.queryOptions(), refetchInterval: POLL_MS })
  const { damage, writeFault } = health.data ?? { damage: null, writeFault: null }
  if (!damage && !writeFault) return null
  return (
    <Stack gap="xs" mb="md" data-testid="store-health-banner">
      {damage && (
        <Alert color="red" variant="light" icon={<IconDatabaseOff size={18} />} title="The store is damaged" role="alert" data-testid="store-damaged">
          <Text size="sm">{damage.message}</Text>
          <Text size="sm" mt={4}>
            Pages that read only undamaged parts keep working; a read that meets the damage fails with this message.
          </Text>
        </Alert>
      )}
      {writeFault && (
        <Alert color="orange" variant="light" icon={<IconAlertTriangle size={18} />} title="Writes are failing: the disk is full" role="alert" data-testid="store-write-fault">
          <Text size="sm">{writeFault.message}</Text>
          <Text size="sm" mt={4}>
            Reading keeps working. This goes away once the disk has room again.
          </Text>
        </Alert>
      )}
    </Stack>
  )
}
