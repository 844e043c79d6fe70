import { Button, Group, Modal, Stack, Table, Text, TextInput, VisuallyHidden } from '@mantine/core'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { type FormEvent, useState } from 'react'
import type { SavedViewState } from '../../../src-shared/explorer-state'
import { savedViewPatchSchema } from '../../../src-shared/schemas/saved-view'
import type { RouterOutputs } from '../../lib/api-types'
import { useTRPC } from '../../lib/trpc'

export type SavedView = RouterOutputs['savedViews']['list'][number]

interface ManageViewsDialogProps {
  opened: boolean
  onClose: () => void
  views: SavedView[]
  /** The view as it is now, for "Update with current view". */
  state: SavedViewState
  canWrite: boolean
  onOpenView: (view: SavedView) => void
}

/**
 * Every saved view: open, rename, update with the current view, delete (after a confirmation in
 * its row). What was done is said in a status line, read out by screen readers.
 */
export function ManageViewsDialog({ opened, onClose, views, state, canWrite, onOpenView }: ManageViewsDialogProps) {
  const trpc = useTRPC()
  const queryClient = useQueryClient()
  const [renaming, setRenaming] = useState<{ id: string; name: string } | null>(null)
  const [deleting, setDeleting] = useState<string | null>(null)
  const [status, setStatus] = useState('')
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.savedViews.list.queryKey() })
  const update = useMutation(trpc.savedViews.update.mutationOptions({ onSuccess: () => void refresh() }))
  const remove = useMutation(trpc.savedViews.remove.mutationOptions({ onSuccess: () => void refresh() }))

  const rename = (event: FormEvent) => {
    event.preventDefault()
    if (!renaming) return
    const parsed = savedViewPatchSchema.safeParse({ name: renaming.name })
    if (!parsed.success) return setStatus(`Not renamed: ${parsed.error.issues[0]!.message}`)
    update.mutate(
      { id: renaming.id, patch: { name: renaming.name } },
      { onSuccess: (v) => { setRenaming(null); setStatus(`Renamed to “${v.name}”.`) }, onError: (e) => setStatus(`Not renamed: ${e.message}`) },
    )
  }
  const overwrite = (view: SavedView) =>
    update.mutate({ id: view.id, patch: { state } }, { onSuccess: () => setStatus(`“${view.name}” now holds the current view.`), onError: (e) => setStatus(`Not updated: ${e.message}`) })
  const confirmDelete = (view: SavedView) =>
    remove.mutate({ id: view.id }, { onSuccess: () => { setDeleting(null); setStatus(`Deleted “${view.name}”.`) }, onError: (e) => setStatus(`Not deleted: ${e.message}`) })

  return (
    <Modal opened={opened} onClose={onClose} title="Saved views" size="xl">
      <Stack gap="sm" data-testid="manage-views">
        {!canWrite && <Text size="xs" c="dimmed">Changing views needs an admin token; you can open them.</Text>}
        {views.length === 0 && <Text size="sm" c="dimmed">No saved views yet: use Views → Save view….</Text>}
        {views.length > 0 && (
          <Table verticalSpacing={4} horizontalSpacing="xs">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name</Table.Th>
                <Table.Th>Updated</Table.Th>
                <Table.Th>
                  <VisuallyHidden>Actions</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {views.map((view) => (
                <Table.Tr key={view.id} data-testid="saved-view-row" data-name={view.name}>
                  <Table.Td>
                    {renaming?.id === view.id ? (
                      <form onSubmit={rename}>
                        <Group gap={4} wrap="nowrap">
                          <TextInput size="xs" aria-label={`New name for ${view.name}`} value={renaming.name} onChange={(e) => setRenaming({ id: view.id, name: e.currentTarget.value })} data-autofocus data-testid="rename-input" />
                          <Button size="xs" type="submit" loading={update.isPending}>Save</Button>
                          <Button size="xs" variant="default" onClick={() => setRenaming(null)}>Cancel</Button>
                        </Group>
                      </form>
                    ) : (
                      <>
                        <Text size="sm" fw={500}>{view.name}</Text>
                        {view.description && <Text size="xs" c="dimmed">{view.description}</Text>}
                      </>
                    )}
                  </Table.Td>
                  <Table.Td>
                    <Text size="xs" ff="monospace" style={{ whiteSpace: 'nowrap' }}>{view.updated_at.slice(0, 16).replace('T', ' ')} UTC</Text>
                  </Table.Td>
                  <Table.Td>
                    {deleting === view.id ? (
                      <Group gap={4} wrap="nowrap" justify="flex-end">
                        <Text size="xs">Delete “{view.name}”?</Text>
                        <Button size="xs" color="red" loading={remove.isPending} onClick={() => confirmDelete(view)} data-testid="confirm-delete-view">Delete</Button>
                        <Button size="xs" variant="default" onClick={() => setDeleting(null)}>Keep</Button>
                      </Group>
                    ) : (
                      <Group gap={4} wrap="nowrap" justify="flex-end">
                        <Button size="xs" variant="light" onClick={() => onOpenView(view)} aria-label={`Open ${view.name}`}>Open</Button>
                        <Button size="xs" variant="default" disabled={!canWrite} onClick={() => setRenaming({ id: view.id, name: view.name })} aria-label={`Rename ${view.name}`}>Rename</Button>
                        <Button size="xs" variant="default" disabled={!canWrite} onClick={() => overwrite(view)} aria-label={`Update with current view: ${view.name}`}>Update with current</Button>
                        <Button size="xs" variant="light" color="red" disabled={!canWrite} onClick={() => setDeleting(view.id)} aria-label={`Delete ${view.name}`}>Delete</Button>
                      </Group>
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
        <Text size="xs" role="status" data-testid="manage-views-status">
          {status}
        </Text>
      </Stack>
    </Modal>
  )
}
