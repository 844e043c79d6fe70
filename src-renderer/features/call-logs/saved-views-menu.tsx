import { Button, Group, Menu, Text } from '@mantine/core'
import { IconBookmark, IconCheck, IconChevronDown, IconDeviceFloppy, IconExternalLink, IconSettings } from '@tabler/icons-react'
import { useQuery } from '@tanstack/react-query'
import { useMemo, useState } from 'react'
import { type SavedViewState, sameExplorerState } from '../../../src-shared/explorer-state'
import { errorCode } from '../../components/section'
import { useTRPC } from '../../lib/trpc'
import { OpenLinkDialog } from './open-link-dialog'
import { SaveViewDialog } from './saved-view-save-dialog'
import { ManageViewsDialog, type SavedView } from './saved-views-manage-dialog'

interface SavedViewsMenuProps {
  /** The view as it is now (without the open line). */
  state: SavedViewState
  onOpen: (state: SavedViewState) => void
}

/**
 * The explorer's saved views (issue 17 pt 5): open one, save the current view, manage them, open
 * a link. The view on screen is named when it is exactly a saved one.
 */
export function SavedViewsMenu({ state, onOpen }: SavedViewsMenuProps) {
  const trpc = useTRPC()
  const whoami = useQuery(trpc.tokens.whoami.queryOptions())
  // A tenant token may not read views (they are store-wide): not asked, so no refusal is logged.
  const tenantToken = whoami.data?.role === 'tenant'
  const views = useQuery({ ...trpc.savedViews.list.queryOptions(), enabled: whoami.isSuccess && !tenantToken })
  const canWrite = whoami.data?.role === 'admin'
  const [dialog, setDialog] = useState<'save' | 'manage' | 'link' | null>(null)
  const list = views.data ?? []
  // A view saved without a zone (over REST) opens in the viewer's own: any zone shown is its.
  const current = useMemo(() => list.find((v) => sameExplorerState(v.state, v.state.tz ? state : { ...state, tz: undefined })), [list, state])
  const open = (view: SavedView) => {
    setDialog(null)
    onOpen(view.state)
  }
  const forbidden = tenantToken || errorCode(views.error) === 'FORBIDDEN'

  return (
    <Group gap="xs" wrap="nowrap">
      <Text size="xs" c="dimmed" role="status" data-testid="current-view" maw={220} truncate="end">
        {current ? `View: ${current.name}` : ''}
      </Text>
      <Menu position="bottom-end" width={300} shadow="md" withinPortal withInitialFocusPlaceholder={false}>
        <Menu.Target>
          <Button size="xs" variant="default" leftSection={<IconBookmark size={14} />} rightSection={<IconChevronDown size={12} />} data-testid="saved-views-button">
            Views
          </Button>
        </Menu.Target>
        <Menu.Dropdown data-testid="saved-views-menu">
          <Menu.Label>Saved views</Menu.Label>
          {forbidden && <Text size="xs" c="dimmed" px="sm" py={4}>Saved views need an admin or viewer token.</Text>}
          {views.isError && !forbidden && <Text size="xs" c="red" px="sm" py={4}>Views not loaded: {views.error.message}</Text>}
          {views.isSuccess && list.length === 0 && <Text size="xs" c="dimmed" px="sm" py={4}>None yet.</Text>}
          {list.map((view) => (
            <Menu.Item
              key={view.id}
              onClick={() => open(view)}
              leftSection={view.id === current?.id ? <IconCheck size={14} aria-label="Shown now" /> : <span style={{ width: 14 }} />}
              title={view.description ?? undefined}
              data-testid="saved-view-item"
            >
              <Text size="sm" truncate="end" maw={240}>{view.name}</Text>
            </Menu.Item>
          ))}
          <Menu.Divider />
          <Menu.Item leftSection={<IconDeviceFloppy size={14} />} disabled={!canWrite || forbidden} onClick={() => setDialog('save')} data-testid="save-view">
            {canWrite ? 'Save current view…' : 'Save current view (admin token)'}
          </Menu.Item>
          <Menu.Item leftSection={<IconSettings size={14} />} disabled={forbidden} onClick={() => setDialog('manage')} data-testid="manage-views-item">
            Manage views…
          </Menu.Item>
          <Menu.Item leftSection={<IconExternalLink size={14} />} onClick={() => setDialog('link')} data-testid="open-link">
            Open a link…
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>
      <SaveViewDialog opened={dialog === 'save'} onClose={() => setDialog(null)} state={state} />
      <ManageViewsDialog opened={dialog === 'manage'} onClose={() => setDialog(null)} views={list} state={state} canWrite={canWrite} onOpenView={open} />
      <OpenLinkDialog opened={dialog === 'link'} onClose={() => setDialog(null)} />
    </Group>
  )
}
