import { type ClientRequest, request as httpRequest, type IncomingMessage } from 'node:http'
import { request as httpsRequest } from 'node:https'

/** The team server a push goes to. */
export interface PushTarget {
  /** Base URL, normalized (no trailing slash). */
  url: string
  token: string
  /** PEM of the certificate (or authority) to trust instead of the system's: a self-signed team server. */
  ca?: string
}

export interface ServerAnswer {
  status: number
  /** The answer's body as text (JSON from a Callscope server), at most 1 MiB of it. */
  body: string
}

const MAX_ANSWER_BYTES = 1 << 20

/** The body of an answer, read to its end (capped: a push only needs a report or a refusal). */
async function readAnswer(res: IncomingMessage): Promise<ServerAnswer> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of res as AsyncIterable<Buffer>) {
    if (size < MAX_ANSWER_BYTES) chunks.push(chunk)
    size += chunk.length
  }
  return { status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8').slice(0, MAX_ANSWER_BYTES) }
}

function open(target: PushTarget, path: string, method: 'GET' | 'POST', headers: Record<string, string>, signal?: AbortSignal): ClientRequest {
  const url = new URL(`${target.url}${path}`)
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest
  // A connection of its own per request: nothing is pooled across a push's requests, so a refused
  // upload the server closes cannot break the next one.
  return send(url, { method, headers: { ...headers, authorization: `Bearer ${target.token}` }, signal, agent: false, ...(target.ca ? { ca: target.ca } : {}) })
}

/** One GET to the server with the push's token. */
export function getFromServer(target: PushTarget, path: string, signal?: AbortSignal): Promise<ServerAnswer> {
  return new Promise((resolve, reject) => {
    const req = open(target, path, 'GET', {}, signal)
    req.on('response', (res) => readAnswer(res).then(resolve, reject))
    req.on('error', reject)
    req.end()
  })
}

/** The body could not be produced (the laptop's store failed a read): not a failure of the connection. */
export class UploadBodyError extends Error {
  constructor(readonly reason: Error) {
    super(reason.message)
    this.name = 'UploadBodyError'
  }
}

/**
 * One streamed upload: `body` is written as the server takes it (each write waits for the socket
 * to drain), so memory holds a page of records, not the upload. An answer that comes before the body
 * is done (a refusal: 401, 403, 413…) ends the writing; the answer is what counts, and the error the
 * server's closing may cause on the socket afterwards is not a failure of its own.
 */
export function uploadToServer(target: PushTarget, path: string, contentType: string, body: AsyncIterable<string>, signal?: AbortSignal): Promise<ServerAnswer> {
  return new Promise((resolve, reject) => {
    const req = open(target, path, 'POST', { 'content-type': contentType }, signal)
    let answered = false
    req.on('response', (res) => {
      answered = true
      readAnswer(res).then((answer) => {
        // Answered before the body was done (a refusal): the rest is not sent on this connection.
        if (!req.writableFinished) req.destroy()
        resolve(answer)
      }, reject)
    })
    req.on('error', (error) => {
      if (!answered) reject(error)
    })
    const drained = () => new Promise<void>((done) => {
      const settle = () => {
        req.off('drain', settle)
        req.off('close', settle)
        done()
      }
      req.on('drain', settle)
      req.on('close', settle)
    })
    void (async () => {
      try {
        for await (const text of body) {
          if (answered || req.destroyed) return
          if (!req.write(text)) await drained()
        }
        if (!answered && !req.destroyed) req.end()
      } catch (error) {
        if (!answered) reject(new UploadBodyError(error as Error))
        req.destroy()
      }
    })()
  })
}
