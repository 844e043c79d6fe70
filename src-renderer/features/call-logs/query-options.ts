/**
 * Aggregates of a filter the user has already left are cancelled: the server stops counting at its
 * next slice (createTimeSlicer) instead of making the new filter's rows wait.
 */
export const ABORT_WHEN_SUPERSEDED = { trpc: { abortOnUnmount: true } } as const
