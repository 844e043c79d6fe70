import autocannon from 'autocannon'

export interface LoadResult {
  requestsPerSecond: number
  p50: number
  p99: number
  non2xx: number
}

function run(url: string, token: string, connections: number, duration: number) {
  return autocannon({ url, connections, duration, headers: { authorization: `Bearer ${token}` } })
}

/** Loads one URL: 2 s of warm-up, then the measured run. */
export async function loadTest(url: string, token: string, connections: number, durationS: number): Promise<LoadResult> {
  await run(url, token, connections, 2)
  const result = await run(url, token, connections, durationS)
  return {
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx + result.errors + result.timeouts,
  }
}
