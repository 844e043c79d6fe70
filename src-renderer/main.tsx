import '@mantine/core/styles.css'
import '@mantine/charts/styles.css'
import { MantineProvider } from '@mantine/core'
import { QueryClientProvider } from '@tanstack/react-query'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { App } from './app'
import { captureTokenFromUrl } from './lib/auth'
import { createClients, TRPCProvider } from './lib/trpc'
import { cssVariablesResolver, theme } from './theme'

captureTokenFromUrl()
const { queryClient, trpcClient } = createClients()

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} defaultColorScheme="auto">
      <QueryClientProvider client={queryClient}>
        <TRPCProvider trpcClient={trpcClient} queryClient={queryClient}>
          <App />
        </TRPCProvider>
      </QueryClientProvider>
    </MantineProvider>
  </StrictMode>,
)
