import autocannon from 'autocannon'
import { cpuMs, mainThreadCpuMs } from './process-cpu'

export interface LoadResult {
  requestsPerSecond: number
  p50: number
  p99: number
  non2xx: number
  /**
   * The server's CPU time per request in ms over the measured run, all its threads together: the
   * work a request costs, which is what more cores divide (null without the server's pid).
   */
  cpuMsPerRequest: number | null
  /** The same for the server's main thread alone (HTTP, routing, validation, sending): null without /proc. */
  mainThreadCpuMsPerRequest: number | null
}

function run(url: string, token: string, connections: number, duration: number) {
  return autocannon({ url, connections, duration, headers: { authorization: `Bearer ${token}` } })
}

/** Loads one URL: 2 s of warm-up, then the measured run. `serverPid` adds the server's CPU time. */
export async function loadTest(url: string, token: string, connections: number, durationS: number, serverPid?: number): Promise<LoadResult> {
  await run(url, token, connections, 2)
  const cpuBefore = serverPid ? cpuMs(serverPid) : 0
  const mainBefore = serverPid ? mainThreadCpuMs(serverPid) : null
  const result = await run(url, token, connections, durationS)
  const cpuUsed = serverPid ? cpuMs(serverPid) - cpuBefore : null
  const mainAfter = serverPid ? mainThreadCpuMs(serverPid) : null
  const perRequest = (used: number | null) => (used === null || result.requests.total === 0 ? null : used / result.requests.total)
  return {
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx + result.errors + result.timeouts,
    cpuMsPerRequest: perRequest(cpuUsed),
    mainThreadCpuMsPerRequest: perRequest(mainBefore === null || mainAfter === null ? null : mainAfter - mainBefore),
  }
}
