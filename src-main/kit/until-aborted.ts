/**
 * A stream that ends quietly once its reader has gone. tRPC's SSE producer asks a subscription for
 * its next value before the last one is written (to race it against the keep-alive ping), so when
 * the client hangs up that request is left pending with nobody to await it; if the source then
 * throws (the time slicer throws the abort's reason), the rejection is unhandled and Node exits.
 * After the abort there is no one to tell, so any error ends the stream instead.
 */
export async function* untilAborted<T>(source: AsyncIterable<T>, signal: AbortSignal): AsyncGenerator<T, void, undefined> {
  try {
    yield* source
  } catch (error) {
    if (!signal.aborted) throw error
  }
}

export const isAsyncIterable = (value: unknown): value is AsyncIterable<unknown> =>
  typeof value === 'object' && value !== null && typeof (value as AsyncIterable<unknown>)[Symbol.asyncIterator] === 'function'
