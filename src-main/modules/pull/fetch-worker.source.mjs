// The fetch worker when Callscope runs from its TypeScript sources (CLI, `npm run serve`, tests):
// a worker thread starts without the main thread's tsx loader, so it registers its own first.
import { register } from 'tsx/esm/api'

register()
await import('./fetch-worker.ts')
