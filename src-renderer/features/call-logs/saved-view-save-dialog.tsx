import { Button, Group, Modal, Stack, Text, Textarea, TextInput } from '@mantine/core'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { type FormEvent, useState } from 'react'
import type { SavedViewState } from '../../../src-shared/explorer-state'
import { SAVED_VIEW_DESCRIPTION_MAX, SAVED_VIEW_NAME_MAX, savedViewInputSchema } from '../../../src-shared/schemas/saved-view'
import { useTRPC } from '../../lib/trpc'

interface SaveViewDialogProps {
  opened: boolean
  onClose: () => void
  /** The view as it is now. */
  state: SavedViewState
}

/** A field's message from the shared schema: the same limits the service holds the request to. */
function fieldProblems(name: string, description: string, state: SavedViewState): { name?: string; description?: string; state?: string } {
  const parsed = savedViewInputSchema.safeParse({ name, description, state })
  if (parsed.success) return {}
  const problems: Record<string, string> = {}
  for (const issue of parsed.error.issues) problems[String(issue.path[0])] ??= issue.message
  return problems
}

/** Saves the current view under a name (unique in the store, any case) with an optional description. */
export function SaveViewDialog({ opened, onClose, state }: SaveViewDialogProps) {
  const trpc = useTRPC()
  const queryClient = useQueryClient()
  const [name, setName] = useState('')
  const [description, setDescription] = useState('')
  const [tried, setTried] = useState(false)
  const create = useMutation(
    trpc.savedViews.create.mutationOptions({
      // The list read again names the view on screen ("View: …" beside the menu).
      onSuccess: () => {
        void queryClient.invalidateQueries({ queryKey: trpc.savedViews.list.queryKey() })
        setName('')
        setDescription('')
        setTried(false)
        onClose()
      },
    }),
  )
  const problems = tried ? fieldProblems(name, description, state) : {}
  const submit = (event: FormEvent) => {
    event.preventDefault()
    setTried(true)
    if (Object.keys(fieldProblems(name, description, state)).length > 0) return
    create.mutate({ name, description: description || null, state })
  }
  // The store's answer: a name another view has (CONFLICT) says which.
  const refused = create.error?.message
  return (
    <Modal opened={opened} onClose={onClose} title="Save view" size="md">
      <form onSubmit={submit} noValidate data-testid="save-view-form">
        <Stack gap="sm">
          <TextInput
            label="Name"
            required
            data-autofocus
            maxLength={SAVED_VIEW_NAME_MAX + 20}
            value={name}
            onChange={(e) => {
              setName(e.currentTarget.value)
              create.reset()
            }}
            error={problems.name ?? refused}
            data-testid="save-view-name"
          />
          <Textarea
            label="Description"
            description="Optional: what the view is for"
            autosize
            minRows={2}
            maxRows={6}
            value={description}
            onChange={(e) => setDescription(e.currentTarget.value)}
            error={problems.description && `At most ${SAVED_VIEW_DESCRIPTION_MAX} characters`}
            data-testid="save-view-description"
          />
          {problems.state && (
            <Text size="xs" c="red">
              This view cannot be saved: {problems.state}. Correct the query or the range first.
            </Text>
          )}
          <Text size="xs" c="dimmed">
            Saved in this store for everyone who signs in to it: the query, range, filters, columns, facet key, time zone and Live. The open line is not part of a view; copy the link for that.
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={create.isPending} data-testid="save-view-submit">
              Save
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  )
}
