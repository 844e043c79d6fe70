import { ActionIcon, Code, CopyButton, Group, Tooltip } from '@mantine/core'
import { IconCheck, IconCopy } from '@tabler/icons-react'

interface ShownOnceValueProps {
  value: string
  /** What it is, for the copy button's name: "token", "secret". */
  what: string
  testId: string
}

/** A secret shown only this once (a new token, a webhook signing secret), in full, with a copy button. */
export function ShownOnceValue({ value, what, testId }: ShownOnceValueProps) {
  return (
    <Group gap="xs" wrap="nowrap">
      <Code block style={{ flex: 1, wordBreak: 'break-all' }} data-testid={testId}>
        {value}
      </Code>
      <CopyButton value={value}>
        {({ copied, copy }) => (
          <Tooltip label={copied ? 'Copied' : 'Copy'}>
            <ActionIcon variant="light" color={copied ? 'teal' : 'indigo'} onClick={copy} aria-label={`Copy ${what}`} size="lg">
              {copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
            </ActionIcon>
          </Tooltip>
        )}
      </CopyButton>
    </Group>
  )
}
