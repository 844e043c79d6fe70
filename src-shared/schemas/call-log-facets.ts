import { callLogFilterSchema } from './call-log-search'
import { z } from './zod'

/*
 * The explorer's facets (issue 17 pt 2): counts by level, type, tenant and agent over the current
 * filter, and the top values of one `details` key the user picks, over the newest matching lines.
 */

/** The most values one facet lists (most first); the rest are left out. */
export const FACET_VALUES_MAX = 100
/** A details facet counts the values of this many matching lines, newest first (most keys have no index; those with one count every line of a bare range). */
export const DETAILS_FACET_LINES = 10_000
/** The keys to pick from are those of this many matching lines, newest first. */
export const DETAILS_KEYS_LINES = 1_000
/** The most values a details facet lists. */
export const DETAILS_FACET_TOP = 20

export const facetCountSchema = z.object({ value: z.string(), count: z.number().int() })
export type FacetCount = z.infer<typeof facetCountSchema>

/** A tenant or an agent: its id, its name (null when it has none) and whether another has the same name. */
export const namedFacetCountSchema = facetCountSchema.extend({ name: z.string().nullable(), nameShared: z.boolean() })
export type NamedFacetCount = z.infer<typeof namedFacetCountSchema>

export const callLogFacetsSchema = z.object({
  levels: z.array(facetCountSchema),
  types: z.array(facetCountSchema),
  tenants: z.array(namedFacetCountSchema),
  agents: z.array(namedFacetCountSchema),
})
export type CallLogFacets = z.infer<typeof callLogFacetsSchema>

/**
 * One step of the facets shown as they go (tRPC `callLogs.facetsProgress`, as count by's
 * `countByProgress`): the counts over the time slices read so far, newest first, the share of the
 * range read, and whether it is the last (the whole counts).
 */
export const callLogFacetsProgressSchema = z.object({
  answer: callLogFacetsSchema,
  scanned: z.number().min(0).max(1),
  complete: z.boolean(),
})
export type CallLogFacetsProgress = z.infer<typeof callLogFacetsProgressSchema>

/** `provider`, `usage.tokens`: what the query language takes after `details.` (fields.ts). */
export const DETAILS_KEY = /^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/

export const detailsKeySchema = z.string().max(200).regex(DETAILS_KEY, 'A details key is letters, digits, _ and - with dots between parts (provider, usage.tokens)')

export const detailsKeysInputSchema = z.object({ filter: callLogFilterSchema })
export const detailsKeysSchema = z.object({
  /** Top-level keys with a plain value (text, number, true/false, null), most lines first. */
  keys: z.array(z.object({ key: z.string(), count: z.number().int() })),
  /** Lines read (at most DETAILS_KEYS_LINES). */
  linesRead: z.number().int(),
})
export type DetailsKeys = z.infer<typeof detailsKeysSchema>

export const detailsFacetInputSchema = z.object({ filter: callLogFilterSchema, key: detailsKeySchema })
export const detailsValueSchema = z.union([z.string(), z.number(), z.boolean(), z.null()])
export type DetailsValue = z.infer<typeof detailsValueSchema>
export const detailsFacetSchema = z.object({
  key: z.string(),
  /** The key's plain values in the lines read, most first (at most DETAILS_FACET_TOP); objects and arrays are not counted. */
  values: z.array(z.object({ value: detailsValueSchema, count: z.number().int() })),
  /** Lines read: the newest matching lines, at most DETAILS_FACET_LINES. */
  linesRead: z.number().int(),
  /** Of those, lines that have the key (with any value). */
  linesWithKey: z.number().int(),
  /** Whether more lines match than were read. */
  sampled: z.boolean(),
})
export type DetailsFacet = z.infer<typeof detailsFacetSchema>
