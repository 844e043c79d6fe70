import { Group } from '@mantine/core'
import { useQuery } from '@tanstack/react-query'
import { useMemo } from 'react'
import { columnsOf, type ExplorerState, type SavedViewState } from '../../../src-shared/explorer-state'
import type { CallLogFilterInput } from '../../../src-shared/schemas/call-log-search'
import { useTRPC } from '../../lib/trpc'
import { ColumnChooser } from './column-chooser'
import { CopyLinkButton } from './copy-link-button'
import { SavedViewsMenu } from './saved-views-menu'
import { useTimeZone } from './time-zone'

interface ViewControlsProps {
  state: ExplorerState
  filter: CallLogFilterInput
  setState: (patch: Partial<ExplorerState>) => void
  openState: (state: ExplorerState) => void
}

/**
 * The view as a thing to keep (issue 17 pt 5): saved views, its link, its columns. The state they
 * keep names the zone the times are shown in, whether the address bar says it or the viewer's
 * remembered choice does, so a link or a view opens the same times for whoever opens it.
 */
export function ViewControls({ state, filter, setState, openState }: ViewControlsProps) {
  const trpc = useTRPC()
  const { timeZone } = useTimeZone()
  const whole = useMemo(() => {
    const { q: _legacy, ...rest } = state
    return { ...rest, tz: timeZone }
  }, [state, timeZone])
  const saved = useMemo((): SavedViewState => {
    const { line: _line, ...rest } = whole
    return rest
  }, [whole])
  // The keys the facet panel counted for this filter, from the cache (not asked for again).
  const keys = useQuery({ ...trpc.callLogs.detailsKeys.queryOptions({ filter }), enabled: false })
  const detailsKeys = useMemo(() => (keys.data?.keys ?? []).map((k) => k.key), [keys.data])
  return (
    <Group gap="xs" wrap="nowrap">
      <SavedViewsMenu state={saved} onOpen={openState} />
      <CopyLinkButton state={whole} />
      <ColumnChooser columns={columnsOf(state)} setColumns={(cols) => setState({ cols })} detailsKeys={detailsKeys} />
    </Group>
  )
}
