import { SESSIONS_PAGE as P } from '../constants'
import { integerParam } from './params'
import { z } from './zod'

export const sessionListItemSchema = z
  .object({
    conversation_id: z.string(),
    created_at: z.string(),
    updated_at: z.string(),
    message_count: z.number().int(),
    last_message_preview: z.string().openapi({ description: 'The last non-empty message, cut to 120 characters' }),
  })
  .openapi('SessionListItem')

export const sessionListSchema = z
  .object({
    sessions: z.array(sessionListItemSchema),
    total: z.number().int(),
    limit: z.number().int(),
    offset: z.number().int(),
  })
  .openapi('SessionList')

export const sessionListQuerySchema = z.object({
  limit: integerParam({ min: P.limitMin, max: P.limitMax, default: P.limitDefault, description: 'Number of sessions to return' }),
  offset: integerParam({ min: P.offsetMin, default: 0, description: 'Offset for pagination' }),
})

export type SessionListItem = z.infer<typeof sessionListItemSchema>
export type SessionList = z.infer<typeof sessionListSchema>
export type SessionListQuery = z.output<typeof sessionListQuerySchema>
