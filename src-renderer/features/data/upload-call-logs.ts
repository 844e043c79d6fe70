import type { ImportReport } from '../../lib/api-types'
import { getToken } from '../../lib/auth'

/**
 * Streams a picked file to the listener's import route with the tab's token. The browser sends
 * the File from disk as the body; the server validates and stores it record by record.
 */
export async function uploadCallLogs(file: File): Promise<ImportReport> {
  const token = getToken()
  const response = await fetch(`/imports/call-logs?file_name=${encodeURIComponent(file.name)}`, {
    method: 'POST',
    body: file,
    headers: { 'Content-Type': 'application/octet-stream', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
  })
  const answer = (await response.json().catch(() => null)) as (ImportReport & { detail?: unknown; import?: ImportReport }) | null
  if (response.status === 422 && answer?.import) return answer.import
  if (!response.ok || !answer) {
    const detail = typeof answer?.detail === 'string' ? answer.detail : `the server answered ${response.status}`
    throw new Error(`Import failed: ${detail}`)
  }
  return answer
}
