import { parseArgs } from 'node:util'
import { startFuzzServer } from './fuzz-server'
import { runFuzz } from './fuzz-run'
import { formatSummary } from './tally'

/**
 * `npm run fuzz [-- --runs N --seed S --sockets N --batch N --time-limit SECONDS]`: requests generated
 * from the served /openapi.json against the real listener over a private copy of the demo store.
 * Exits 1 on any violation or when the server is not alive at the end.
 */
const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '10000' },
    seed: { type: 'string' },
    sockets: { type: 'string', default: '4' },
    batch: { type: 'string', default: '8' },
    'time-limit': { type: 'string', default: '600' },
  },
})
const seed = values.seed === undefined ? (Date.now() ^ (Math.random() * 0x7fffffff)) | 0 : Number(values.seed)
const runs = Number(values.runs)
if (!Number.isInteger(seed) || !(runs > 0)) throw new Error('--seed must be an integer and --runs a positive number')

const server = await startFuzzServer()
console.log(`fuzzing ${server.url} with ${runs.toLocaleString('en-US')} requests, seed ${seed}`)
let next = 1000
const result = await runFuzz(server, {
  runs,
  seed,
  maxSockets: Number(values.sockets),
  batch: Number(values.batch),
  timeLimitMs: Number(values['time-limit']) * 1000,
  onProgress: (tally) => {
    if (tally.requests < next) return
    next += 1000
    console.log(`  ${tally.requests.toLocaleString('en-US')} requests, ${tally.violations.length} violations`)
  },
})
await server.close()
console.log(formatSummary(result.tally, { seed, ...result }))
process.exit(result.tally.violations.length === 0 && result.alive ? 0 : 1)
