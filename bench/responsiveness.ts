/**
 * Responsiveness (issue 19): how long a trivial request waits while one long operation runs on the
 * same server. A probe process (probe-process.mjs) sends `GET /healthz` every 20 ms on its own connection; each probe's time is
 * how long the server kept it waiting. One long operation at a time, on a copy of the large dataset
 * (the import writes to it).
 */
import { fork } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { Agent, request } from 'node:http'
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { fileURLToPath } from 'node:url'

export interface LongOperation {
  name: string
  /** Runs the operation to its end against the server; resolves when its response is fully read. */
  run(baseUrl: string, token: string): Promise<void>
}

export interface ResponsivenessRow {
  name: string
  operationMs: number
  probes: number
  probeP50: number
  probeP99: number
  longestWait: number
  /** Probes whose kept-alive connection was reset under them (Node's keep-alive timer fires late after a blocked loop), then retried on a new one. */
  resets: number
}

const PROBE_EVERY_MS = 20

/** One GET on a keep-alive agent, body read to the end; resolves with its status (and the body, when `keep`). */
function get(url: string, agent: Agent, headers: Record<string, string> = {}, keep = false): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent, headers }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => keep && chunks.push(chunk))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }))
      res.on('error', reject)
    })
    req.on('error', reject)
    req.end()
  })
}

async function expectOk(answer: Promise<{ status: number; body: string }>, what: string, stoppedAtBudget = false): Promise<void> {
  const { status, body } = await answer
  // A query-language read that reaches its 2 s budget ends as a 400 saying so: it ran its whole course.
  if (stoppedAtBudget && status === 400 && /was stopped after 2 s/.test(body)) return
  if (status < 200 || status > 299) throw new Error(`${what} answered ${status}: ${body.slice(0, 300)}`)
}

/** The console's count as it goes (Server-Sent Events), read to its end: it must end with its complete answer. */
async function countByProgressToItsEnd(answer: Promise<{ status: number; body: string }>): Promise<void> {
  const { status, body } = await answer
  const answers = body.split('\n').filter((line) => line.startsWith('data: {'))
  if (status !== 200 || !/event: return/.test(body) || !/"complete":true/.test(answers.at(-1) ?? '')) {
    throw new Error(`countByProgress answered ${status} without its complete answer: ${body.slice(-300)}`)
  }
}

/** The long operations of the table, on real ids of the dataset. */
export function longOperations(importFile: string): LongOperation[] {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 })
  const auth = (token: string) => ({ authorization: `Bearer ${token}` })
  const trpc = (procedure: string, input: unknown) => `/trpc/${procedure}?input=${encodeURIComponent(JSON.stringify(input))}`
  // Every line, by a details key without an index of its own: each line's JSON is read (the slowest count).
  const everyLineByLanguage = { filter: {}, by: 'details.language', top: 5 }
  return [
    {
      name: '`GET /export/call-logs.ndjson` (every row)',
      run: (base, token) => expectOk(get(`${base}/export/call-logs.ndjson`, agent, auth(token)), 'export'),
    },
    {
      name: '`GET /export/call-logs.csv` (every row)',
      run: (base, token) => expectOk(get(`${base}/export/call-logs.csv`, agent, auth(token)), 'CSV export'),
    },
    {
      name: '`POST /imports/call-logs`, 50,000 records into the large store',
      run: (base, token) =>
        new Promise<void>((resolve, reject) => {
          const req = request(`${base}/imports/call-logs?format=ndjson&file_name=bench.ndjson`, { method: 'POST', agent, headers: { ...auth(token), 'content-type': 'application/x-ndjson' } }, (res) => {
            res.on('data', () => {})
            res.on('end', () => (res.statusCode === 201 ? resolve() : reject(new Error(`import answered ${res.statusCode}`))))
          })
          req.on('error', reject)
          pipeline(Readable.from([readFileSync(importFile)]), req).catch(reject)
        }),
    },
    {
      name: 'tRPC `callLogs.histogram`, search `request`',
      run: (base, token) => expectOk(get(`${base}${trpc('callLogs.histogram', { filter: { q: 'request' } })}`, agent, auth(token)), 'histogram'),
    },
    {
      name: 'tRPC `callLogs.facets`, search `request`',
      run: (base, token) => expectOk(get(`${base}${trpc('callLogs.facets', { filter: { q: 'request' } })}`, agent, auth(token)), 'facets'),
    },
    {
      name: 'tRPC `callLogs.countBy` by `details.language`, every line',
      run: (base, token) => expectOk(get(`${base}${trpc('callLogs.countBy', everyLineByLanguage)}`, agent, auth(token), true), 'count by', true),
    },
    {
      name: "tRPC `callLogs.countByProgress` (the console's stream), the same count to its end",
      run: (base, token) => countByProgressToItsEnd(get(`${base}${trpc('callLogs.countByProgress', everyLineByLanguage)}`, agent, auth(token), true)),
    },
    {
      name: 'tRPC `callLogs.search`, query `details.language:xx` (every line read, or the 2 s budget)',
      run: (base, token) => expectOk(get(`${base}${trpc('callLogs.search', { filter: { query: 'details.language:xx' }, limit: 200 })}`, agent, auth(token), true), 'search', true),
    },
    {
      name: '`GET /export/call-logs.ndjson?query=imeout OR "rate limit"`',
      run: (base, token) => expectOk(get(`${base}/export/call-logs.ndjson?query=${encodeURIComponent('imeout OR "rate limit"')}`, agent, auth(token)), 'query export'),
    },
    {
      name: '`GET /logs/calls?limit=1000`',
      run: (base, token) => expectOk(get(`${base}/logs/calls?limit=1000`, agent, auth(token)), 'call logs page'),
    },
  ]
}

/** Probes `/healthz` every 20 ms from a process of its own (probe-process.mjs) while `operation` runs here. */
export async function measureResponsiveness(baseUrl: string, token: string, operation: LongOperation): Promise<ResponsivenessRow> {
  const prober = fork(fileURLToPath(new URL('./probe-process.mjs', import.meta.url)), [`${baseUrl}/healthz`, String(PROBE_EVERY_MS)], { stdio: 'inherit' })
  const report = new Promise<{ waits: number[]; resets: number }>((resolve, reject) => {
    prober.on('message', (message) => typeof message === 'object' && resolve(message as { waits: number[]; resets: number }))
    prober.on('exit', (code) => reject(new Error(`the probe process stopped (exit code ${code})`)))
  })
  await new Promise<void>((resolve) => prober.once('message', () => resolve()))
  const started = performance.now()
  try {
    await operation.run(baseUrl, token)
  } finally {
    prober.send('stop')
  }
  const operationMs = performance.now() - started
  const { waits, resets } = await report
  const sorted = [...waits].sort((a, b) => a - b)
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!
  return { name: operation.name, operationMs, probes: waits.length, probeP50: at(0.5), probeP99: at(0.99), longestWait: sorted.at(-1)!, resets }
}
