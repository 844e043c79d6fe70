import { Alert, Button, Code, Group, Modal, PasswordInput, Stack, Text } from '@mantine/core'
import { IconKey, IconRefresh } from '@tabler/icons-react'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { type FormEvent, useState } from 'react'
import { QueryState } from '../../components/query-state'
import { formatTimestamp } from '../../lib/format'
import { useTRPC } from '../../lib/trpc'
import { ShownOnceValue } from '../../components/shown-once-value'

/**
 * The tenant's signing secret: whether one is set (its hint, never the secret), and for admins
 * the ways to make, rotate or set it. A made secret is shown once, in a dialog, as tokens are.
 */
export function WebhookSecret({ tenantId, isAdmin }: { tenantId: string; isAdmin: boolean }) {
  const trpc = useTRPC()
  const queryClient = useQueryClient()
  const status = useQuery(trpc.webhooks.secret.queryOptions({ tenantId }))
  const [shown, setShown] = useState<{ secret: string; replaced: boolean } | null>(null)
  const [opened, setOpened] = useState(false)
  const [confirmRotate, setConfirmRotate] = useState(false)
  const [given, setGiven] = useState('')
  const set = useMutation(
    trpc.webhooks.setSecret.mutationOptions({
      onSuccess: (made, input) => {
        queryClient.setQueryData(trpc.webhooks.secret.queryKey({ tenantId }), { tenant_id: made.tenant_id, configured: true, hint: made.hint, created_at: made.created_at })
        setConfirmRotate(false)
        if (input.secret) {
          setGiven('')
          return
        }
        setShown({ secret: made.secret, replaced: made.replaced })
        setOpened(true)
      },
    }),
  )
  const setGivenSecret = (event: FormEvent) => {
    event.preventDefault()
    set.mutate({ tenantId, secret: given.trim() })
  }
  return (
    <QueryState query={status}>
      {(s) => (
        <Stack gap="sm" data-testid="webhook-secret">
          <Text size="sm" data-testid="secret-status">
            {s.configured ? (
              <>
                Set: <Code>{s.hint}</Code>, since {formatTimestamp(s.created_at!)}. It signs test-sends and verifies what the inbox receives.
              </>
            ) : (
              'No signing secret yet: test-sends cannot be signed and the inbox refuses everything.'
            )}
          </Text>
          {isAdmin && (
            <>
              <Group gap="xs">
                <Button
                  size="xs"
                  leftSection={s.configured ? <IconRefresh size={14} /> : <IconKey size={14} />}
                  loading={set.isPending && !given}
                  onClick={() => (s.configured ? setConfirmRotate(true) : set.mutate({ tenantId }))}
                  data-testid="secret-create"
                >
                  {s.configured ? 'Rotate secret' : 'Create secret'}
                </Button>
              </Group>
              <form onSubmit={setGivenSecret}>
                <Group gap="xs" align="flex-end">
                  <PasswordInput
                    size="xs"
                    label="Or set your backend's secret"
                    placeholder="whsec_…"
                    value={given}
                    onChange={(e) => setGiven(e.currentTarget.value)}
                    w={280}
                    data-testid="secret-given"
                  />
                  <Button size="xs" variant="default" type="submit" disabled={!given.trim()} data-testid="secret-set">
                    Set
                  </Button>
                </Group>
              </form>
              {set.error && (
                <Text c="red" size="xs" data-testid="secret-error">
                  {set.error.message}
                </Text>
              )}
            </>
          )}
          <Modal opened={confirmRotate} onClose={() => setConfirmRotate(false)} title="Rotate the signing secret?">
            <Stack gap="sm">
              <Text size="sm">The current secret ({s.hint}) stops signing and verifying at once. Receivers must switch to the new one.</Text>
              <Group justify="flex-end">
                <Button variant="default" onClick={() => setConfirmRotate(false)}>
                  Cancel
                </Button>
                <Button color="red" loading={set.isPending} onClick={() => set.mutate({ tenantId })} data-testid="secret-rotate-confirm">
                  Rotate
                </Button>
              </Group>
            </Stack>
          </Modal>
          <Modal opened={opened} onClose={() => setOpened(false)} title="Signing secret" size="lg" closeOnClickOutside={false}>
            <Stack gap="sm">
              <Alert color="yellow" variant="light">
                Copy it now: it is shown only this once. Callscope keeps it sealed and shows only its hint from now on.
                {shown?.replaced ? ' The previous secret no longer works.' : ''}
              </Alert>
              <ShownOnceValue value={shown?.secret ?? ''} what="secret" testId="new-secret" />
              <Text size="xs" c="dimmed">
                Receivers verify <Code fz="xs">webhook-signature</Code> with it (any Standard Webhooks library).
              </Text>
              <Group justify="flex-end">
                <Button onClick={() => setOpened(false)} data-testid="close-new-secret">
                  Done
                </Button>
              </Group>
            </Stack>
          </Modal>
        </Stack>
      )}
    </QueryState>
  )
}
