import { Alert, Center, Loader, Text } from '@mantine/core'
import { IconAlertTriangle } from '@tabler/icons-react'
import type { UseQueryResult } from '@tanstack/react-query'
import type { ReactNode } from 'react'

interface QueryStateProps<T> {
  query: UseQueryResult<T, { message: string }>
  /** Shown instead of the content when this returns true for the data. */
  isEmpty?: (data: T) => boolean
  /** What the empty state says: a string is shown dimmed, as every list's "nothing here" line is. */
  empty?: ReactNode
  children: (data: T) => ReactNode
}

/** Loading, error and empty states in one place, so every page has all three. */
export function QueryState<T>({ query, isEmpty, empty, children }: QueryStateProps<T>) {
  if (query.isPending) {
    return (
      <Center h={160} data-testid="loading">
        <Loader size="sm" />
      </Center>
    )
  }
  if (query.isError) {
    return (
      <Alert color="red" icon={<IconAlertTriangle size={16} />} title="Could not load this" data-testid="error-state">
        {query.error.message}
      </Alert>
    )
  }
  if (isEmpty?.(query.data)) {
    return (
      <Center h={120} data-testid="empty-state">
        {typeof empty === 'string' || empty === undefined ? <Text c="dimmed">{empty ?? 'Nothing here yet.'}</Text> : empty}
      </Center>
    )
  }
  return <>{children(query.data)}</>
}
