import type { QueryNode } from './ast'
import { formatLogQuery } from './format'
import { parseLogQuery } from './parser'

/*
 * Facets filter in and out by editing the one-line query: a click adds `tenant:"Acme"`, the other
 * control `-tenant:"Acme"`, and clicking an active one again takes it out. Only terms at the top
 * level of the query (ANDed with the rest) count as the facet's; the rest of the text is the user's.
 */

export type DetailsScalar = string | number | boolean | null

const quote = (text: string): string => `"${text.replace(/[\\"]/g, (c) => `\\${c}`)}"`

/**
 * The query term for one facet value: `level:error`, `tenant:"Acme"`, `details.status:429`,
 * `details.provider:"groq"` (text quoted, so a number-like text or `true` stays text).
 */
export function facetTerm(field: string, value: DetailsScalar): string {
  if (typeof value === 'number' || typeof value === 'boolean' || value === null) return `${field}:${String(value)}`
  if (!field.startsWith('details.') && /^[A-Za-z0-9_-]+$/.test(value)) return `${field}:${value}`
  return `${field}:${quote(value)}`
}

const canonical = (node: QueryNode): string => formatLogQuery({ where: node, time: [] })

function termNode(term: string): QueryNode | null {
  const parsed = parseLogQuery(term)
  return parsed.ok ? parsed.query.where : null
}

const conjuncts = (where: QueryNode | null): QueryNode[] => (where === null ? [] : where.kind === 'and' ? where.children : [where])

/** Whether the query filters the term in (`term` at its top level), out (`-term`), or neither. */
export function termState(query: string | undefined, term: string): 'in' | 'out' | null {
  const parsed = parseLogQuery(query ?? '')
  const node = termNode(term)
  if (!parsed.ok || !node) return null
  const key = canonical(node)
  const not = canonical({ kind: 'not', child: node, start: 0, end: 0 })
  for (const c of conjuncts(parsed.query.where)) {
    const text = canonical(c)
    if (text === key) return 'in'
    if (text === not) return 'out'
  }
  return null
}

/**
 * The query with the term filtered in or out. Clicking what is already there takes it out; the
 * opposite replaces it. The user's text is kept as typed when a term is only added.
 */
export function withFacetTerm(query: string | undefined, term: string, mode: 'in' | 'out'): string {
  const text = (query ?? '').trim()
  const parsed = parseLogQuery(text)
  const node = termNode(term)
  const written = mode === 'in' ? term : `-${term}`
  if (!parsed.ok || !node) return text ? `${text} ${written}` : written
  const state = termState(text, term)
  if (state !== null) {
    // Rebuilt without the facet's term (canonical form: the rest means the same).
    const key = canonical(node)
    const not = canonical({ kind: 'not', child: node, start: 0, end: 0 })
    const rest = conjuncts(parsed.query.where).filter((c) => ![key, not].includes(canonical(c)))
    const where = rest.length === 0 ? null : rest.length === 1 ? rest[0]! : { kind: 'and' as const, children: rest, start: 0, end: 0 }
    const base = formatLogQuery({ where, time: parsed.query.time })
    if (state === mode) return base
    return withFacetTerm(base, term, mode)
  }
  const where = parsed.query.where
  if (where?.kind === 'or') {
    // `a OR b` then a term would read as `a OR (b AND term)`: the OR is grouped first.
    const added: QueryNode = mode === 'in' ? node : { kind: 'not', child: node, start: 0, end: 0 }
    return formatLogQuery({ where: { kind: 'and', children: [where, added], start: 0, end: 0 }, time: parsed.query.time })
  }
  return text ? `${text} ${written}` : written
}

/**
 * The values a query filters out of one field at its top level (`-tenant:"Acme"`, `NOT level:debug`),
 * each with its term as the facet writes it: they have no lines left to count, yet the facet lists
 * them, so the filter can be taken away where it was put.
 */
export function excludedTerms(query: string | undefined, field: string): Array<{ value: string; term: string }> {
  const parsed = parseLogQuery(query ?? '')
  if (!parsed.ok) return []
  const out: Array<{ value: string; term: string }> = []
  for (const c of conjuncts(parsed.query.where)) {
    if (c.kind !== 'not' || c.child.kind !== 'field' || c.child.op !== ':' || c.child.wildcard) continue
    const name = c.child.field === 'details' ? `details.${c.child.path!.join('.')}` : c.child.field
    if (name === field) out.push({ value: c.child.value, term: canonical(c.child) })
  }
  return out
}
