import type { z } from '../../src-shared/schemas/zod'

/*
 * Why a record from outside (an import's line, a pull's answer) was refused, in one line a person
 * can act on: per problem the field, the rule and the value sent. Parse with `reportInput: true`
 * so zod keeps the value on each issue.
 */

/** Problems named per refused record; the rest are counted, so a report line stays readable. */
const MAX_PROBLEMS = 3

/** A refused value as a refusal names it: JSON, cut to 60 characters. */
function shownValue(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value)
  return text.length > 60 ? `${text.slice(0, 59)}…` : text
}

/** Why a record was refused, one line: each problem with its field ("a is required; b: …"). */
export function refusalReason(error: z.ZodError, value: Record<string, unknown>): string {
  const problems = error.issues.map((issue) => {
    const field = issue.path.join('.')
    if (issue.path.length === 1 && value[String(issue.path[0])] === undefined) return `${field} is required`
    const message = 'input' in issue && issue.input !== undefined ? `${issue.message} (got ${shownValue(issue.input)})` : issue.message
    return field ? `${field}: ${message}` : message
  })
  const shown = problems.slice(0, MAX_PROBLEMS).join('; ')
  return problems.length > MAX_PROBLEMS ? `${shown} (and ${problems.length - MAX_PROBLEMS} more)` : shown
}
