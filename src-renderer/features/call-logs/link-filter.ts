import { parseExplorerParams, viewOfState } from '../../../src-shared/explorer-state'
import type { CallLogFilterInput } from '../../../src-shared/schemas/call-log-search'
import { toFilter } from './to-filter'
import { PAGE_PARAMS } from './use-call-log-view'

/** The rows' filter of a call logs link, read as the page reads it (bad parts left out). */
export const filterOfLink = (search: string): CallLogFilterInput => toFilter(viewOfState(parseExplorerParams(new URLSearchParams(search), PAGE_PARAMS).state))
