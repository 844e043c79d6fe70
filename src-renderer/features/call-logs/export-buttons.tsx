import { Button, Group, Text } from '@mantine/core'
import { IconDownload } from '@tabler/icons-react'
import { useState } from 'react'
import { type CallLogViewParams, viewToSearchParams } from '../../../src-shared/call-log-view'
import { getToken } from '../../lib/auth'

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
  const [busy, setBusy] = useState<'csv' | 'ndjson' | null>(null)
  const [error, setError] = useState<string | null>(null)
  const run = (format: 'csv' | 'ndjson') => {
    setBusy(format)
    setError(null)
    download(format, view)
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
      <Button size="xs" variant="default" leftSection={<IconDownload size={14} />} loading={busy === 'csv'} onClick={() => run('csv')}>
        CSV
      </Button>
      <Button size="xs" variant="default" leftSection={<IconDownload size={14} />} loading={busy === 'ndjson'} onClick={() => run('ndjson')}>
        NDJSON
      </Button>
    </Group>
  )
}
