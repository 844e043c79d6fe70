import type { QueryNode } from '../../../src-shared/log-query/ast'
import { InvalidInputError } from '../../kit/errors'
import { isIndexedDetailsPath } from './details-values'
import { type LogQueryFilter, textIndexOf } from './log-query'

/*
 * When a query runs past its budget, which part is slow: the terms no index serves (details keys
 * other than INDEXED_DETAILS_KEYS, NOT, a short run of punctuation), which SQLite checks line by line; or, when every part has an index,
 * the text terms that match so many lines that sorting them by time is the cost.
 */

/** The budget of one page of rows (explorer, export chunk) and of one aggregate, in ms. */
export const QUERY_BUDGET_MS = 2000

export class LogQueryTooSlowError extends InvalidInputError {
  constructor(
    message: string,
    /** The slow terms as written in the query. */
    readonly parts: string[],
  ) {
    super(message)
    this.name = 'LogQueryTooSlowError'
  }
}

/** Whether an index narrows the lines a node can match. */
function indexed(node: QueryNode): boolean {
  switch (node.kind) {
    case 'text':
      return textIndexOf(node) !== 'scan'
    case 'field':
      return node.field !== 'details' || isIndexedDetailsPath(node.path ?? [])
    case 'not':
      return false
    case 'and':
      return node.children.some(indexed)
    case 'or':
      return node.children.every(indexed)
  }
}

/** The smallest parts that leave a node without an index. */
export function unindexedParts(node: QueryNode): QueryNode[] {
  if (indexed(node)) return []
  if (node.kind === 'and' || node.kind === 'or') return node.children.flatMap(unindexedParts)
  return [node]
}

const textLeaves = (node: QueryNode): QueryNode[] =>
  node.kind === 'text' ? [node] : node.kind === 'and' || node.kind === 'or' ? node.children.flatMap(textLeaves) : []

/** The error for a query stopped at its budget, naming its slow parts. */
export function tooSlowError(filter: LogQueryFilter | undefined, budgetMs: number): LogQueryTooSlowError {
  const seconds = `${(budgetMs / 1000).toLocaleString('en-US')} s`
  const source = (n: QueryNode) => filter!.text.slice(n.start, n.end)
  const narrow = 'Add an indexed term (level:, type:, tenant:, agent:, call:, a word) or a shorter time range (@last 1h).'
  if (!filter?.where) return new LogQueryTooSlowError(`The query was stopped after ${seconds}. ${narrow}`, [])
  const scanned = unindexedParts(filter.where).map(source)
  if (scanned.length > 0) {
    const list = scanned.map((p) => `"${p}"`).join(', ')
    return new LogQueryTooSlowError(`The query was stopped after ${seconds}: ${list} ${scanned.length === 1 ? 'has' : 'have'} no index, so every line is checked. ${narrow}`, scanned)
  }
  const broad = textLeaves(filter.where).map(source)
  const list = broad.map((p) => `"${p}"`).join(', ')
  return new LogQueryTooSlowError(
    broad.length > 0
      ? `The query was stopped after ${seconds}: ${list} match${broad.length === 1 ? 'es' : ''} too many lines to sort by time. Use longer words or a shorter time range (@last 1h).`
      : `The query was stopped after ${seconds}: it matches too many lines to sort by time. ${narrow}`,
    broad,
  )
}

/**
 * The error for a count-by stopped at its budget. Its slow parts: the key counted by when it is a
 * details key without an index (each line's details is read), and the query's terms no index serves; when
 * every part has an index, the range simply holds too many lines to group in time.
 */
export function countByTooSlowError(filter: LogQueryFilter | undefined, by: string, budgetMs: number): LogQueryTooSlowError {
  const seconds = `${(budgetMs / 1000).toLocaleString('en-US')} s`
  const scanned = filter?.where ? unindexedParts(filter.where).map((n) => filter.text.slice(n.start, n.end)) : []
  const unindexedKey = by.startsWith('details.') && !isIndexedDetailsPath(by.slice('details.'.length).split('.'))
  const parts = [...(unindexedKey ? [by] : []), ...scanned]
  const narrow = 'Narrow the time range (@last 24h, or drag across the chart) or add an indexed term (level:, type:, tenant:, agent:, call:, a word).'
  if (parts.length === 0) return new LogQueryTooSlowError(`The count by ${by} was stopped after ${seconds}: the filter matches too many lines to group in time. ${narrow}`, [])
  const list = parts.map((p) => `"${p}"`).join(', ')
  return new LogQueryTooSlowError(`The count by ${by} was stopped after ${seconds}: ${list} ${parts.length === 1 ? 'has' : 'have'} no index, so every line in the range is read. ${narrow}`, parts)
}
