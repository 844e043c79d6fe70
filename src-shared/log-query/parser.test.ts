import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { QueryNode } from './ast'
import { formatLogQuery } from './format'
import { wordsToLogQuery } from './legacy'
import { parseLogQuery } from './parser'

/** A parsed query as an S-expression: text terms by mode, fields as name op value. */
function shape(node: QueryNode | null): string {
  if (node === null) return '∅'
  switch (node.kind) {
    case 'text':
      return node.mode === 'substring' ? `~${node.value}` : node.mode === 'phrase' ? `"${node.value}"` : `${node.value}*`
    case 'field':
      return `${node.field}${node.path ? `.${node.path.join('.')}` : ''}${node.op}${node.wildcard === 'exists' ? '*' : node.value}${node.wildcard === 'prefix' ? '*' : ''}${node.quoted ? '(q)' : ''}`
    case 'not':
      return `(not ${shape(node.child)})`
    default:
      return `(${node.kind} ${node.children.map(shape).join(' ')})`
  }
}

const parsed = (text: string) => {
  const result = parseLogQuery(text)
  if (!result.ok) throw new Error(`did not parse: ${JSON.stringify(result.error)}`)
  return result.query
}
const tree = (text: string) => shape(parsed(text).where)
const error = (text: string) => {
  const result = parseLogQuery(text)
  if (result.ok) throw new Error(`parsed: ${text}`)
  return result.error
}

describe('query language: terms', () => {
  it.each([
    ['imeout', '~imeout'],
    ['*imeout*', '~imeout'],
    ['*imeout', '~imeout'],
    ['time*', 'time*'],
    ['"rate limit"', '"rate limit"'],
    ['"rate lim"*', 'rate lim*'],
    ['"say \\"hi\\" \\\\ there"', '"say "hi" \\ there"'],
    ['user@example.com', '~user@example.com'],
    ['10:30', '~10:30'],
    ['and', '~and'],
    ['a-b', '~a-b'],
  ])('%s is %s', (text, expected) => {
    expect(tree(text)).toBe(expected)
  })

  it.each([
    ['level:error', 'level:error'],
    ['level=ERROR', 'level:error'],
    ['level:warn', 'level:warning'],
    ['level>=warning', 'level>=warning'],
    ['level<info', 'level<info'],
    ['type:llm', 'type:llm'],
    ['tenant:"Acme Health"', 'tenant:Acme Health(q)'],
    ['agent:"Aria · Reception"', 'agent:Aria · Reception(q)'],
    ['call:abc-123', 'call:abc-123'],
    ['trace:t1 session:s1 user:u1 request:r1', '(and trace:t1 session:s1 user:u1 request:r1)'],
    ['details.provider:groq', 'details.provider:groq'],
    ['details.usage.tokens>=1000', 'details.usage.tokens>=1000'],
    ['details.latency_ms>2000', 'details.latency_ms>2000'],
    ['details.latency_ms<-1.5', 'details.latency_ms<-1.5'],
    ['details.model:gpt*', 'details.model:gpt*'],
    ['details.error:*', 'details.error:*'],
    ['details.note:"a b"', 'details.note:a b(q)'],
    ['type!=llm', '(not type:llm)'],
    ['Level:Error', 'level:error'],
  ])('%s is %s', (text, expected) => {
    expect(tree(text)).toBe(expected)
  })
})

describe('query language: operators and precedence', () => {
  it.each([
    ['a b', '(and ~a ~b)'],
    ['a AND b', '(and ~a ~b)'],
    ['a OR b', '(or ~a ~b)'],
    ['NOT a', '(not ~a)'],
    ['-a', '(not ~a)'],
    ['-level:debug', '(not level:debug)'],
    ['-"rate limit"', '(not "rate limit")'],
    // NOT binds tighter than AND, AND tighter than OR.
    ['a b OR c', '(or (and ~a ~b) ~c)'],
    ['a OR b c', '(or ~a (and ~b ~c))'],
    ['a OR b AND c OR d', '(or ~a (and ~b ~c) ~d)'],
    ['NOT a b', '(and (not ~a) ~b)'],
    ['NOT a OR b', '(or (not ~a) ~b)'],
    ['NOT NOT a', '(not (not ~a))'],
    ['(a OR b) c', '(and (or ~a ~b) ~c)'],
    ['a (b OR c)', '(and ~a (or ~b ~c))'],
    ['NOT (a OR b)', '(not (or ~a ~b))'],
    ['-(a b)', '(not (and ~a ~b))'],
    ['((a))', '~a'],
    ['level:error (imeout OR "rate limit") -type:webhook', '(and level:error (or ~imeout "rate limit") (not type:webhook))'],
  ])('%s is %s', (text, expected) => {
    expect(tree(text)).toBe(expected)
  })

  it('keeps each node\'s position in the text', () => {
    const text = 'level:error (imeout OR "rate limit")'
    const where = parsed(text).where!
    expect(where.kind).toBe('and')
    const [level, group] = (where as { children: QueryNode[] }).children
    expect(text.slice(level!.start, level!.end)).toBe('level:error')
    expect(text.slice(group!.start, group!.end)).toBe('(imeout OR "rate limit")')
  })
})

describe('query language: time', () => {
  it('reads @last, @since and @until at the top level, beside the filter', () => {
    const q = parsed('level:error @last 15m')
    expect(shape(q.where)).toBe('level:error')
    expect(q.time).toMatchObject([{ kind: 'last', ms: 15 * 60_000, text: '15m' }])
    expect(parsed('@last 7d').time[0]).toMatchObject({ ms: 7 * 86_400_000 })
    expect(parsed('@last 1w').where).toBeNull()
    expect(parsed('@since 2026-11-01 @until 2026-11-02').time).toMatchObject([
      { kind: 'since', instant: '2026-11-01T00:00:00.000Z' },
      { kind: 'until', instant: '2026-11-02T23:59:59.999Z' },
    ])
    expect(parsed('@since 2026-11-01T09:30+01:00').time[0]).toMatchObject({ instant: '2026-11-01T08:30:00.000Z' })
  })
})

describe('query language: errors say where and what to do', () => {
  it.each([
    ['"rate limit', /never closed/, 0, 11],
    ['level:error "x', /never closed/, 12, 2],
    ['(a OR b', /never closed/, 0, 1],
    ['a OR b)', /no matching \(/, 6, 1],
    [')', /no matching \(/, 0, 1],
    ['()', /empty/, 0, 2],
    ['a OR', /OR needs a term after it/, 2, 2],
    ['a AND', /AND needs a term after it/, 2, 3],
    ['OR a', /OR needs a term before it/, 0, 2],
    ['a (OR b)', /OR needs a term before it/, 3, 2],
    ['NOT', /NOT needs a term/, 0, 3],
    ['a NOT', /NOT needs a term/, 2, 3],
    ['levle:error', /Unknown field "levle"/, 0, 5],
    ['level:fatalish', /Unknown level "fatalish"/, 6, 8],
    ['level:', /needs a value/, 6, 0],
    ['type: llm', /needs a value/, 5, 0],
    ['agent>3', /agent takes no >/, 5, 1],
    ['details:groq', /details needs a key/, 0, 7],
    ['details..x:1', /details needs a key/, 0, 10],
    ['type.x:1', /type has no keys/, 0, 6],
    ['details.latency_ms>fast', /> compares numbers/, 19, 4],
    ['call:ab*', /takes no wildcard/, 5, 3],
    ['*', /\* alone/, 0, 1],
    ['a*b', /only at the start or end/, 0, 3],
    ['"!!"', /no letter or digit/, 0, 4],
    ['@last', /needs a duration/, 0, 5],
    ['@last 15x', /not a duration/, 6, 3],
    ['@last 0m', /not a duration/, 6, 2],
    ['@since yesterday', /not a date/, 7, 9],
    ['@sometime 1h', /Unknown time term/, 0, 9],
    ['a OR @last 1h', /applies to the whole query/, 5, 8],
    ['(a @last 1h)', /applies to the whole query/, 3, 8],
    ['NOT @last 1h', /applies to the whole query/, 4, 8],
  ])('%j: %s at %i (+%i)', (text, message, offset, length) => {
    const e = error(text)
    expect(e.message).toMatch(message)
    expect({ offset: e.offset, length: e.length }).toEqual({ offset, length })
    expect(e.hint.length).toBeGreaterThan(10)
  })

  it('suggests the field meant', () => {
    expect(error('levle:error').hint).toMatch(/Did you mean level\?/)
    expect(error('agnet:x').hint).toMatch(/Did you mean agent\?/)
  })

  it('refuses queries too long or too deep', () => {
    expect(error('a'.repeat(2001))).toMatchObject({ offset: 2000, message: /too long/ })
    expect(error('('.repeat(30) + 'a' + ')'.repeat(30)).message).toMatch(/nests too deeply/)
    expect(error(Array.from({ length: 101 }, (_, i) => `w${i}`).join(' ')).message).toMatch(/too many terms/)
  })
})

const strip = (value: unknown): unknown =>
  Array.isArray(value)
    ? value.map(strip)
    : value && typeof value === 'object'
      ? Object.fromEntries(Object.entries(value).filter(([k]) => k !== 'start' && k !== 'end').map(([k, v]) => [k, strip(v)]))
      : value

describe('query language: properties', () => {
  const alphabet = fc.constantFrom(...'ab :-"()*@=<>!\\ ANDORNOTlevel:errortype.details\u00e9\u0000'.split(''), 'AND', 'OR', 'NOT', 'level:', 'details.x', '@last ', '15m')
  it('never throws, and every error points inside the text', () => {
    fc.assert(
      fc.property(fc.array(alphabet, { maxLength: 40 }).map((parts) => parts.join('')), (text) => {
        const result = parseLogQuery(text)
        if (!result.ok) {
          expect(result.error.offset).toBeGreaterThanOrEqual(0)
          expect(result.error.offset + result.error.length).toBeLessThanOrEqual(text.length)
        }
      }),
      { numRuns: 3000 },
    )
  })

  it('writes back every query it reads as text that reads the same', () => {
    fc.assert(
      fc.property(fc.array(alphabet, { maxLength: 40 }).map((parts) => parts.join('')), (text) => {
        const result = parseLogQuery(text)
        if (!result.ok) return
        const again = parseLogQuery(formatLogQuery(result.query))
        expect(again.ok).toBe(true)
        if (again.ok) expect(strip(again.query)).toEqual(strip(result.query))
      }),
      { numRuns: 3000 },
    )
  })
})

describe('the old search box', () => {
  it.each([
    ['timeout', '"timeout"'],
    ['timeout "rate limit" conn*', '"timeout" "rate limit" "conn"*'],
    ['"rate lim"* OR', '"rate lim"* "OR"'],
    ['a"b', '"a\\"b"'],
    ['!!! ok', '"ok"'],
  ])('%j reads as %s: whole words, as before', (q, expected) => {
    expect(wordsToLogQuery(q)).toBe(expected)
    expect(parseLogQuery(expected).ok).toBe(true)
  })
})
