import { Button, Center, Paper, PasswordInput, Stack, Text, Title } from '@mantine/core'
import { useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { setToken } from '../../lib/auth'

/** Shown when the tab has no valid token: paste one from `callscope serve` or `callscope token create`. */
export function SignIn() {
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
