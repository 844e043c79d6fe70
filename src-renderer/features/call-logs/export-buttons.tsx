import { Button, Group, Text } from '@mantine/core'
import { IconDownload } from '@tabler/icons-react'
import { useState } from 'react'
import { type CallLogViewParams, viewToSearchParams } from '../../../src-shared/call-log-view'
import { getToken } from '../../lib/auth'
import { formatNumber } from '../../lib/format'
import { useTRPCClient } from '../../lib/trpc'
import { toFilter } from './use-call-log-view'

/**
 * Downloads the filtered view from the listener's export routes with the tab's token. The body is
 * collected into a Blob (the browser keeps it on disk past a size), then saved through a link.
 */
async function download(format: 'csv' | 'ndjson', view: CallLogViewParams): Promise<void> {
  const token = getToken()
  const response = await fetch(`/export/call-logs.${format}?${viewToSearchParams(view).toString()}`, {
    headers: token ? { Authorization: `Bearer ${token}` } : {},
  })
  if (!response.ok) throw new Error(`Export failed (${response.status})`)
  const name = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? `call-logs.${format}`
  const url = URL.createObjectURL(await response.blob())
  const link = document.createElement('a')
  link.href = url
  link.download = name
  link.click()
  setTimeout(() => URL.revokeObjectURL(url), 10_000)
}

export function ExportButtons({ view }: { view: CallLogViewParams }) {
  const trpcClient = useTRPCClient()
  const [busy, setBusy] = useState<'csv' | 'ndjson' | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [saved, setSaved] = useState<string | null>(null)
  // The desktop app may have no listener: the main process asks where to save and writes the file.
  const saveFromDesktop = async (format: 'csv' | 'ndjson') => {
    const result = await trpcClient.callLogs.exportToFile.mutate({ filter: toFilter(view), format })
    if (result.path) setSaved(`${formatNumber(result.rows)} lines saved to ${result.path}`)
  }
  const run = (format: 'csv' | 'ndjson') => {
    setBusy(format)
    setError(null)
    setSaved(null)
    ;(window.callscope?.desktop ? saveFromDesktop(format) : download(format, view))
      .catch((e: unknown) => setError(e instanceof Error ? e.message : String(e)))
      .finally(() => setBusy(null))
  }
  return (
    <Group gap="xs">
      {error && (
        <Text size="xs" c="red">
          {error}
        </Text>
      )}
      {saved && (
        <Text size="xs" c="dimmed">
          {saved}
        </Text>
      )}
      <Button size="xs" variant="default" leftSection={<IconDownload size={14} />} loading={busy === 'csv'} onClick={() => run('csv')}>
        CSV
      </Button>
      <Button size="xs" variant="default" leftSection={<IconDownload size={14} />} loading={busy === 'ndjson'} onClick={() => run('ndjson')}>
        NDJSON
      </Button>
    </Group>
  )
}
