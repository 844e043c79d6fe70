import { LOG_LEVELS } from '../constants'
import { type CompareOp, FIELD_NAMES, type FieldName, type FieldNode, type NotNode } from './ast'
import { fail, type Token } from './lexer'

/*
 * Field terms: `level:error`, `agent:"Aria · Reception"`, `details.latency_ms>2000`. Which fields
 * exist, which operators each takes and which values, with a hint for every refusal.
 */

type FieldToken = Extract<Token, { kind: 'field' }>

/** Spellings of the levels as backends send them, read as the store's normalised level. */
const LEVEL_ALIASES: Record<string, string> = { warn: 'warning', err: 'error', fatal: 'critical', crit: 'critical' }

export const FIELD_LIST = 'level, type, tenant, agent, call, trace, session, user, request, details.<key>'

/** `details.a.b` keys: letters, digits, `_` and `-` per segment. */
const KEY_SEGMENT = /^[A-Za-z0-9_-]+$/
const NUMBER = /^-?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i

function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0]!
    row[0] = i
    for (let j = 1; j <= b.length; j++) {
      const next = Math.min(row[j]! + 1, row[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1))
      prev = row[j]!
      row[j] = next
    }
  }
  return row[b.length]!
}

function closest(name: string, options: readonly string[]): string | null {
  let best: string | null = null
  let bestDistance = 3
  for (const option of options) {
    const d = editDistance(name.toLowerCase(), option)
    if (d < bestDistance) [best, bestDistance] = [option, d]
  }
  return best
}

export const normalLevel = (value: string): string | null => {
  const lower = value.toLowerCase()
  const level = LEVEL_ALIASES[lower] ?? lower
  return (LOG_LEVELS as readonly string[]).includes(level) ? level : null
}

/** A field token as a node: `!=` becomes NOT of `:`. */
export function fieldNode(token: FieldToken): FieldNode | NotNode {
  const { name, op: written, value, quoted, start, end } = token
  const [head, ...path] = name.split('.')
  const field = resolveField(token, head!, path)
  if (!quoted && value === '') {
    fail(`${name}${written} needs a value`, token.valueStart, 0, `Write a value right after ${written}, without a space: ${name}${written}${example(field)}`)
  }
  const negated = written === '!='
  const op = (written === '=' || written === '!=' ? ':' : written) as CompareOp
  const node: FieldNode = { kind: 'field', field, op, value, quoted, start, end }
  if (field === 'details') node.path = path
  checkOperator(token, node)
  checkValue(token, node)
  return negated ? { kind: 'not', child: node, start, end } : node
}

const example = (field: FieldName): string =>
  ({ level: 'error', type: 'llm', tenant: '"Acme"', agent: '"Aria · Reception"', details: 'groq' } as Record<string, string>)[field] ?? 'abc123'

function resolveField(token: FieldToken, head: string, path: string[]): FieldName {
  const lower = head.toLowerCase()
  if (!(FIELD_NAMES as readonly string[]).includes(lower)) {
    const near = closest(head, FIELD_NAMES)
    fail(
      `Unknown field "${head}"`,
      token.start,
      token.nameEnd - token.start,
      `${near ? `Did you mean ${near}? ` : ''}Fields: ${FIELD_LIST}. To search for the text itself, put it in quotes.`,
    )
  }
  const field = lower as FieldName
  if (field === 'details') {
    if (path.length === 0 || path.some((segment) => !KEY_SEGMENT.test(segment))) {
      fail('details needs a key', token.start, token.nameEnd - token.start, 'Name the key after a dot: details.provider:groq, details.usage.tokens>1000')
    }
  } else if (path.length > 0) {
    fail(`${field} has no keys`, token.start, token.nameEnd - token.start, `Only details has keys (details.provider). Write ${field}:value`)
  }
  return field
}

function checkOperator(token: FieldToken, node: FieldNode): void {
  const { field, op } = node
  const opStart = token.nameEnd
  if (op === ':' || field === 'details' || field === 'level') return
  fail(`${field} takes no ${op}`, opStart, token.op.length, `${field} is compared whole: ${field}:value or ${field}!=value`)
}

function checkValue(token: FieldToken, node: FieldNode): void {
  const { field, op, value, quoted } = node
  const at = token.valueStart
  const length = token.end - at
  if (field === 'level') {
    const level = normalLevel(value)
    if (!level) fail(`Unknown level "${value}"`, at, length, `Levels: ${LOG_LEVELS.join(', ')} (level>=warning for warning and above)`)
    node.value = level!
    return
  }
  if (value.length > 500) fail('This value is too long', at, length, 'Values hold at most 500 characters')
  if (field === 'details') {
    if (!quoted && value === '*' && op === ':') node.wildcard = 'exists'
    else if (!quoted && value.endsWith('*') && op === ':') {
      node.wildcard = 'prefix'
      node.value = value.replace(/\*+$/, '')
      if (node.value.includes('*')) fail('* works only at the end of a value', at, length, 'details.model:gpt* finds values starting with gpt')
    } else if (op !== ':' && (quoted || !NUMBER.test(value))) {
      fail(`${op} compares numbers`, at, length, `Write a number: details.${node.path!.join('.')}${op}2000`)
    }
    return
  }
  if (!quoted && value.includes('*')) fail(`${field} takes no wildcard`, at, length, `${field} matches a whole value; only details values take a trailing *`)
}

export const isNumber = (value: string): boolean => NUMBER.test(value)
