import { Select, Text } from '@mantine/core'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { getSource, setSource } from '../lib/source-scope'
import { useTRPC } from '../lib/trpc'

const EVERY = '*'

/** A backend's base URL without its scheme: what fits in the header. */
const short = (url: string) => url.replace(/^https?:\/\//, '')

/**
 * Which source the console shows (issue 15 pt 4): every source, the store's own, or one backend it
 * mirrors. Shown once the store holds more than its own rows. Changing it reloads every query, so
 * no page keeps another source's rows; a token bound to a source shows it, fixed.
 */
export function SourcePicker() {
  const trpc = useTRPC()
  const queryClient = useQueryClient()
  const [chosen, setChosen] = useState(getSource)
  const listed = useQuery(trpc.sources.list.queryOptions())
  const data = listed.data
  if (!data || data.sources.length < 2) return null
  if (data.bound) {
    return (
      <Text size="xs" c="dimmed" data-testid="source-bound">
        Source: {data.current === 'local' ? 'this store' : short(data.current ?? '')}
      </Text>
    )
  }
  const options = [
    { value: EVERY, label: 'All sources' },
    ...data.sources.map((s) => ({ value: s.name, label: s.kind === 'local' ? 'This store (local)' : short(s.name) })),
  ]
  // A choice the store no longer has (another store opened since) reads as every source.
  const value = chosen !== null && data.sources.some((s) => s.name === chosen) ? chosen : EVERY
  return (
    <Select
      size="xs"
      w={260}
      aria-label="Source shown"
      leftSection={<Text size="xs" c="dimmed" pl={6}>Source</Text>}
      leftSectionWidth={56}
      allowDeselect={false}
      data={options}
      value={value}
      onChange={(next) => {
        const source = next === null || next === EVERY ? null : next
        setSource(source)
        setChosen(source)
        // Every cached answer belongs to the source being left.
        void queryClient.resetQueries()
      }}
      data-testid="source-picker"
    />
  )
}
