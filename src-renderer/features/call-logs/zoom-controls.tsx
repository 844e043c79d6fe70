import { Button, Group } from '@mantine/core'
import { useEffect, useState } from 'react'
import type { CallLogViewParams } from '../../../src-shared/call-log-view'
import { presetOf, TIME_PRESETS, type TimePreset, zoomOut } from '../../../src-shared/time-range'

interface ZoomControlsProps {
  view: CallLogViewParams
  setView: (patch: Partial<CallLogViewParams>) => void
  /** The span the histogram charts (relative bounds resolved); absent until it is known. */
  shown?: { from?: string; to?: string }
}

/**
 * Zoom out (twice the span around its centre) and, after zooming in from a preset, back to that
 * preset. Buttons, so the keyboard has them too; the drag's keyboard equivalent is From/To.
 */
export function ZoomControls({ view, setView, shown }: ZoomControlsProps) {
  const current = presetOf(view)
  // The preset the range was last on: a drag or a zoom leaves it, this button returns to it.
  const [lastPreset, setLastPreset] = useState<TimePreset | null>(current)
  useEffect(() => {
    if (current) setLastPreset(current)
  }, [current])
  const span = shown?.from && shown.to ? { from: shown.from, to: shown.to } : null
  const back = lastPreset && !current ? TIME_PRESETS.find((p) => p.value === lastPreset) : undefined
  return (
    <Group gap={4} wrap="nowrap">
      <Button size="compact-xs" variant="subtle" disabled={!span || (!view.from && !view.to)} onClick={() => span && setView(zoomOut(view, span))}>
        Zoom out
      </Button>
      {back && (
        <Button size="compact-xs" variant="subtle" onClick={() => setView({ from: `now-${back.value}`, to: undefined })}>
          Back to {back.label.toLowerCase()}
        </Button>
      )}
    </Group>
  )
}
