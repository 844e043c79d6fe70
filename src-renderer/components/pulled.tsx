import { Alert, Badge, type BadgeProps, Text } from '@mantine/core'
import { IconCloudDownload } from '@tabler/icons-react'
import type { ReactNode } from 'react'

/** The mark of a record known only from a pull (issue 15), saying from where on hover. */
export function PulledBadge({ title, testId, ...props }: { title: string; testId: string } & BadgeProps) {
  return (
    <Badge color="grape" variant="light" tt="none" title={title} data-testid={testId} {...props}>
      pulled
    </Badge>
  )
}

/** What a page shows as pulled: from where, and what that means for what is on it. */
export function PulledNote({ source, testId, children }: { source: string; testId: string; children: ReactNode }) {
  return (
    <Alert color="grape" variant="light" icon={<IconCloudDownload size={16} />} title={`Pulled from ${source}`} data-testid={testId}>
      <Text size="sm">{children}</Text>
    </Alert>
  )
}
