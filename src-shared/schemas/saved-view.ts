import { savedViewStateSchema } from '../explorer-state'
import { laxUuid } from './params'
import { z } from './zod'

/*
 * Saved views of the log explorer (issue 17 pt 5): a name, an optional description and the
 * explorer's state. Names are unique in a store whatever their case (`Timeouts` and `TIMEOUTS`
 * are one name), compared after trimming and Unicode normalisation (NFC).
 */

export const SAVED_VIEW_NAME_MAX = 100
export const SAVED_VIEW_DESCRIPTION_MAX = 1000
/** The most views one store keeps: the console lists them all in one menu. */
export const SAVED_VIEWS_MAX = 1000

/** Control characters (a newline, a tab) would not show in a menu or a title. */
const PRINTABLE = /^[^\p{Cc}]*$/u

const name = z
  .string()
  .trim()
  .min(1)
  .max(SAVED_VIEW_NAME_MAX)
  .refine((s) => PRINTABLE.test(s), {
    message: 'A name is one line: no control characters (tabs, line breaks)',
    params: { type: 'string_pattern_mismatch', ctx: { pattern: PRINTABLE.source } },
  })
  .transform((s) => s.normalize('NFC'))
  .openapi({ description: `1 to ${SAVED_VIEW_NAME_MAX} characters once trimmed, one line; unique in the store, ignoring case`, example: 'Timeouts, last 24 hours' })
const description = z
  .string()
  .trim()
  .max(SAVED_VIEW_DESCRIPTION_MAX)
  .transform((s) => s.normalize('NFC') || null)
  .nullable()
  .openapi({ description: `Up to ${SAVED_VIEW_DESCRIPTION_MAX} characters; empty or null for none` })

/** The key two names are compared by: trimmed (by the schema), NFC, lower case in every script. */
export const savedViewNameKey = (text: string): string => text.trim().normalize('NFC').toLowerCase()

export const savedViewSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    description: z.string().nullable(),
    state: savedViewStateSchema,
    created_at: z.string().openapi({ example: '2026-11-24T10:00:00.000Z' }),
    updated_at: z.string().openapi({ description: 'Last change of its name, description or state', example: '2026-11-24T10:00:00.000Z' }),
  })
  .openapi('SavedView')
export type SavedView = z.output<typeof savedViewSchema>

export const savedViewListSchema = z.object({ views: z.array(savedViewSchema).openapi({ description: 'By name, ignoring case' }) }).openapi('SavedViewList')
export type SavedViewList = z.output<typeof savedViewListSchema>

/** `POST /views` and `PUT /views/{id}`: the whole view. */
export const savedViewInputSchema = z
  .object({ name, description: description.optional(), state: savedViewStateSchema })
  .openapi('SavedViewInput')
export type SavedViewInput = z.output<typeof savedViewInputSchema>

/** `PATCH /views/{id}`: what changes (a rename, the state of now), at least one field. */
export const savedViewPatchSchema = z
  .object({ name: name.optional(), description: description.optional(), state: savedViewStateSchema.optional() })
  .refine((p) => p.name !== undefined || p.description !== undefined || p.state !== undefined, 'Give at least one of name, description, state')
  .openapi('SavedViewPatch')
export type SavedViewPatch = z.output<typeof savedViewPatchSchema>

export const savedViewIdParamsSchema = z.object({ id: laxUuid().openapi({ description: 'The view id' }) })
