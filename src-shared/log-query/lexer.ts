import type { LogQueryError, Span } from './ast'

/*
 * The query text as tokens. Words, "quoted phrases" (with \" and \\ inside), parentheses, a `-`
 * in front of a term, and `name<op>value` field terms, whose value may be quoted. Upper-case AND,
 * OR and NOT are operators; in any other case they are words.
 */

export type Token =
  | (Span & { kind: 'lparen' | 'rparen' | 'minus' | 'and' | 'or' | 'not' })
  | (Span & { kind: 'word'; text: string })
  | (Span & { kind: 'quoted'; text: string; star: boolean })
  | (Span & { kind: 'field'; name: string; nameEnd: number; op: string; value: string; valueStart: number; quoted: boolean })
  | (Span & { kind: 'at'; name: string })

export class QuerySyntaxError extends Error {
  constructor(readonly detail: LogQueryError) {
    super(detail.message)
    this.name = 'QuerySyntaxError'
  }
}

export const fail = (message: string, offset: number, length: number, hint: string): never => {
  throw new QuerySyntaxError({ message, offset, length: Math.max(0, length), hint })
}

const SPACE = /\s/
/** Characters that end a word: space, parentheses, a quote. */
const ENDS_WORD = /[\s()"]/
const FIELD_AT = /^([A-Za-z_][A-Za-z0-9_.-]*)(!=|>=|<=|:|=|>|<)/

/** A quoted string starting at `start` (the opening quote): its text and where it ends (after the quote). */
function readQuoted(input: string, start: number): { text: string; end: number } {
  let text = ''
  for (let i = start + 1; i < input.length; i++) {
    const ch = input[i]!
    if (ch === '\\' && (input[i + 1] === '"' || input[i + 1] === '\\')) {
      text += input[i + 1]
      i++
    } else if (ch === '"') {
      return { text, end: i + 1 }
    } else {
      text += ch
    }
  }
  return fail('This quote is never closed', start, input.length - start, 'Close the phrase with " (write \\" for a quote inside it)')
}

function readWordEnd(input: string, start: number): number {
  let i = start
  while (i < input.length && !ENDS_WORD.test(input[i]!)) i++
  return i
}

export function tokenize(input: string): Token[] {
  const tokens: Token[] = []
  let i = 0
  while (i < input.length) {
    const ch = input[i]!
    if (SPACE.test(ch)) {
      i++
    } else if (ch === '(' || ch === ')') {
      tokens.push({ kind: ch === '(' ? 'lparen' : 'rparen', start: i, end: i + 1 })
      i++
    } else if (ch === '"') {
      const { text, end } = readQuoted(input, i)
      const star = input[end] === '*'
      tokens.push({ kind: 'quoted', text, star, start: i, end: star ? end + 1 : end })
      i = star ? end + 1 : end
    } else if (ch === '-' && i + 1 < input.length && !SPACE.test(input[i + 1]!) && input[i + 1] !== ')') {
      // `-term`: NOT term (a `-` alone or before a space is a word).
      tokens.push({ kind: 'minus', start: i, end: i + 1 })
      i++
    } else if (ch === '@') {
      const end = readWordEnd(input, i + 1)
      tokens.push({ kind: 'at', name: input.slice(i + 1, end), start: i, end })
      i = end
    } else {
      i = readWordOrField(input, i, tokens)
    }
  }
  return tokens
}

function readWordOrField(input: string, start: number, tokens: Token[]): number {
  const field = FIELD_AT.exec(input.slice(start, start + 200))
  if (field) {
    const [whole, name, op] = field as unknown as [string, string, string]
    const valueStart = start + whole.length
    if (input[valueStart] === '"') {
      const { text, end } = readQuoted(input, valueStart)
      tokens.push({ kind: 'field', name, nameEnd: start + name.length, op, value: text, valueStart, quoted: true, start, end })
      return end
    }
    const end = readWordEnd(input, valueStart)
    tokens.push({ kind: 'field', name, nameEnd: start + name.length, op, value: input.slice(valueStart, end), valueStart, quoted: false, start, end })
    return end
  }
  const end = readWordEnd(input, start)
  const text = input.slice(start, end)
  const kind = text === 'AND' ? 'and' : text === 'OR' ? 'or' : text === 'NOT' ? 'not' : null
  tokens.push(kind ? { kind, start, end } : { kind: 'word', text, start, end })
  return end
}
