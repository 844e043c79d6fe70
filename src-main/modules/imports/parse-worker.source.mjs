// The parse worker when Callscope runs from its TypeScript sources (CLI, `npm run serve`, tests):
// a worker thread starts without the main thread's tsx loader, so it registers its own first. The
// thread gives way to the main thread before that (tsx and the parser take it about a second of CPU
// to load; see parse-worker.ts).
import { BACKGROUND_NICE, lowerWorkerPriority } from '../../lib/thread-priority.mjs'

lowerWorkerPriority(BACKGROUND_NICE)
const { register } = await import('tsx/esm/api')
register()
await import('./parse-worker.ts')
