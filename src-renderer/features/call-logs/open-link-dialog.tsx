import { Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core'
import { type FormEvent, useState } from 'react'
import { useNavigate } from 'react-router'
import { routeOfLink } from './link-route'

/**
 * Opens a link to a view in this console: how the desktop app, which has no address bar, opens a
 * link a colleague sent (Copy link gives the same kind of link).
 */
export function OpenLinkDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const navigate = useNavigate()
  const [text, setText] = useState('')
  const [problem, setProblem] = useState<string | null>(null)
  const submit = (event: FormEvent) => {
    event.preventDefault()
    const route = routeOfLink(text)
    if (!route) return setProblem('Paste a Callscope link: it holds #/logs? and the view, as Copy link writes it')
    setProblem(null)
    setText('')
    onClose()
    void navigate(route)
  }
  return (
    <Modal opened={opened} onClose={onClose} title="Open a link" size="lg">
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <TextInput
            label="Link to a view"
            placeholder="http://127.0.0.1:8787/console/#/logs?query=… or #/logs?query=…"
            data-autofocus
            value={text}
            onChange={(e) => setText(e.currentTarget.value)}
            error={problem}
            data-testid="open-link-input"
          />
          <Text size="xs" c="dimmed">
            Opens the view in this console, over this console's own store.
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" data-testid="open-link-submit">
              Open
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  )
}
