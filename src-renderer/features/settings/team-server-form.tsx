import { Alert, Badge, Button, Code, Group, PasswordInput, Stack, Text, Textarea, TextInput } from '@mantine/core'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { type FormEvent, useState } from 'react'
import { formatTimestamp } from '../../lib/format'
import { setSource } from '../../lib/source-scope'
import { useTRPC } from '../../lib/trpc'
import { Fields } from '../../components/section'

/**
 * Settings → Team server (desktop app only): read a team's shared Callscope instead of the local
 * store, and go back. Everything the console shows is then the server's, under the token given
 * here; the token is sealed on this machine and never shown again.
 */
export function TeamServerForm() {
  const trpc = useTRPC()
  const queryClient = useQueryClient()
  const status = useQuery(trpc.settings.teamServer.queryOptions())
  const [url, setUrl] = useState('')
  const [token, setToken] = useState('')
  const [certificate, setCertificate] = useState('')
  // Every cached answer came from the other store: drop them all, and the source picked there.
  const switched = () => {
    setSource(null)
    queryClient.removeQueries({ type: 'inactive' })
    void queryClient.resetQueries()
  }
  const connect = useMutation(trpc.settings.connectTeamServer.mutationOptions({ onSuccess: () => { setToken(''); switched() } }))
  const disconnect = useMutation(trpc.settings.disconnectTeamServer.mutationOptions({ onSuccess: switched }))
  if (!status.data) return null
  const submit = (event: FormEvent) => {
    event.preventDefault()
    connect.mutate({ url, token, certificate: certificate.trim() || undefined })
  }
  if (status.data.url) {
    const connected = status.data
    return (
      <Stack gap="xs" data-testid="team-server-connected">
        <Fields
          rows={[
            ['Status', <Badge key="s" color="teal">connected</Badge>],
            ['Server', <Code key="u" style={{ wordBreak: 'break-all' }} data-testid="team-server-url">{connected.url}</Code>],
            ['Version', connected.serverVersion ?? 'unknown'],
            ['Since', connected.connectedAt ? formatTimestamp(connected.connectedAt) : '—'],
            ['Certificate', connected.pinnedCertificate ? 'the pasted certificate' : 'trusted authorities'],
          ]}
        />
        <Text size="xs" c="dimmed">
          Every page shows the team server’s data, read with the token given when connecting. This machine’s own store is untouched.
        </Text>
        <Group>
          <Button variant="default" onClick={() => disconnect.mutate()} loading={disconnect.isPending} data-testid="team-server-disconnect">
            Disconnect and use the local store
          </Button>
        </Group>
      </Stack>
    )
  }
  return (
    <form onSubmit={submit} data-testid="team-server-form">
      <Stack gap="xs">
        <Text size="xs" c="dimmed">
          Read a team’s shared Callscope (<Code fz="xs">callscope serve</Code> on a server) instead of this machine’s store. Switch back at any time.
        </Text>
        <TextInput label="Server address" placeholder="https://callscope.example.internal:8787" value={url} onChange={(e) => setUrl(e.currentTarget.value)} required data-testid="team-server-address" />
        <PasswordInput label="Token" description="Issued on the server: callscope token create" value={token} onChange={(e) => setToken(e.currentTarget.value)} required data-testid="team-server-token" />
        <Textarea
          label="Server certificate (optional)"
          description="Only for a server whose certificate no known authority signed: paste it in PEM form to trust it for this server."
          placeholder="-----BEGIN CERTIFICATE-----"
          value={certificate}
          onChange={(e) => setCertificate(e.currentTarget.value)}
          autosize
          minRows={2}
          maxRows={6}
          styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)', fontSize: 11 } }}
          data-testid="team-server-certificate"
        />
        <Group>
          <Button type="submit" loading={connect.isPending} disabled={!url.trim() || !token.trim()} data-testid="team-server-connect">
            Connect
          </Button>
        </Group>
        {connect.error && (
          <Alert color="red" variant="light" data-testid="team-server-error">
            {connect.error.message}
          </Alert>
        )}
      </Stack>
    </form>
  )
}
