import { TRPCError } from '@trpc/server'
import { StoreFaultError } from '../../src-shared/store-faults'
import { asStoreFault } from './errors'

/**
 * A subscription that meets a store fault after it started (a count or a tail reading a damaged
 * page) ends with an error the client does not retry. tRPC's SSE client reconnects on every
 * JSON-RPC -32603 code, which SERVICE_UNAVAILABLE shares with INTERNAL_SERVER_ERROR: it would read
 * the same damaged page again and again while the console showed the count as still running.
 * PRECONDITION_FAILED (412: the store it needs is not in a state to answer) reaches the client's
 * onError with the fault's message, what to run included (docs/api.md, "Streams that fail").
 */
export async function* storeFaultsEndSubscription<T>(source: AsyncIterable<T>): AsyncGenerator<T, void, undefined> {
  try {
    yield* source
  } catch (error) {
    const fault = asStoreFault(error)
    if (fault instanceof StoreFaultError) throw new TRPCError({ code: 'PRECONDITION_FAILED', message: fault.message, cause: fault })
    throw error
  }
}
