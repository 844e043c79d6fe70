import type { z } from 'zod'
import type { ValidationError } from '../../../src-shared/schemas/errors'
import { uuidProblem } from '../../../src-shared/schemas/lax-uuid'

/**
 * Translates zod issues into pydantic v2 error objects, so clients written against the FastAPI
 * backend read Callscope's 422s unchanged: same `type` names, same `msg` wording, same `ctx` keys.
 */

export type Location = 'path' | 'query' | 'body' | 'header'

type Issue = z.core.$ZodIssue

const describe = (values: readonly unknown[]): string => {
  const quoted = values.map((v) => (typeof v === 'string' ? `'${v}'` : String(v)))
  return quoted.length <= 1 ? (quoted[0] ?? '') : `${quoted.slice(0, -1).join(', ')} or ${quoted.at(-1)}`
}

/** Pydantic names for the JSON types zod reports as expected. */
const TYPE_ERRORS: Record<string, { type: string; msg: string }> = {
  string: { type: 'string_type', msg: 'Input should be a valid string' },
  number: { type: 'float_type', msg: 'Input should be a valid number' },
  int: { type: 'int_type', msg: 'Input should be a valid integer' },
  boolean: { type: 'bool_type', msg: 'Input should be a valid boolean' },
  object: { type: 'model_attributes_type', msg: 'Input should be a valid dictionary or object to extract fields from' },
  record: { type: 'dict_type', msg: 'Input should be a valid dictionary' },
  array: { type: 'list_type', msg: 'Input should be a valid list' },
}

function inputAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let value = root
  for (const key of path) {
    if (value === null || typeof value !== 'object') return undefined
    value = (value as Record<PropertyKey, unknown>)[key]
  }
  return value
}

function translate(issue: Issue, input: unknown): Omit<ValidationError, 'loc' | 'input'> {
  const params = (issue as { params?: { type?: string; ctx?: Record<string, unknown> } }).params
  if (issue.code === 'custom' && params?.type) {
    return { type: params.type, msg: issue.message, ...(params.ctx ? { ctx: params.ctx } : {}) }
  }
  switch (issue.code) {
    case 'invalid_type': {
      if (input === undefined) return { type: 'missing', msg: 'Field required' }
      if ((issue.expected === 'int' || issue.expected === 'number') && typeof input === 'string') {
        return issue.expected === 'int'
          ? { type: 'int_parsing', msg: 'Input should be a valid integer, unable to parse string as an integer' }
          : { type: 'float_parsing', msg: 'Input should be a valid number, unable to parse string as a number' }
      }
      if (issue.expected === 'int' && typeof input === 'number') {
        return { type: 'int_from_float', msg: 'Input should be a valid integer, got a number with a fractional part' }
      }
      return TYPE_ERRORS[issue.expected] ?? { type: `${issue.expected}_type`, msg: `Input should be a valid ${issue.expected}` }
    }
    case 'too_small': {
      const min = issue.minimum as number
      if (issue.origin === 'string') {
        return { type: 'string_too_short', msg: `String should have at least ${min} character${min === 1 ? '' : 's'}`, ctx: { min_length: min } }
      }
      if (issue.origin === 'array') {
        return { type: 'too_short', msg: `List should have at least ${min} item${min === 1 ? '' : 's'}`, ctx: { min_length: min } }
      }
      return issue.inclusive
        ? { type: 'greater_than_equal', msg: `Input should be greater than or equal to ${min}`, ctx: { ge: min } }
        : { type: 'greater_than', msg: `Input should be greater than ${min}`, ctx: { gt: min } }
    }
    case 'too_big': {
      const max = issue.maximum as number
      if (issue.origin === 'string') {
        return { type: 'string_too_long', msg: `String should have at most ${max} character${max === 1 ? '' : 's'}`, ctx: { max_length: max } }
      }
      if (issue.origin === 'array') {
        return { type: 'too_long', msg: `List should have at most ${max} item${max === 1 ? '' : 's'}`, ctx: { max_length: max } }
      }
      return issue.inclusive
        ? { type: 'less_than_equal', msg: `Input should be less than or equal to ${max}`, ctx: { le: max } }
        : { type: 'less_than', msg: `Input should be less than ${max}`, ctx: { lt: max } }
    }
    case 'invalid_format':
      if (issue.format === 'uuid' || issue.format === 'guid') {
        return { type: 'uuid_parsing', msg: `Input should be a valid UUID, ${uuidProblem(String(input))}`, ctx: { error: uuidProblem(String(input)) } }
      }
      if (issue.format === 'url') return { type: 'url_parsing', msg: 'Input should be a valid URL' }
      return { type: 'string_pattern_mismatch', msg: `String should match the ${issue.format} format`, ctx: { pattern: issue.format } }
    case 'invalid_value': {
      const expected = describe(issue.values)
      return issue.values.length === 1
        ? { type: 'literal_error', msg: `Input should be ${expected}`, ctx: { expected } }
        : { type: 'enum', msg: `Input should be ${expected}`, ctx: { expected } }
    }
    case 'unrecognized_keys':
      return { type: 'extra_forbidden', msg: 'Extra inputs are not permitted' }
    default:
      return { type: 'value_error', msg: `Value error, ${issue.message}` }
  }
}

export function toValidationErrors(location: Location, issues: readonly Issue[], root: unknown): ValidationError[] {
  const errors: ValidationError[] = []
  for (const issue of issues) {
    // unrecognized_keys reports all extra keys in one issue; pydantic reports one error per key.
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        const loc = [location, ...issue.path.map(String), key]
        errors.push({ type: 'extra_forbidden', loc, msg: 'Extra inputs are not permitted', input: inputAt(root, [...issue.path, key]) })
      }
      continue
    }
    const given = issue.path.length === 0 ? root : inputAt(root, issue.path)
    // A repeated query key arrives as an array; FastAPI validates (and reports) its last value.
    const input = location === 'query' && issue.path.length === 1 && Array.isArray(given) ? given.at(-1) : given
    const loc = [location, ...issue.path.map((p) => (typeof p === 'number' ? p : String(p)))]
    const translated = translate(issue, input)
    errors.push({ type: translated.type, loc, msg: translated.msg, input: input === undefined ? (translated.type === 'missing' ? null : undefined) : input, ...(translated.ctx ? { ctx: translated.ctx } : {}) })
  }
  return errors
}
