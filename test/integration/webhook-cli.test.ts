import { copyFileSync, readdirSync, readFileSync } from 'node:fs'
import Database from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { WEBHOOK_EVENT_SCHEMAS } from '../../src-shared/schemas/webhook-events'
import { runCli, runCliAsync } from '../helpers/cli'
import { tempDir } from '../helpers/temp-dir'
import { independentlyVerified, startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver'

/*
 * `callscope webhook …` end to end with the real binary: a secret shown once and rotated, a
 * test-send to a receiver on loopback that answers 500 then 200 (the schedule shortened through
 * CALLSCOPE_WEBHOOK_RETRY_SCHEDULE_MS), the guard's refusal without --allow-private, the log, and
 * a snapshot that leaves the secret out.
 */

const FAST = { CALLSCOPE_WEBHOOK_RETRY_SCHEDULE_MS: '0,50' }

describe('callscope webhook', () => {
  const dir = tempDir()
  const db = `${dir}/store.sqlite`
  let tenant: string
  let secret: string
  let receiver: WebhookReceiver

  beforeAll(async () => {
    copyFileSync(inject('demoTemplate'), db)
    const sqlite = new Database(db, { readonly: true })
    tenant = sqlite.prepare("select tenant_id from calls where status = 'completed' group by tenant_id order by tenant_id limit 1").pluck().get() as string
    sqlite.close()
    receiver = await startWebhookReceiver((i) => (i === 0 ? { status: 500, body: 'upstream down' } : { status: 200, body: 'ok' }))
  })
  afterAll(() => receiver.close())

  it('creates the secret and prints it once; later calls show its hint only, --rotate replaces it', () => {
    const made = runCli(['webhook', 'secret', '--tenant', tenant, '--db', db])
    expect(made.status).toBe(0)
    expect(made.stderr).toMatch(/shown this once/)
    secret = made.stdout.trim()
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/)
    const again = runCli(['webhook', 'secret', '--tenant', tenant, '--db', db])
    expect(again.stdout).toBe(`The tenant has a signing secret (whsec_…${secret.slice(-4)}, since ${again.stdout.match(/since (\S+)\)/)![1]}). It is never shown again; pass --rotate for a new one.\n`)
    expect(again.stdout).not.toContain(secret.slice(6, 30))
    const rotated = runCli(['webhook', 'secret', '--tenant', tenant, '--rotate', '--db', db])
    expect(rotated.stderr).toMatch(/the previous one no longer works/)
    expect(rotated.stdout.trim()).not.toBe(secret)
    secret = rotated.stdout.trim()
    for (const file of readdirSync(dir).filter((f) => f.startsWith('store.sqlite'))) expect(readFileSync(`${dir}/${file}`).includes(secret.slice(6)), file).toBe(false)
  })

  it('sends an event, retries the 500, and reports each attempt; the receiver can verify it independently', async () => {
    const result = await runCliAsync(['webhook', 'send', '--tenant', tenant, '--event', 'call.ended', '--url', receiver.url, '--allow-private', '--db', db], FAST)
    expect(result.stderr).toBe('')
    expect(result.status).toBe(0)
    const lines = result.stdout.trim().split('\n')
    expect(lines[0]).toMatch(new RegExp(`^Sending call\\.ended \\(msg_[0-9a-f]{32}, from call [0-9a-f-]{36}\\) to ${receiver.url.replaceAll('.', '\\.')}$`))
    expect(lines[1]).toMatch(/^Attempt 1: HTTP 500 in \d+ ms; retrying at \d\d:\d\d:\d\d UTC$/)
    expect(lines[2]).toMatch(/^Attempt 2: HTTP 200 in \d+ ms$/)
    expect(lines[3]).toMatch(/^Delivered \(dlv_[0-9a-f]{32}, 2 attempts\)\.$/)
    const got = await receiver.received(2)
    for (const r of got) expect(independentlyVerified(secret, r.headers, r.body)).toBe(true)
    const event = WEBHOOK_EVENT_SCHEMAS['call.ended'].parse(JSON.parse(got[0]!.body))
    expect(event.data.tenant_id).toBe(tenant)
  })

  it('refuses a loopback target without --allow-private, exits 1, and says how to allow it', async () => {
    const result = await runCliAsync(['webhook', 'send', '--tenant', tenant, '--event', 'call.started', '--url', receiver.url, '--db', db], FAST)
    expect(result.status).toBe(1)
    expect(result.stderr).toBe(`callscope: error: not delivered (failed); the attempts are in "callscope webhook log --tenant ${tenant}"\n`)
    expect(result.stdout).toMatch(/^Attempt 1: blocked: 127\.0\.0\.1 is a loopback, private or link-local address; allow private targets .* \(or pass --allow-private\) to send there in \d+ ms$/m)
    expect(result.stdout).toMatch(/^Not delivered \(dlv_\w+, 1 attempt\)\.$/m)
    expect(receiver.requests).toHaveLength(2)
  })

  it('lists the log as JSON, and refuses a kind outside the catalog as a usage error', () => {
    const log = runCli(['webhook', 'log', '--tenant', tenant, '--json', '--db', db])
    const { deliveries, total } = JSON.parse(log.stdout) as { deliveries: Array<{ status: string; event_type: string; attempt_count: number }>; total: number }
    expect(total).toBe(2)
    expect(deliveries.map((d) => [d.event_type, d.status, d.attempt_count])).toEqual([['call.started', 'failed', 1], ['call.ended', 'succeeded', 2]])
    const bad = runCli(['webhook', 'send', '--tenant', tenant, '--event', 'call.exploded', '--db', db])
    expect(bad.status).toBe(2)
    expect(bad.stderr).toMatch(/argument 'call\.exploded' is invalid\. Allowed choices are call\.started, call\.ended/)
  })

  it('leaves the secret out of a snapshot unless asked', () => {
    const sealed = new Database(db, { readonly: true }).prepare('select secret from webhook_secrets').pluck().get() as string
    const plain = `${dir}/plain.sqlite`
    const packed = runCli(['snapshot', plain, '--db', db])
    expect(packed.stdout).toMatch(/1 webhook secrets/)
    expect(readFileSync(plain).includes(sealed)).toBe(false)
    expect(new Database(plain, { readonly: true }).prepare('select count(*) from webhook_secrets').pluck().get()).toBe(0)
    const full = `${dir}/full.sqlite`
    runCli(['snapshot', full, '--db', db, '--include-secrets'])
    expect(readFileSync(full).includes(sealed)).toBe(true)
    expect(readFileSync(full).includes(secret.slice(6))).toBe(false)
  })
})
