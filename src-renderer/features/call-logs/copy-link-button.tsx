import { Button, Popover, Stack, Text, TextInput } from '@mantine/core'
import { IconLink } from '@tabler/icons-react'
import { useState } from 'react'
import type { ExplorerState } from '../../../src-shared/explorer-state'
import { useTRPCClient } from '../../lib/trpc'
import { viewRoute } from './link-route'

/**
 * Where a colleague opens the view: in a browser, this console's own address; in the desktop app,
 * its listener's console when it listens, else the hash route alone (Views → Open a link… takes it).
 */
async function permalink(state: ExplorerState, listenerUrl: () => Promise<string | null>): Promise<string> {
  if (!window.callscope?.desktop) return `${window.location.origin}${window.location.pathname}${viewRoute(state)}`
  const base = await listenerUrl().catch(() => null)
  return base ? `${base.replace(/\/$/, '')}/console/${viewRoute(state)}` : viewRoute(state)
}

/**
 * Copies the view's link: its whole state (query, range, filters, columns, facet key, zone, open
 * line, live), however much of it the address bar shows. The link stays shown beside, selected,
 * to copy by hand where the clipboard is refused (a page served over plain HTTP to another host).
 */
export function CopyLinkButton({ state }: { state: ExplorerState }) {
  const client = useTRPCClient()
  const [link, setLink] = useState<string | null>(null)
  const [copied, setCopied] = useState(false)
  const copy = async () => {
    const text = await permalink(state, async () => (await client.settings.listener.query()).url)
    setLink(text)
    try {
      await navigator.clipboard.writeText(text)
      setCopied(true)
    } catch {
      setCopied(false)
    }
  }
  return (
    <Popover opened={link !== null} onChange={(o) => !o && setLink(null)} position="bottom-end" width={440} shadow="md" withArrow trapFocus returnFocus>
      <Popover.Target>
        <Button size="xs" variant="default" leftSection={<IconLink size={14} />} onClick={() => void copy()} data-testid="copy-link">
          Copy link
        </Button>
      </Popover.Target>
      <Popover.Dropdown data-testid="copied-link">
        <Stack gap={4}>
          <Text size="xs" role="status">
            {copied ? 'Link copied. It opens this view with everything on the page.' : 'Copy the link below: the clipboard was not available.'}
          </Text>
          <TextInput size="xs" readOnly aria-label="Link to this view" value={link ?? ''} onFocus={(e) => e.currentTarget.select()} data-autofocus data-testid="copied-link-text" />
        </Stack>
      </Popover.Dropdown>
    </Popover>
  )
}
