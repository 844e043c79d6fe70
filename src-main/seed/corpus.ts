import { z } from 'zod'
import corpusJson from '../../resources/demo/corpus.json'

/** The multilingual text the demo generator fills in: resources/demo/corpus.json. */

const TURN_KEYS = [
  'greeting',
  'request',
  'tool_preamble',
  'success',
  'failure',
  'followup',
  'followup_answer',
  'goodbye',
  'closing',
] as const

const turns = z.object(Object.fromEntries(TURN_KEYS.map((k) => [k, z.string().min(1)])) as Record<
  (typeof TURN_KEYS)[number],
  z.ZodString
>)

const jsonObject = z.record(z.string(), z.unknown())

const corpusSchema = z.object({
  languages: z.record(
    z.string(),
    z.object({ name: z.string(), dir: z.enum(['ltr', 'rtl']), locale: z.string(), phone_prefix: z.string() }),
  ),
  first_names: z.record(z.string(), z.array(z.string()).min(1)),
  last_names: z.record(z.string(), z.array(z.string()).min(1)),
  companies: z
    .array(
      z.object({ name: z.string(), industry: z.string(), billing_plan: z.string(), domain: z.string() }),
    )
    .min(8),
  agent_personas: z
    .array(
      z.object({ name: z.string(), role: z.string(), description: z.string(), languages: z.array(z.string()).min(1) }),
    )
    .min(1),
  scenarios: z
    .array(
      z.object({
        id: z.string(),
        industries: z.array(z.string()).min(1),
        tool: z.object({ name: z.string(), arguments: jsonObject, result: jsonObject, error: jsonObject }),
        turns: z.record(z.string(), turns),
      }),
    )
    .min(1),
})

export type Corpus = z.infer<typeof corpusSchema>
export type Scenario = Corpus['scenarios'][number]
export type TurnKey = (typeof TURN_KEYS)[number]

export const corpus: Corpus = corpusSchema.parse(corpusJson)

/** Replaces `{name}` placeholders; unknown ones are left as they are, to be visible in review. */
export function fill(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (whole, key: string) => values[key] ?? whole)
}

/** Fills every string inside a JSON-like value. */
export function fillDeep(value: unknown, values: Record<string, string>): unknown {
  if (typeof value === 'string') return fill(value, values)
  if (Array.isArray(value)) return value.map((v) => fillDeep(v, values))
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fillDeep(v, values)]))
  }
  return value
}
