import { z } from './zod'

/** A fault the store met (issue 36): what happened, in words that say what to do, and when. */
export const storeFaultNoteSchema = z.object({
  kind: z.enum(['full', 'damaged']),
  message: z.string(),
  /** ISO 8601. */
  at: z.string(),
})

/**
 * The store's health as the console's banner shows it: damage found on open or met since (until
 * the store is replaced), and the last write the disk refused (until a write gets through again).
 */
export const storeHealthSchema = z.object({
  damage: storeFaultNoteSchema.nullable(),
  writeFault: storeFaultNoteSchema.nullable(),
})
export type StoreHealthStatus = z.infer<typeof storeHealthSchema>
