import type { MiddlewareHandler } from 'hono'
import { bodyLimit } from 'hono/body-limit'

export const MAX_BODY_BYTES = 1024 * 1024

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
