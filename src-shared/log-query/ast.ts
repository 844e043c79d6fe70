/**
 * The log explorer's query language (issue 17): what a parsed query is. Pure data, no Node, no
 * DOM, so the console, the service, export and live tail read the same tree.
 */

/** [start, end) UTF-16 offsets of a node in the query text: for error messages and "which part is slow". */
export interface Span {
  start: number
  end: number
}

/**
 * How a text term matches a message:
 * - `substring`: anywhere in the text, any case, diacritics ignored (`imeout` finds `timeout`);
 * - `phrase`: these whole words in this order (`"rate limit"`), as the word index reads them;
 * - `prefix`: words starting with it (`time*`), or a phrase whose last word does (`"rate lim"*`).
 */
export type TextMode = 'substring' | 'phrase' | 'prefix'

export interface TextNode extends Span {
  kind: 'text'
  mode: TextMode
  value: string
}

export const FIELD_NAMES = ['level', 'type', 'tenant', 'agent', 'call', 'trace', 'session', 'user', 'request', 'details'] as const
export type FieldName = (typeof FIELD_NAMES)[number]

/** `:` and `=` are the same test; `!=` is parsed into NOT of `:`. */
export type CompareOp = ':' | '>' | '>=' | '<' | '<='

export interface FieldNode extends Span {
  kind: 'field'
  field: FieldName
  /** For `details`: the key path after `details.` (`provider`, `usage.tokens`). */
  path?: string[]
  op: CompareOp
  value: string
  /** The value was written in quotes: always text, never a number or a wildcard. */
  quoted: boolean
  /** `details.key:*` (the key is present) or `details.model:gpt*` (text starting with). */
  wildcard?: 'exists' | 'prefix'
}

export interface NotNode extends Span {
  kind: 'not'
  child: QueryNode
}

export interface BoolNode extends Span {
  kind: 'and' | 'or'
  children: QueryNode[]
}

export type QueryNode = TextNode | FieldNode | NotNode | BoolNode

/** `@last 15m`: a duration back from now; `@since` / `@until`: ISO 8601 instants (UTC unless offset). */
export type TimeTerm =
  | (Span & { kind: 'last'; ms: number; text: string })
  | (Span & { kind: 'since' | 'until'; instant: string })

export interface LogQuery {
  /** The filter; null when the query holds only time terms (or nothing). */
  where: QueryNode | null
  /** Time terms apply to the whole query (they are only allowed at its top level). */
  time: TimeTerm[]
}

export interface LogQueryError {
  message: string
  /** Where the problem is: [offset, offset + length) of the query text (UTF-16), length ≥ 1 except at the end. */
  offset: number
  length: number
  /** What to do about it. */
  hint: string
}

export type ParseResult = { ok: true; query: LogQuery } | { ok: false; error: LogQueryError }
