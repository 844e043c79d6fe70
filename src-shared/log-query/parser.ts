import { parseInstant } from '../schemas/params'
import { DURATION, UNIT_MS } from '../time-range'
import type { LogQuery, ParseResult, QueryNode, TextNode, TimeTerm } from './ast'
import { fieldNode } from './fields'
import { fail, QuerySyntaxError, type Token, tokenize } from './lexer'

/*
 * The parser: NOT (or a leading -) binds tightest, then AND (also implied between two terms), then
 * OR; parentheses group. Time terms (@last, @since, @until) apply to the whole query, so they may
 * only stand at its top level, joined by AND. parseLogQuery never throws: every problem comes back
 * with its position and a hint.
 */

export const LOG_QUERY_MAX_LENGTH = 2000
const MAX_TERMS = 100
const MAX_DEPTH = 24


type TimeNode = { kind: 'time'; term: TimeTerm; start: number; end: number }
type Node = QueryNode | TimeNode

class Parser {
  private at = 0
  private terms = 0
  /** Nodes written in parentheses: a group is one term of the AND around it, never flattened into it. */
  readonly grouped = new WeakSet<object>()
  constructor(
    private readonly input: string,
    private readonly tokens: Token[],
  ) {}

  private peek(): Token | undefined {
    return this.tokens[this.at]
  }

  parse(): Node | null {
    if (this.tokens.length === 0) return null
    const node = this.or(0)
    const next = this.peek()
    if (next) {
      if (next.kind === 'rparen') fail('This ) has no matching (', next.start, 1, 'Remove it, or add a ( before the terms it closes')
      fail('Unexpected text', next.start, next.end - next.start, 'Join terms with AND or OR')
    }
    return node
  }

  private or(depth: number): Node {
    const first = this.and(depth)
    const children = [first]
    while (this.peek()?.kind === 'or') {
      const op = this.tokens[this.at++]!
      if (!this.startsTerm(this.peek())) fail('OR needs a term after it', op.start, 2, 'Add a term after OR, or remove it')
      children.push(this.and(depth))
    }
    return children.length === 1 ? first : { kind: 'or', children: children as QueryNode[], start: first.start, end: children.at(-1)!.end }
  }

  private and(depth: number): Node {
    const first = this.unary(depth)
    const children = [first]
    for (;;) {
      const next = this.peek()
      if (next?.kind === 'and') {
        this.at++
        if (!this.startsTerm(this.peek())) fail('AND needs a term after it', next.start, 3, 'Add a term after AND, or remove it')
        children.push(this.unary(depth))
      } else if (this.startsTerm(next)) {
        children.push(this.unary(depth))
      } else {
        break
      }
    }
    return children.length === 1 ? first : { kind: 'and', children: children as QueryNode[], start: first.start, end: children.at(-1)!.end }
  }

  private startsTerm(token: Token | undefined): boolean {
    return token !== undefined && token.kind !== 'rparen' && token.kind !== 'and' && token.kind !== 'or'
  }

  private unary(depth: number): Node {
    const token = this.peek()
    if (!token) return fail('The query ends too soon', this.input.length, 0, 'Add a term')
    if (token.kind === 'not' || token.kind === 'minus') {
      this.at++
      const word = token.kind === 'not' ? 'NOT' : '-'
      if (!this.startsTerm(this.peek())) fail(`${word} needs a term after it`, token.start, token.end - token.start, `Write ${word === 'NOT' ? 'NOT level:debug' : '-level:debug'}`)
      if (depth >= MAX_DEPTH) fail('The query nests too deeply', token.start, 1, `Use at most ${MAX_DEPTH} levels of NOT and parentheses`)
      const child = this.unary(depth + 1)
      return { kind: 'not', child: child as QueryNode, start: token.start, end: child.end }
    }
    return this.primary(depth)
  }

  private primary(depth: number): Node {
    const token = this.tokens[this.at]
    if (!token) return fail('The query ends too soon', this.input.length, 0, 'Add a term')
    if (token.kind === 'and' || token.kind === 'or') {
      const word = token.kind.toUpperCase()
      return fail(`${word} needs a term before it`, token.start, token.end - token.start, `Add a term before ${word}, or remove it`)
    }
    if (token.kind === 'rparen') return fail('This ) has no matching (', token.start, 1, 'Remove it, or add a ( before the terms it closes')
    this.at++
    if (token.kind === 'lparen') {
      if (depth >= MAX_DEPTH) fail('The query nests too deeply', token.start, 1, `Use at most ${MAX_DEPTH} levels of NOT and parentheses`)
      if (this.peek()?.kind === 'rparen') fail('These parentheses are empty', token.start, this.peek()!.end - token.start, 'Put terms inside them, or remove them')
      const inner = this.or(depth + 1)
      const close = this.peek()
      if (close?.kind !== 'rparen') fail('This ( is never closed', token.start, 1, 'Add a ) after the terms it groups, or remove it')
      this.at++
      const group = { ...inner, start: token.start, end: close!.end } as Node
      this.grouped.add(group)
      return group
    }
    this.count(token)
    if (token.kind === 'at') return this.time(token)
    if (token.kind === 'field') return fieldNode(token)
    if (token.kind === 'quoted') return this.quoted(token)
    return this.word(token as Extract<Token, { kind: 'word' }>)
  }

  private count(token: Token): void {
    if (++this.terms > MAX_TERMS) fail('The query has too many terms', token.start, token.end - token.start, `Use at most ${MAX_TERMS} terms`)
  }

  private quoted(token: Extract<Token, { kind: 'quoted' }>): TextNode {
    if (!/[\p{L}\p{N}]/u.test(token.text)) {
      fail('This phrase has no letter or digit', token.start, token.end - token.start, 'Phrases match whole words; to find punctuation, write it without quotes')
    }
    return { kind: 'text', mode: token.star ? 'prefix' : 'phrase', value: token.text, start: token.start, end: token.end }
  }

  private word(token: Extract<Token, { kind: 'word' }>): TextNode {
    const { text, start, end } = token
    // `*imeout*`, `*imeout`: a substring anyway; `time*`: words starting with time.
    const leading = text.match(/^\*+/)?.[0].length ?? 0
    const trailing = text.slice(leading).match(/\*+$/)?.[0].length ?? 0
    const value = text.slice(leading, text.length - trailing)
    if (value === '') fail('* alone matches nothing', start, end - start, 'Write * after the start of a word: time*')
    if (value.includes('*')) fail('* works only at the start or end of a word', start, end - start, 'time* finds words starting with time; a plain word is found anywhere in the text')
    if (value.length > 500) fail('This word is too long', start, end - start, 'Words hold at most 500 characters')
    const mode = trailing > 0 && leading === 0 ? 'prefix' : 'substring'
    if (mode === 'prefix' && !/[\p{L}\p{N}]/u.test(value)) fail('A prefix needs a letter or digit', start, end - start, 'Write a word before the *: time*')
    return { kind: 'text', mode, value, start, end }
  }

  private time(token: Extract<Token, { kind: 'at' }>): TimeNode {
    const name = token.name.toLowerCase()
    if (name !== 'last' && name !== 'since' && name !== 'until') {
      fail(`Unknown time term @${token.name}`, token.start, token.end - token.start, 'Write @last 15m, @since 2026-11-01 or @until 2026-11-02T09:30Z')
    }
    const arg = this.peek()
    const example = name === 'last' ? '@last 15m (s, m, h, d or w)' : `@${name} 2026-11-01 or @${name} 2026-11-01T09:30Z`
    if (arg?.kind !== 'word') return fail(`@${name} needs a ${name === 'last' ? 'duration' : 'date'}`, token.start, token.end - token.start, `Write ${example}`)
    this.at++
    const span = { start: token.start, end: arg.end }
    if (name === 'last') {
      const duration = DURATION.exec(arg.text)
      if (!duration || Number(duration[1]) === 0) fail(`"${arg.text}" is not a duration`, arg.start, arg.end - arg.start, `Write ${example}`)
      const ms = Number(duration![1]) * UNIT_MS[duration![2]!]!
      return { kind: 'time', term: { kind: 'last', ms, text: arg.text, ...span }, ...span }
    }
    const kind = name === 'since' ? 'since' : 'until'
    const instant = parseInstant(arg.text, kind === 'until')
    if (instant === null) fail(`"${arg.text}" is not a date`, arg.start, arg.end - arg.start, `Write ${example} (UTC unless an offset is given)`)
    return { kind: 'time', term: { kind, instant: instant!, ...span }, ...span }
  }
}

/** Time terms out of the top-level AND; anywhere else they are an error. */
function hoistTime(root: Node | null, grouped: WeakSet<object>): LogQuery {
  if (root === null) return { where: null, time: [] }
  const top = root.kind === 'and' && !grouped.has(root) ? (root.children as Node[]) : [root]
  const time: TimeTerm[] = []
  const rest: QueryNode[] = []
  for (const node of top) {
    if (node.kind === 'time' && !grouped.has(node)) time.push(node.term)
    else {
      rejectNestedTime(node)
      rest.push(node as QueryNode)
    }
  }
  const where = rest.length === 0 ? null : rest.length === 1 ? rest[0]! : { kind: 'and' as const, children: rest, start: rest[0]!.start, end: rest.at(-1)!.end }
  return { where, time }
}

function rejectNestedTime(node: Node): void {
  if (node.kind === 'time') {
    fail('A time range applies to the whole query', node.start, node.end - node.start, 'Move it out of OR, NOT and parentheses: (a OR b) @last 1h')
  }
  if (node.kind === 'and' || node.kind === 'or') for (const child of node.children as Node[]) rejectNestedTime(child)
  if (node.kind === 'not') rejectNestedTime(node.child as Node)
}

/** Parses one line of the query language. Never throws: errors carry their position and a hint. */
export function parseLogQuery(input: string): ParseResult {
  try {
    if (input.length > LOG_QUERY_MAX_LENGTH) fail('The query is too long', LOG_QUERY_MAX_LENGTH, input.length - LOG_QUERY_MAX_LENGTH, `Queries hold at most ${LOG_QUERY_MAX_LENGTH} characters`)
    const tokens = tokenize(input)
    const parser = new Parser(input, tokens)
    return { ok: true, query: hoistTime(parser.parse(), parser.grouped) }
  } catch (error) {
    if (error instanceof QuerySyntaxError) return { ok: false, error: error.detail }
    throw error
  }
}
