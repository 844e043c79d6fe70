import { randomBytes, randomUUID } from 'node:crypto'
import { Webhook } from 'standardwebhooks'
import { WEBHOOK_HEADERS } from '../../../src-shared/schemas/webhook-events'

/*
 * The Standard Webhooks scheme (https://www.standardwebhooks.com): an HMAC-SHA256 of
 * `${webhook-id}.${webhook-timestamp}.${body}` under the tenant's secret, sent as
 * `webhook-signature: v1,<base64>`. Signing and verifying are the reference implementation's
 * (the `standardwebhooks` package); this file only makes ids and secrets and names the headers.
 */

/** `whsec_` and the base64 of 32 random bytes, the form Standard Webhooks senders hand out. */
export const newSecret = (): string => `whsec_${randomBytes(32).toString('base64')}`

/** Enough to tell two secrets apart, nothing to sign with: the prefix and the last four characters. */
export const secretHint = (secret: string): string => `whsec_…${secret.slice(-4)}`

/** A message id: the same on every attempt of a delivery, so a receiver can deduplicate. */
export const newWebhookId = (): string => `msg_${randomUUID().replaceAll('-', '')}`

export type SignedHeaders = Record<(typeof WEBHOOK_HEADERS)[keyof typeof WEBHOOK_HEADERS], string>

/** The three headers for `body` sent as message `id` at `at` (whole seconds, as the scheme has them). */
export function signedHeaders(secret: string, id: string, at: Date, body: string): SignedHeaders {
  return {
    [WEBHOOK_HEADERS.id]: id,
    [WEBHOOK_HEADERS.timestamp]: String(Math.floor(at.getTime() / 1000)),
    [WEBHOOK_HEADERS.signature]: new Webhook(secret).sign(id, at, body),
  }
}
