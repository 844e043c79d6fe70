import { parseExplorerParams, viewOfState } from '../../../src-shared/explorer-state'
import { parseLogQuery } from '../../../src-shared/log-query/parser'
import type { CallLogFilterInput } from '../../../src-shared/schemas/call-log-search'
import { toFilter } from './to-filter'
import { PAGE_PARAMS } from './use-call-log-view'

/** The rows' filter of a call logs link, read as the page reads it (bad parts left out). */
export const filterOfLink = (search: string): CallLogFilterInput => toFilter(viewOfState(parseExplorerParams(new URLSearchParams(search), PAGE_PARAMS).state))

/** Whether the page will ask for these rows: not when the link's query does not parse (the query box says where, nothing is sent). */
export const asksForRows = (filter: CallLogFilterInput): boolean => !filter.query || parseLogQuery(filter.query).ok
