/*
 * The calls list's fixed choices, apart from their zod schemas (schemas/call.ts) so that the
 * console's Calls page can use them without loading zod into its chunk.
 */
export const CALL_SORTS = ['started_at', 'duration_ms', 'status'] as const
export const CALL_DIRECTIONS = ['inbound', 'outbound'] as const
export const CALLS_PAGE = { limitMin: 1, limitMax: 500, limitDefault: 50 } as const
