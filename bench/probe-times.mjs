// A probe like probe-process.mjs (bench/responsiveness.ts), keeping when each probe was sent:
// `GET <url>` every 20 ms on one keep-alive connection until told "stop", then the
// [epoch ms sent, wait ms] pairs go back to the parent (bench/import-waits.ts).
import { Agent, request } from 'node:http'

const url = process.argv[2]
const agent = new Agent({ keepAlive: true, maxSockets: 1 })
const probes = []
let running = true
process.on('message', (message) => {
  if (message === 'stop') running = false
})
const get = () =>
  new Promise((resolve, reject) => {
    const req = request(url, { agent }, (res) => {
      res.on('data', () => {})
      res.on('end', resolve)
      res.on('error', reject)
    })
    req.on('error', reject)
    req.end()
  })

await get()
process.send('ready')
while (running) {
  const at = Date.now()
  const sent = performance.now()
  // A connection reset after a long block: retried, the wait counted from the first send.
  await get().catch(get)
  const wait = performance.now() - sent
  probes.push([at, wait])
  if (wait < 20) await new Promise((resolve) => setTimeout(resolve, 20 - wait))
}
process.send(probes)
agent.destroy()
