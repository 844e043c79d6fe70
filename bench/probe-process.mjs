// The responsiveness probe (bench/responsiveness.ts) as a process of its own: `GET <url>` every 20 ms
// on one keep-alive connection until the parent says "stop", then the waits go back to it, with when
// each probe was sent (epoch ms: bench/import-waits.ts lays them beside the operation). Apart from
// the process that drives the long operation (uploading an import, draining an export), so a busy
// client never shows up as a slow server. Plain JavaScript, started with fork().
import { Agent, request } from 'node:http'

const url = process.argv[2]
const EVERY_MS = Number(process.argv[3] ?? 20)
const agent = new Agent({ keepAlive: true, maxSockets: 1 })
const waits = []
const sentAt = []
let resets = 0
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

// After a long block, Node's keep-alive timer of an idle-looking connection fires before the request
// waiting on it is read, and the connection is reset: count it, retry on a new connection, and count
// the wait from the first send.
async function probe() {
  try {
    await get()
  } catch (error) {
    if (error?.code !== 'ECONNRESET') throw error
    resets++
    await get()
  }
}

await get()
process.send('ready')
while (running) {
  sentAt.push(Date.now())
  const sent = performance.now()
  await probe()
  const wait = performance.now() - sent
  waits.push(wait)
  if (wait < EVERY_MS) await new Promise((resolve) => setTimeout(resolve, EVERY_MS - wait))
}
agent.destroy()
process.send({ waits, resets, sentAt }, () => process.disconnect())
