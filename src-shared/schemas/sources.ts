import { z } from './zod'

/** The header a console's tRPC call names its source in (a query parameter would change every URL). */
export const SOURCE_HEADER = 'x-callscope-source'

/** A source a store's rows come from (issue 15 pt 4): Callscope's own, or a backend pulled from. */
export const sourceListingSchema = z.object({
  /** `local`, or the backend's base URL: what `?source=` and the console's picker send. */
  name: z.string(),
  kind: z.enum(['local', 'pulled']),
  firstPullAt: z.string().nullable(),
  lastPullAt: z.string().nullable(),
})
export type SourceListingOutput = z.infer<typeof sourceListingSchema>

/** The console's source picker: every source, and the one the caller is limited to (a bound token, or the picker's choice). */
export const sourcesAnswerSchema = z.object({
  sources: z.array(sourceListingSchema),
  /** `local`, a base URL, or null when the caller reads every source. */
  current: z.string().nullable(),
  /** True when the caller's token is bound to `current`: the picker cannot change it. */
  bound: z.boolean(),
})
