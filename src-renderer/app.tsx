import { useEffect, useState } from 'react'

interface Health {
  status: string
  version: string
}

/** The console shell. Until the console pages land it shows what the service reports about itself. */
export function App() {
  const [health, setHealth] = useState<Health | null>(null)
  const [error, setError] = useState<string | null>(null)
  useEffect(() => {
    if (location.protocol === 'file:') return
    fetch('/healthz')
      .then((r) => r.json() as Promise<Health>)
      .then(setHealth, (e: unknown) => setError(String(e)))
  }, [])
  return (
    <main style={{ fontFamily: 'system-ui, sans-serif', margin: '3rem auto', maxWidth: 640, lineHeight: 1.5 }}>
      <h1>Callscope</h1>
      <p>Local-first operations console for voice-agent platforms.</p>
      {health && (
        <p>
          Service {health.status}, version {health.version}. The REST interface is documented at{' '}
          <a href="/docs">/docs</a>.
        </p>
      )}
      {error && <p role="alert">Could not reach the service: {error}</p>}
    </main>
  )
}
