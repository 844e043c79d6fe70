import { Alert, Button, Center, Paper, PasswordInput, Stack, Text, Title } from '@mantine/core'
import { useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { setToken } from '../../lib/auth'

/**
 * Shown when the tab has no valid token: paste one from `callscope serve` or `callscope token create`.
 * `refused` is the server's reason when the tab had a token and it stopped working (expired, revoked).
 */
export function SignIn({ refused }: { refused?: string | null }) {
  const [value, setValue] = useState('')
  const queryClient = useQueryClient()
  return (
    <Center h="100vh">
      <Paper withBorder p="xl" w={420}>
        <form
          onSubmit={(event) => {
            event.preventDefault()
            setToken(value)
            void queryClient.resetQueries()
          }}
        >
          <Stack>
            <Title order={3}>Sign in to Callscope</Title>
            {refused && (
              <Alert color="orange" title="This tab's token no longer works" data-testid="sign-in-refused">
                {refused}. Ask an admin for a new token (Settings → API tokens, or <code>callscope token create</code>) and
                paste it below.
              </Alert>
            )}
            <Text size="sm" c="dimmed">
              Open the sign-in link that <code>callscope serve</code> printed, or paste an API token (from the first
              start or <code>callscope token create</code>). It is kept for this tab only.
            </Text>
            <PasswordInput label="API token" value={value} onChange={(e) => setValue(e.currentTarget.value)} autoFocus required data-testid="token-input" />
            <Button type="submit" disabled={value.trim() === ''}>
              Sign in
            </Button>
          </Stack>
        </form>
      </Paper>
    </Center>
  )
}
