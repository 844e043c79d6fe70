import { existsSync } from 'node:fs'
import { setImmediate } from 'node:timers/promises'
import { fileURLToPath } from 'node:url'
import type { MessagePort, Worker } from 'node:worker_threads'

/*
 * A worker thread that feeds its caller batches, as an import's parser (modules/imports/parse-in-worker.ts)
 * and a pull's fetcher (modules/pull/windows-in-worker.ts) do: the worker posts each batch and
 * waits for the caller's ack once it is `maxAhead` batches ahead, so memory stays flat; the
 * caller takes them as an async generator. Batches cross as bytes (`v8.serialize`, moved rather
 * than copied): whoever reads them rebuilds them, which may be a third thread (the writer's).
 */

/** Caller → worker: "one batch taken". Feeds may add messages of their own. */
export interface AckMessage {
  type: 'ack'
}

/** Worker → caller: a batch, the end, or why it stopped (`F`: what the feed says of a failure). */
export type FeedMessage<B, F extends object = object> = { type: 'batch'; batch: B } | { type: 'done' } | ({ type: 'failed'; message: string } & F)

/**
 * A value as bytes (`v8.serialize`): what a worker posts (the buffer moves with the message) and
 * whoever reads it rebuilds; an import's batch and a pull window's rows both cross as one.
 */
export interface Packed {
  packed: Uint8Array
}

/**
 * The buffer bytes can move in (transferred to another thread rather than copied): their own,
 * when they fill it alone, as they do once a worker has moved or copied them here; else none.
 */
export function movableBuffers(bytes: Uint8Array): ArrayBuffer[] {
  const { buffer, byteOffset, byteLength } = bytes
  return buffer instanceof ArrayBuffer && byteOffset === 0 && byteLength === buffer.byteLength ? [buffer] : []
}

/**
 * Where a worker's code is: next to the calling module when it runs from source (the CLI and tests
 * run TypeScript through tsx, which `<name>.source.mjs` registers in the worker), or `<name>.js`
 * next to the electron-vite bundle, a build input of its own (electron.vite.config.ts). Null when
 * neither is there (an unusual bundle): the caller then does the work on its own thread.
 */
export function workerEntry(moduleUrl: string, name: string): URL | null {
  const fromSource = moduleUrl.endsWith('.ts')
  const url = new URL(fromSource ? `./${name}.source.mjs` : `./${name}.js`, moduleUrl)
  return url.protocol === 'file:' && existsSync(fileURLToPath(url)) ? url : null
}

/** One waiter woken by the next `wakeUp` (a new message, a chunk taken): a loop's "wait for news". */
export function wakeSignal() {
  let wake: (() => void) | null = null
  return {
    wait: () => new Promise<void>((resolve) => (wake = resolve)),
    wakeUp: () => {
      const resolve = wake
      wake = null
      resolve?.()
    },
  }
}

export interface FeedReader<F extends object, O extends { type: string }> {
  /** The error a `failed` message stands for. */
  failure(message: { message: string } & F): Error
  /** The error when the worker ends without saying why (it crashed or ran out of memory). */
  stopped(code: number): Error
  /** Messages of the feed's own (progress, flow control); called in the order they came. */
  other?(message: O): void
}

/**
 * The worker's batches in the order posted, each acknowledged once the caller asks for the next.
 * Ends with the worker's `done`; throws what a `failed` message or the worker's death stands for,
 * so a crashed worker is an error, never a wait. Ending early (a `return`, a throw) terminates it.
 * Listens from the call on, so nothing the worker says before the first `next()` is lost.
 */
export function readFeed<B, F extends object = object, O extends { type: string } = never>(worker: Worker, reader: FeedReader<F, O>): AsyncGenerator<B> {
  const inbox: Array<FeedMessage<B, F>> = []
  let failure: Error | null = null
  const { wait, wakeUp } = wakeSignal()
  worker.on('message', (message: FeedMessage<B, F> | O) => {
    if (message.type === 'batch' || message.type === 'done' || message.type === 'failed') inbox.push(message as FeedMessage<B, F>)
    else reader.other?.(message as O)
    wakeUp()
  })
  worker.on('error', (error) => {
    failure ??= error
    wakeUp()
  })
  worker.on('exit', (code) => {
    failure ??= reader.stopped(code)
    wakeUp()
  })
  return (async function* () {
    try {
      for (;;) {
        const message = inbox.shift()
        if (!message) {
          if (failure) throw failure
          await wait()
          continue
        }
        if (message.type === 'batch') {
          // A turn of the event loop before each batch: with batches queued, the port hands them
          // over one after another without one, and a caller that stores inline (serve --readers 0)
          // would starve every request of the process for as long as the worker keeps ahead.
          await setImmediate()
          yield message.batch
          worker.postMessage({ type: 'ack' } satisfies AckMessage)
        } else if (message.type === 'done') return
        else throw reader.failure(message)
      }
    } finally {
      worker.removeAllListeners('exit')
      await worker.terminate()
    }
  })()
}

/**
 * The worker's half: `send` posts a batch packed by `pack` (its buffers named by `movable` move
 * rather than copy) and resolves once the caller is fewer than `maxAhead` batches behind; `done`
 * and `fail` end the feed.
 */
export function feedPoster<T, B, F extends object = object>(port: MessagePort, options: { maxAhead: number; pack: (batch: T) => B; movable: (packed: B) => ArrayBuffer[] }) {
  let unacknowledged = 0
  const { wait, wakeUp } = wakeSignal()
  port.on('message', (message: { type: string }) => {
    if (message.type !== 'ack') return
    unacknowledged--
    wakeUp()
  })
  const post = (message: FeedMessage<B, F>, transfer: ArrayBuffer[] = []) => port.postMessage(message, transfer)
  return {
    async send(batch: T): Promise<void> {
      const packed = options.pack(batch)
      post({ type: 'batch', batch: packed }, options.movable(packed))
      unacknowledged++
      while (unacknowledged >= options.maxAhead) await wait()
    },
    done: () => post({ type: 'done' }),
    fail: (failure: { message: string } & F) => post({ type: 'failed', ...failure }),
  }
}
