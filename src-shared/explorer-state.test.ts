import { describe, expect, it } from 'vitest'
import { explorerStateToParams, type ExplorerState, parseExplorerParams, sameExplorerState } from './explorer-state'
import { savedViewStateSchema } from './explorer-state'

const FULL: ExplorerState = {
  query: 'level:error (imeout OR "rate limit") -type:webhook',
  from: 'now-24h',
  to: 'now-1h',
  agent: '20000000-0000-4000-8000-000000000001',
  level: ['error', 'critical'],
  type: ['llm', 'Call Started'],
  call: 'call-1',
  trace: 'trace-1',
  session: 'session-1',
  cols: ['time', 'level', 'details.provider', 'message', 'tenant'],
  facet: 'usage.tokens',
  by: 'details.provider',
  top: 3,
  tz: 'America/New_York',
  live: true,
  line: 'line-1',
}

const parse = (search: string) => parseExplorerParams(new URLSearchParams(search))
const roundTrip = (state: ExplorerState) => parseExplorerParams(explorerStateToParams(state))

describe('the explorer state in a link', () => {
  it('comes back equal from its link, every field, relative and absolute ranges alike', () => {
    expect(roundTrip(FULL)).toEqual({ state: FULL, ignored: [] })
    const absolute: ExplorerState = { from: '2026-11-20T09:30:00.000Z', to: '2026-11-20T10:30:00.000Z', tz: 'UTC' }
    expect(roundTrip(absolute)).toEqual({ state: absolute, ignored: [] })
    expect(roundTrip({})).toEqual({ state: {}, ignored: [] })
    // The order a link is written in, whatever order the state was built in.
    expect(explorerStateToParams({ line: 'x', query: 'a', cols: ['message'] }).toString()).toBe('query=a&cols=message&line=x')
    expect(explorerStateToParams({ live: false, level: [] }).toString()).toBe('')
  })

  it('holds the count-by panel: its key and its number of groups, checked as the count is', () => {
    expect(parse('by=details.provider&top=3')).toEqual({ state: { by: 'details.provider', top: 3 }, ignored: [] })
    expect(explorerStateToParams({ top: 10, by: 'tenant', facet: 'provider' }).toString()).toBe('facet=provider&by=tenant&top=10')
    const { state, ignored } = parse('by=message&top=11')
    expect(state).toEqual({})
    expect(ignored.map((i) => [i.param, i.value])).toEqual([
      ['by', 'message'],
      ['top', '11'],
    ])
    expect(ignored[1]!.reason).toBe('Expected a number of groups from 1 to 10')
    for (const top of ['0', '2.5', 'x', '-1', '1e1']) expect(parse(`top=${top}`).state, top).toEqual({})
    expect(savedViewStateSchema.parse({ by: 'details.status', top: 10 })).toEqual({ by: 'details.status', top: 10 })
    for (const bad of [{ by: 'details.bad key' }, { top: 0 }, { top: '3' }, { by: 'LEVEL' }]) expect(savedViewStateSchema.safeParse(bad).success, JSON.stringify(bad)).toBe(false)
  })

  it('reads the links the console wrote before (levels, legacy q, the old parameters)', () => {
    expect(parse('level=error,warning&q=timeout&agent=20000000-0000-4000-8000-000000000001&live=1')).toEqual({
      state: { level: ['error', 'warning'], q: 'timeout', agent: '20000000-0000-4000-8000-000000000001', live: true },
      ignored: [],
    })
    // A UUID in another spelling is the same agent; a zone in another case the same zone.
    expect(parse('agent=20000000000040008000000000000001&tz=america/new_york').state).toEqual({ agent: '20000000-0000-4000-8000-000000000001', tz: 'America/New_York' })
  })

  it('leaves out unknown parameters and bad values, keeps the rest, and says what and why', () => {
    const { state, ignored } = parse(
      `query=imeout&level=error,fatal,error&cols=time,colour,details.usage.tokens,details.bad%20key&from=yesterday&to=now-1h&agent=agent_7&tz=Mars/Olympus&facet=a..b&live=yes&theme=dark&line=${'x'.repeat(201)}&type=&call=%20`,
    )
    expect(state).toEqual({ query: 'imeout', level: ['error'], cols: ['time', 'details.usage.tokens'], to: 'now-1h' })
    expect(ignored.map((i) => [i.param, i.value])).toEqual([
      ['level', 'fatal'],
      ['cols', 'colour'],
      ['cols', 'details.bad key'],
      ['from', 'yesterday'],
      ['agent', 'agent_7'],
      ['tz', 'Mars/Olympus'],
      ['facet', 'a..b'],
      ['live', 'yes'],
      ['theme', 'dark'],
      ['line', `${'x'.repeat(80)}…`],
    ])
    expect(ignored.find((i) => i.param === 'level')!.reason).toBe('Expected a log level: debug, info, warning, error, critical')
    expect(ignored.find((i) => i.param === 'from')!.reason).toMatch(/^Expected an ISO 8601 date/)
    expect(ignored.find((i) => i.param === 'tz')!.reason).toBe('Expected UTC or an IANA time zone (Europe/Paris)')
    expect(ignored.find((i) => i.param === 'theme')!.reason).toBe('Not a parameter of the explorer')
  })

  it('keeps a query that does not parse (the box shows where), and leaves parameters of other features alone', () => {
    expect(parse('query=level%3Aerror%20(imeout').state).toEqual({ query: 'level:error (imeout' })
    expect(parse('query=x&countBy=agent', )).toMatchObject({ ignored: [{ param: 'countBy' }] })
    expect(parseExplorerParams(new URLSearchParams('query=x&countBy=agent'), ['countBy'])).toEqual({ state: { query: 'x' }, ignored: [] })
  })

  it('caps lists: the first values are kept, the rest reported', () => {
    const many = Array.from({ length: 25 }, (_, i) => `details.k${i}`).join(',')
    const { state, ignored } = parse(`cols=${many}`)
    expect(state.cols).toHaveLength(20)
    expect(ignored).toHaveLength(5)
    expect(ignored[0]).toEqual({ param: 'cols', value: 'details.k20', reason: 'At most 20 values' })
  })

  it('compares states as views: level and type order do not matter, column order does', () => {
    expect(sameExplorerState({ level: ['error', 'info'] }, { level: ['info', 'error'] })).toBe(true)
    expect(sameExplorerState({ cols: ['time', 'message'] }, { cols: ['message', 'time'] })).toBe(false)
    expect(sameExplorerState({ query: 'a' }, { query: 'a', live: false })).toBe(true)
  })
})

describe('a saved view state', () => {
  it('is the link state without the line, checked whole', () => {
    const { line: _line, ...saved } = FULL
    expect(savedViewStateSchema.parse(saved)).toEqual(saved)
    // Unknown keys are dropped, as FastAPI drops unknown fields.
    expect(savedViewStateSchema.parse({ query: 'a', line: 'x', colour: 'red' })).toEqual({ query: 'a' })
  })

  it('refuses a query that does not parse, a range that ends before it starts, bad fields', () => {
    const issues = (state: unknown) => {
      const parsed = savedViewStateSchema.safeParse(state)
      return parsed.success ? [] : parsed.error.issues.map((i) => [i.path.join('.'), i.message])
    }
    expect(issues({ query: 'level:error (imeout' })).toEqual([['query', expect.stringMatching(/^This \( is never closed \(at column 13\)/)]])
    expect(issues({ from: 'now-1h', to: 'now-2h' })).toEqual([['to', 'The range ends before it starts']])
    expect(issues({ level: ['fatal'], cols: [], live: 'yes', tz: 'Nowhere' }).map(([path]) => path)).toEqual(['level.0', 'cols', 'tz', 'live'])
    expect(issues({ cols: ['time', 'time'] })).toEqual([['cols', 'Each value once']])
  })
})
