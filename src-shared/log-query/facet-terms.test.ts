import { describe, expect, it } from 'vitest'
import { excludedTerms, facetTerm, termState, withFacetTerm } from './facet-terms'
import { parseLogQuery } from './parser'

describe('facet terms', () => {
  it('writes a value as a term the parser reads back', () => {
    expect(facetTerm('level', 'error')).toBe('level:error')
    expect(facetTerm('tenant', 'Acme Corp')).toBe('tenant:"Acme Corp"')
    expect(facetTerm('agent', 'Aria · "Reception"')).toBe('agent:"Aria · \\"Reception\\""')
    expect(facetTerm('details.provider', 'groq')).toBe('details.provider:"groq"')
    expect(facetTerm('details.status', 429)).toBe('details.status:429')
    expect(facetTerm('details.cached', false)).toBe('details.cached:false')
    expect(facetTerm('details.note', null)).toBe('details.note:null')
    for (const t of ['tenant:"Acme Corp"', 'agent:"Aria · \\"Reception\\""', 'details.provider:"groq"']) expect(parseLogQuery(t).ok).toBe(true)
  })

  it('adds a term in or out, keeping the text as typed', () => {
    expect(withFacetTerm(undefined, 'tenant:"Acme"', 'in')).toBe('tenant:"Acme"')
    expect(withFacetTerm('imeout  @last 1h', 'tenant:"Acme"', 'out')).toBe('imeout  @last 1h -tenant:"Acme"')
    expect(termState('imeout -tenant:"Acme"', 'tenant:"Acme"')).toBe('out')
    expect(termState('imeout NOT tenant:acme', 'tenant:"Acme"')).toBeNull()
  })

  it('takes an active term out on a second click, and swaps in for out', () => {
    expect(withFacetTerm('imeout tenant:"Acme"', 'tenant:"Acme"', 'in')).toBe('imeout')
    expect(withFacetTerm('imeout -tenant:"Acme" @last 15m', 'tenant:"Acme"', 'in')).toBe('imeout @last 15m tenant:"Acme"')
    expect(withFacetTerm('level:error', 'level:error', 'out')).toBe('-level:error')
    expect(withFacetTerm('level:error', 'level:error', 'in')).toBe('')
  })

  it('groups an OR before adding to it', () => {
    const next = withFacetTerm('groq OR openai', 'details.status:429', 'in')
    expect(next).toBe('(groq OR openai) details.status:429')
    expect(termState(next, 'details.status:429')).toBe('in')
  })
})

describe('excluded terms', () => {
  it('lists the values filtered out of a field at the top level, with terms that toggle them back', () => {
    const query = 'imeout -tenant:"Acme Corp" NOT tenant:beta -agent:x (-tenant:deep OR y) -details.provider:"groq"'
    const excluded = excludedTerms(query, 'tenant')
    expect(excluded).toEqual([{ value: 'Acme Corp', term: 'tenant:"Acme Corp"' }, { value: 'beta', term: 'tenant:beta' }])
    expect(excluded.map((e) => termState(query, e.term))).toEqual(['out', 'out'])
    expect(withFacetTerm('imeout -tenant:"Acme Corp"', excluded[0]!.term, 'out')).toBe('imeout')
    expect(excludedTerms(query, 'details.provider')).toEqual([{ value: 'groq', term: 'details.provider:"groq"' }])
  })
})
