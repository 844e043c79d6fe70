import type { MiddlewareHandler } from 'hono'
import { bodyLimit } from 'hono/body-limit'

export const MAX_BODY_BYTES = 1024 * 1024
/** Deeper bodies are refused before parsing: echoing them in an error would overflow the stack. */
export const MAX_JSON_DEPTH = 64

/** The position where nesting first exceeds `max`, or -1. Skips brackets inside strings. */
function depthExceededAt(text: string, max: number): number {
  let depth = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i)
    if (inString) {
      if (ch === 92) i++ // backslash: skip the escaped character
      else if (ch === 34) inString = false
    } else if (ch === 34) inString = true
    else if (ch === 91 || ch === 123) {
      if (++depth > max) return i
    } else if (ch === 93 || ch === 125) depth--
  }
  return -1
}

const JSON_TYPE = /^application\/([a-z0-9.+-]+\+)?json\s*(;|$)/i

/**
 * Guards a JSON body before validation: over 1 MiB is 413, another content type 415, an empty
 * body a 422 `missing` and malformed JSON a 422 `json_invalid`, as FastAPI words them.
 */
export function jsonBody(): MiddlewareHandler[] {
  const limit = bodyLimit({
    maxSize: MAX_BODY_BYTES,
    onError: (c) => c.json({ detail: `Request body too large: the limit is ${MAX_BODY_BYTES} bytes (1 MiB)` }, 413),
  })
  const parse: MiddlewareHandler = async (c, next) => {
    const text = await c.req.text()
    if (text.trim() === '') {
      return c.json({ detail: [{ type: 'missing', loc: ['body'], msg: 'Field required', input: null }] }, 422)
    }
    const contentType = c.req.header('content-type') ?? ''
    if (!JSON_TYPE.test(contentType)) {
      return c.json({ detail: `Unsupported Media Type: send the body as application/json, not ${contentType || 'an untyped body'}` }, 415)
    }
    const tooDeep = depthExceededAt(text, MAX_JSON_DEPTH)
    if (tooDeep >= 0) {
      const error = `nesting deeper than ${MAX_JSON_DEPTH} levels`
      return c.json({ detail: [{ type: 'json_invalid', loc: ['body', tooDeep], msg: 'JSON decode error', input: {}, ctx: { error } }] }, 422)
    }
    try {
      JSON.parse(text)
    } catch (error) {
      const position = Number(/position (\d+)/.exec(String(error))?.[1] ?? 0)
      return c.json(
        {
          detail: [
            { type: 'json_invalid', loc: ['body', position], msg: 'JSON decode error', input: {}, ctx: { error: String((error as Error).message) } },
          ],
        },
        422,
      )
    }
    await next()
  }
  return [limit, parse]
}
