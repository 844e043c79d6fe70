import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import { jsonBody, MAX_BODY_BYTES } from './json-body'

const app = new Hono()
app.use('/echo', ...jsonBody())
app.post('/echo', async (c) => c.json({ received: await c.req.json() }))

const post = (body: string | undefined, contentType?: string) =>
  app.request('/echo', { method: 'POST', body, headers: contentType ? { 'Content-Type': contentType } : {} })

describe('jsonBody', () => {
  it('passes a JSON object through, with or without a charset', async () => {
    for (const type of ['application/json', 'application/json; charset=utf-8', 'application/vnd.api+json']) {
      const response = await post('{"a":1}', type)
      expect(response.status).toBe(200)
      expect(await response.json()).toEqual({ received: { a: 1 } })
    }
  })

  it('answers an empty body with a 422 missing body error', async () => {
    const response = await post(undefined, 'application/json')
    expect(response.status).toBe(422)
    expect(await response.json()).toEqual({ detail: [{ type: 'missing', loc: ['body'], msg: 'Field required', input: null }] })
  })

  it('answers malformed JSON with a 422 json_invalid error at its position', async () => {
    const response = await post('{"a": 1,}', 'application/json')
    expect(response.status).toBe(422)
    const body = (await response.json()) as { detail: Array<{ type: string; loc: unknown[]; msg: string }> }
    expect(body.detail[0]).toMatchObject({ type: 'json_invalid', loc: ['body', 8], msg: 'JSON decode error' })
  })

  it('refuses nesting deeper than 64 levels before parsing, and accepts 64', async () => {
    const nested = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`
    expect((await post(nested(64), 'application/json')).status).toBe(200)
    const response = await post(nested(5000), 'application/json')
    expect(response.status).toBe(422)
    expect(await response.json()).toEqual({
      detail: [{ type: 'json_invalid', loc: ['body', 64], msg: 'JSON decode error', input: {}, ctx: { error: 'nesting deeper than 64 levels' } }],
    })
    expect((await post('{"a": "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["}', 'application/json')).status).toBe(200)
  })

  it('answers another content type with 415', async () => {
    const response = await post('provider=deepgram', 'application/x-www-form-urlencoded')
    expect(response.status).toBe(415)
    expect(((await response.json()) as { detail: string }).detail).toMatch(/application\/json/)
    expect((await post('{"a":1}')).status).toBe(415)
  })

  it('answers a body over 1 MiB with 413 and accepts one just under', async () => {
    const filler = (n: number) => `{"x":"${'a'.repeat(n - 8)}"}`
    expect((await post(filler(MAX_BODY_BYTES), 'application/json')).status).toBe(200)
    const response = await post(filler(MAX_BODY_BYTES + 1), 'application/json')
    expect(response.status).toBe(413)
    expect(((await response.json()) as { detail: string }).detail).toMatch(/too large/)
  })
})
