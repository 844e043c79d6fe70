import type { LogQuery, QueryNode, TimeTerm } from './ast'

/*
 * A parsed query written back as text that parses to the same tree: the console's canonical form
 * of a query, and what the round-trip tests hold the parser to.
 */

const quote = (text: string): string => `"${text.replace(/[\\"]/g, (c) => `\\${c}`)}"`

/** A bare word the lexer would read as something else: an operator, a field, a negation, a time term. */
const misread = (text: string): boolean =>
  /^[-@*]/.test(text) || /^[A-Za-z_][A-Za-z0-9_.-]*(!=|>=|<=|:|=|>|<)/.test(text) || ['AND', 'OR', 'NOT'].includes(text)

function node(n: QueryNode, parent: QueryNode['kind'] | null): string {
  switch (n.kind) {
    case 'text':
      // A leading * keeps it a substring: `*a=` is the text a=, where `a=` would be a field.
      if (n.mode === 'substring') return misread(n.value) ? `*${n.value}` : n.value
      if (n.mode === 'phrase') return quote(n.value)
      return /[\s()"]/.test(n.value) || misread(n.value) ? `${quote(n.value)}*` : `${n.value}*`
    case 'field': {
      const name = n.field === 'details' ? `details.${n.path!.join('.')}` : n.field
      const value = n.wildcard === 'exists' ? '*' : n.wildcard === 'prefix' ? `${n.value}*` : n.quoted || n.value === '' || /[\s()"]/.test(n.value) ? quote(n.value) : n.value
      return `${name}${n.op}${value}`
    }
    case 'not':
      return `NOT ${node(n.child, 'not')}`
    case 'and':
    case 'or': {
      const text = n.children.map((c) => node(c, n.kind)).join(n.kind === 'and' ? ' ' : ' OR ')
      return parent === null ? text : `(${text})`
    }
  }
}

function time(t: TimeTerm): string {
  return t.kind === 'last' ? `@last ${t.text}` : `@${t.kind} ${t.instant}`
}

export function formatLogQuery(query: LogQuery): string {
  return [query.where ? node(query.where, null) : '', ...query.time.map(time)].filter(Boolean).join(' ')
}
