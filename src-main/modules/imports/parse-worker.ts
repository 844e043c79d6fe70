import { BACKGROUND_NICE, lowerWorkerPriority } from '../../lib/thread-priority.mjs'

/*
 * Worker entry of an import's parser: the thread gives way to the main thread before it loads
 * anything. Loading the parser (zod, the schemas, csv-parse) costs a new thread about 0.3 s of CPU;
 * at the default priority that ran beside the main thread at the start of every import and kept
 * `/healthz` waiting 50–130 ms on 2 cores (bench/responsiveness.ts, import row). Messages the main
 * thread sends meanwhile wait in the port until the parser listens.
 */
lowerWorkerPriority(BACKGROUND_NICE)
await import('./parse-worker-body')
