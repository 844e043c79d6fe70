import { Alert, List, Text } from '@mantine/core'
import { IconLinkOff } from '@tabler/icons-react'
import type { IgnoredPart } from '../../../src-shared/explorer-state'

/**
 * What a link held that the explorer could not read (src-shared/explorer-state.ts): said, with
 * why, while the rest of the link is shown. The address no longer holds those parts.
 */
export function LinkNotice({ ignored, onClose }: { ignored: IgnoredPart[]; onClose: () => void }) {
  if (ignored.length === 0) return null
  return (
    <Alert
      variant="light"
      color="yellow"
      icon={<IconLinkOff size={16} />}
      title="Part of this link was left out"
      withCloseButton
      closeButtonLabel="Dismiss"
      onClose={onClose}
      p="xs"
      data-testid="link-notice"
    >
      <Text size="xs">The rest of the view opened as the link holds it. Left out:</Text>
      <List size="xs" spacing={0}>
        {ignored.map((part, i) => (
          <List.Item key={`${part.param}-${i}`}>
            <Text span size="xs" ff="monospace">
              {part.param}={part.value}
            </Text>
            {`: ${part.reason}`}
          </List.Item>
        ))}
      </List>
    </Alert>
  )
}
