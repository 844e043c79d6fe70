import { MAX_ID_LENGTH } from './params'
import { z } from './zod'

/** Any 8-4-4-4-12 hex id, in either case (ids from other backends need not be RFC 4122 versions). */
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** What starts a pull from a live backend, as the console's form and `pulls.start` take it. */
export const pullRequestSchema = z.object({
  baseUrl: z
    .string()
    .trim()
    .regex(/^https?:\/\/[^\s/]+/i, 'enter the backend address, starting with http:// or https://'),
  token: z.string().trim().min(1, 'a token for the backend is needed'),
  tenantId: z
    .string()
    .trim()
    .regex(UUID_PATTERN, 'a tenant id is a UUID')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  /** An ISO 8601 date or date-time; the service checks it the way the REST date parameters are. */
  since: z.string().trim().optional().or(z.literal('').transform(() => undefined)),
  squads: z.array(z.string().trim().min(1, 'a squad id is not empty').max(MAX_ID_LENGTH)).max(100).optional(),
  rate: z.number().positive().max(1000).optional(),
})

export type PullRequest = z.input<typeof pullRequestSchema>

/** The pauses the console offers between two pulls of a sync, in seconds. */
export const SYNC_INTERVALS_S = [10, 30, 60, 300, 900] as const

/** A pull kept going: the same fields, and the pause between two pulls. */
export const syncRequestSchema = pullRequestSchema.extend({
  intervalSeconds: z.number().int().min(1, 'at least 1 second').max(86_400, 'at most a day').default(30),
})

/** What a pull keeps as the remote's JSON, having no table of its own (pulled_documents.kind). */
export const PULLED_KINDS = ['session', 'squad_analytics', 'sip_trunks', 'llm_provider'] as const

/** A page of one kind of pulled document from one source, for the console's browser. */
export const pulledDocumentsQuerySchema = z.object({
  source: z.string().min(1).max(2000),
  kind: z.enum(PULLED_KINDS),
  offset: z.number().int().min(0).default(0),
  limit: z.number().int().min(1).max(200).default(50),
})
