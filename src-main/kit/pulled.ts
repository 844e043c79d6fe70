import type { z } from '../../src-shared/schemas/zod'
import { InvalidInputError } from './errors'

/** Where something a pull fetched came from: the backend's address and when it was fetched (issue 15). */
export interface PulledFrom {
  source: string
  fetchedAt: string
}

/**
 * A pulled answer for the console, which draws Callscope's shape only: parsed by `schema`, or an
 * InvalidInputError saying so and where the answer is served as fetched (`servedAt`).
 */
export function parsePulled<T>(schema: z.ZodType<T>, json: string, from: PulledFrom, what: string, servedAt: string): T {
  const parsed = schema.safeParse(JSON.parse(json))
  if (!parsed.success) throw new InvalidInputError(`the ${what} pulled from ${from.source} are not in a shape the console can draw; ${servedAt} shows them as fetched`)
  return parsed.data
}

/** The headers of a REST answer served as a pull fetched it. */
export const pulledHeaders = (from: PulledFrom): Record<string, string> => ({
  'Content-Type': 'application/json',
  'Callscope-Pulled-From': from.source,
  'Callscope-Pulled-At': from.fetchedAt,
})
