import { createHmac } from 'node:crypto'
import { Webhook } from 'standardwebhooks'
import { describe, expect, it } from 'vitest'
import { RETRY_SCHEDULE_MS } from '../../../src-shared/schemas/webhooks'
import { describeError, errorKind } from './error-kind'
import { parseSchedule, retryDelay } from './retry-schedule'
import { newSecret, signedHeaders } from './signer'

describe('errorKind', () => {
  const coded = (code: string, cause?: unknown) => Object.assign(new Error(code), { code, cause })
  it.each([
    [coded('ENOTFOUND'), 'dns'],
    [coded('EAI_AGAIN'), 'dns'],
    [coded('ECONNREFUSED'), 'refused'],
    [coded('ECONNRESET'), 'reset'],
    [new TypeError('fetch failed', { cause: coded('UND_ERR_SOCKET') }), 'reset'],
    [Object.assign(new Error('aborted'), { name: 'AbortError' }), 'timeout'],
    [coded('UND_ERR_CONNECT_TIMEOUT'), 'timeout'],
    [coded('CERT_HAS_EXPIRED'), 'tls'],
    [coded('DEPTH_ZERO_SELF_SIGNED_CERT'), 'tls'],
    [coded('ERR_TLS_CERT_ALTNAME_INVALID'), 'tls'],
    [coded('HPE_INVALID_CONSTANT'), 'protocol'],
    [coded('EBLOCKED'), 'blocked'],
    [new Error('something else'), 'other'],
  ])('%s is %s', (error, kind) => expect(errorKind(error)).toBe(kind))

  it('says what happened in words with the code', () => {
    expect(describeError('dns', coded('ENOTFOUND'), { host: 'hooks.example', timeoutMs: 20_000 })).toBe('DNS: hooks.example could not be resolved (ENOTFOUND)')
    expect(describeError('timeout', new Error('x'), { host: 'h', timeoutMs: 20_000 })).toMatch(/within 20 s/)
  })
})

describe('retry schedule', () => {
  it('waits the documented times, each moved by at most ±20 %', () => {
    expect(RETRY_SCHEDULE_MS).toEqual([0, 5_000, 30_000, 120_000, 600_000, 1_800_000])
    expect(retryDelay(RETRY_SCHEDULE_MS, 2, () => 0)).toBe(4_000)
    expect(retryDelay(RETRY_SCHEDULE_MS, 2, () => 0.5)).toBe(5_000)
    expect(retryDelay(RETRY_SCHEDULE_MS, 3, () => 1)).toBe(36_000)
    expect(retryDelay(RETRY_SCHEDULE_MS, 7)).toBeNull()
  })

  it('reads a shortened schedule from its text, and nothing unreadable', () => {
    expect(parseSchedule('0, 50,100')).toEqual([0, 50, 100])
    expect(parseSchedule('0,-1')).toBeNull()
    expect(parseSchedule('soon')).toBeNull()
    expect(parseSchedule(undefined)).toBeNull()
  })
})

describe('signedHeaders', () => {
  it('signs as Standard Webhooks says: checked by an independent HMAC and by the reference verifier', () => {
    const secret = newSecret()
    const body = '{"type":"call.started"}'
    const at = new Date()
    const headers = signedHeaders(secret, 'msg_1', at, body)
    const key = Buffer.from(secret.slice('whsec_'.length), 'base64')
    const expected = createHmac('sha256', key).update(`msg_1.${Math.floor(at.getTime() / 1000)}.${body}`).digest('base64')
    expect(headers).toEqual({ 'webhook-id': 'msg_1', 'webhook-timestamp': String(Math.floor(at.getTime() / 1000)), 'webhook-signature': `v1,${expected}` })
    expect(new Webhook(secret).verify(body, headers)).toEqual({ type: 'call.started' })
  })
})
