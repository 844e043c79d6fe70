import { Group, SegmentedControl, Stack, Text, TextInput } from '@mantine/core'
import { type Ref, useEffect, useRef, useState } from 'react'
import type { CallLogViewParams } from '../../../src-shared/call-log-view'
import { presetOf, relativeOffsetMs, TIME_PRESETS } from '../../../src-shared/time-range'
import { formatBound, parseBoundInput, UTC, zoneLabel } from './format'
import { localTimeZone, type TimeZoneMode, useTimeZone } from './time-zone'

interface TimeRangeFieldsProps {
  view: CallLogViewParams
  setView: (patch: Partial<CallLogViewParams>) => void
}

const ALL = 'all'
const CUSTOM = 'custom'
const RANGES = [...TIME_PRESETS.map((p) => ({ value: p.value as string, label: p.short, title: p.label })), { value: ALL, label: 'All', title: 'All time' }, { value: CUSTOM, label: 'Custom', title: 'Custom: type From and To' }]

/**
 * The explorer's time: a preset (kept relative in the URL: `from=now-24h`), or From/To typed in the
 * chosen zone (instants, or `now-…`), and the zone itself: UTC or the viewer's, remembered.
 */
export function TimeRangeFields({ view, setView }: TimeRangeFieldsProps) {
  const { mode, timeZone, setMode } = useTimeZone()
  const fromRef = useRef<HTMLInputElement>(null)
  const preset = presetOf(view)
  const range = preset ?? (view.from || view.to ? CUSTOM : ALL)
  const zone = timeZone === UTC ? UTC : timeZone
  const pick = (value: string) => {
    if (value === ALL) return setView({ from: undefined, to: undefined })
    if (value === CUSTOM) {
      // A preset becomes the instants it covers now, to edit; the From box takes the keys.
      const back = relativeOffsetMs(view.from)
      if (back !== null && !view.to) {
        const now = Date.now()
        setView({ from: new Date(now - back).toISOString(), to: new Date(now).toISOString() })
      }
      fromRef.current?.focus()
      return
    }
    setView({ from: `now-${value}`, to: undefined })
  }
  return (
    <Group gap="sm" align="flex-end" wrap="wrap" data-testid="time-range">
      <Stack gap={2}>
        <Text component="span" size="xs" fw={500} id="time-range-label">
          Time range
        </Text>
        <SegmentedControl size="xs" aria-labelledby="time-range-label" value={range} onChange={pick} data={RANGES.map((r) => ({ value: r.value, label: <span title={r.title}>{r.label}</span> }))} />
      </Stack>
      <BoundInput ref={fromRef} label={`From (${zone})`} value={view.from} timeZone={timeZone} endOfDay={false} onCommit={(from) => setView({ from })} />
      <BoundInput label={`To (${zone})`} value={view.to} timeZone={timeZone} endOfDay onCommit={(to) => setView({ to })} />
      <Stack gap={2}>
        <Text component="span" size="xs" fw={500} id="time-zone-label">
          Times in
        </Text>
        <SegmentedControl
          size="xs"
          aria-labelledby="time-zone-label"
          value={mode}
          onChange={(m) => setMode(m as TimeZoneMode)}
          data={[{ value: 'utc', label: 'UTC' }, { value: 'local', label: `Local (${zoneLabel(localTimeZone())})` }]}
          data-testid="time-zone-toggle"
        />
      </Stack>
    </Group>
  )
}

interface BoundInputProps {
  label: string
  value?: string
  timeZone: string
  endOfDay: boolean
  onCommit: (value: string | undefined) => void
  ref?: Ref<HTMLInputElement>
}

/** A bound typed in the zone, committed on Enter or blur: half-typed dates never reach the server; a wrong one says what to write. */
function BoundInput({ label, value, timeZone, endOfDay, onCommit, ref }: BoundInputProps) {
  const shown = formatBound(value, timeZone)
  const [text, setText] = useState(shown)
  const [error, setError] = useState<string | null>(null)
  useEffect(() => {
    setText(shown)
    setError(null)
  }, [shown])
  const commit = () => {
    if (!text.trim()) {
      setError(null)
      if (value !== undefined) onCommit(undefined)
      return
    }
    if (text === shown) return
    const parsed = parseBoundInput(text, timeZone, endOfDay)
    if (parsed === null) return setError('Write a date (2026-11-20), a time (2026-11-20 09:30) or now-15m')
    setError(null)
    if (parsed !== value) onCommit(parsed)
  }
  return (
    <TextInput
      ref={ref}
      label={label}
      size="xs"
      w={200}
      placeholder={endOfDay ? 'now' : '2026-11-20 09:30 or now-1h'}
      value={text}
      error={error}
      onChange={(e) => setText(e.currentTarget.value)}
      onBlur={commit}
      onKeyDown={(e) => e.key === 'Enter' && commit()}
    />
  )
}
