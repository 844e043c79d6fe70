import { SegmentedControl, Stack, Text, TextInput } from '@mantine/core'
import { type Ref, useEffect, useRef, useState } from 'react'
import type { CallLogViewParams } from '../../../src-shared/call-log-view'
import { presetOf, relativeOffsetMs, TIME_PRESETS } from '../../../src-shared/time-range'
import { formatBound, parseBoundInput, zoneLabel } from './format'
import { localTimeZone, type TimeZoneMode, useTimeZone } from './time-zone'

/*
 * The explorer's time: a preset (kept relative in the URL: `from=now-24h`), or From/To typed in the
 * chosen zone (instants, or `now-…`), and the zone itself: UTC or the viewer's, remembered.
 */

interface ViewProps {
  view: CallLogViewParams
  setView: (patch: Partial<CallLogViewParams>) => void
}

const ALL = 'all'
const CUSTOM = 'custom'
const RANGES = [...TIME_PRESETS.map((p) => ({ value: p.value as string, label: p.short, title: p.label })), { value: ALL, label: 'All', title: 'All time' }, { value: CUSTOM, label: 'Custom', title: 'Custom: type From and To' }]

/** The presets, All and Custom; Custom turns a preset into the instants it covers now and moves to From. */
export function TimeRangePresets({ view, setView, fromRef }: ViewProps & { fromRef: { current: HTMLInputElement | null } }) {
  const preset = presetOf(view)
  const range = preset ?? (view.from || view.to ? CUSTOM : ALL)
  const pick = (value: string) => {
    if (value === ALL) return setView({ from: undefined, to: undefined })
    if (value === CUSTOM) {
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
    <Stack gap={2} data-testid="time-range">
      <Text component="span" size="sm" fw={500} id="time-range-label">
        Time range
      </Text>
      <SegmentedControl size="xs" aria-labelledby="time-range-label" value={range} onChange={pick} data={RANGES.map((r) => ({ value: r.value, label: <span title={r.title}>{r.label}</span> }))} />
    </Stack>
  )
}

/** From and To, labelled with the zone they are read in. */
export function TimeBounds({ view, setView, fromRef }: ViewProps & { fromRef: Ref<HTMLInputElement> }) {
  const { timeZone } = useTimeZone()
  return (
    <>
      <BoundInput ref={fromRef} label={`From (${timeZone})`} value={view.from} timeZone={timeZone} endOfDay={false} onCommit={(from) => setView({ from })} />
      <BoundInput label={`To (${timeZone})`} value={view.to} timeZone={timeZone} endOfDay onCommit={(to) => setView({ to })} />
    </>
  )
}

/** UTC or the viewer's zone, named with its offset; and the zone a link named, while it is another. */
export function TimeZoneToggle() {
  const { mode, setMode, timeZone } = useTimeZone()
  const choices = [{ value: 'utc', label: 'UTC' }, { value: 'local', label: `Local (${zoneLabel(localTimeZone())})` }]
  if (mode === 'zone') choices.push({ value: 'zone', label: zoneLabel(timeZone) })
  return (
    <SegmentedControl
      size="xs"
      aria-label="Show times in"
      value={mode}
      onChange={(m) => setMode(m as TimeZoneMode)}
      data={choices}
      data-testid="time-zone-toggle"
    />
  )
}

/** A hook for the From box's element: Custom moves the keys there. */
export const useFromRef = () => useRef<HTMLInputElement>(null)

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
  const shown = formatBound(value, timeZone, endOfDay)
  const [text, setText] = useState(shown)
  const [error, setError] = useState<string | null>(null)
  // Typed since the last commit: a navigation that renders late (a transition) must not put the
  // old bound back over what is being typed.
  const typing = useRef(false)
  // What this box last sent and the page has not drawn yet, and whether the box says a bound is
  // wrong: when that navigation renders late, after a wrong bound was typed and refused, the
  // refusal must stay on screen (only a navigation from elsewhere resets the box).
  const sent = useRef<{ value: string | undefined } | null>(null)
  const refused = useRef(false)
  const showError = (message: string | null) => {
    refused.current = message !== null
    setError(message)
  }
  useEffect(() => {
    const ours = sent.current !== null && sent.current.value === value
    if (ours) sent.current = null
    if (typing.current || (ours && refused.current)) return
    setText(shown)
    showError(null)
  }, [shown])
  // The box's own value: a render may not have caught up with the last keystroke yet.
  const commit = (text: string) => {
    typing.current = false
    if (!text.trim()) {
      showError(null)
      if (value !== undefined) send(undefined)
      return
    }
    if (text === shown) return showError(null)
    const parsed = parseBoundInput(text, timeZone, endOfDay)
    if (parsed === null) return showError('Write a date (2026-11-20), a time (2026-11-20 09:30) or now-15m')
    showError(null)
    if (parsed !== value) send(parsed)
  }
  const send = (next: string | undefined) => {
    sent.current = { value: next }
    onCommit(next)
  }
  return (
    <TextInput
      ref={ref}
      label={label}
      size="xs"
      w={180}
      placeholder={endOfDay ? 'now' : 'now-1h, 2026-11-20'}
      value={text}
      error={error}
      onChange={(e) => {
        typing.current = true
        setText(e.currentTarget.value)
      }}
      onBlur={(e) => commit(e.currentTarget.value)}
      onKeyDown={(e) => e.key === 'Enter' && commit(e.currentTarget.value)}
    />
  )
}
