import { type Command, Option } from 'commander'
import { WEBHOOK_EVENT_KINDS, type WebhookEventKind } from '../../../src-shared/schemas/webhook-events'
import type { Delivery, DeliveryDetail } from '../../../src-shared/schemas/webhooks'
import { OWNER } from '../../kit/access'
import type { AttemptNotice } from '../../modules/webhooks/deliverer'
import type { Service } from '../../service'
import { withService } from '../open-service'
import { parseNonNegativeInt } from '../options'

interface SendOptions {
  tenant: string
  event: WebhookEventKind
  url?: string
  call?: string
  allowPrivate?: boolean
  json?: boolean
  db?: string
}

const clock = (iso: string) => iso.slice(11, 19)

/** One attempt as a line: what came back (or what went wrong), how fast, and what happens next. */
function attemptLine(n: AttemptNotice): string {
  const outcome = n.status !== null ? `HTTP ${n.status}` : `${n.errorKind}: ${n.errorMessage}`
  const next = n.nextRetryAt ? `; retrying at ${clock(n.nextRetryAt)} UTC` : ''
  return `Attempt ${n.number}: ${outcome} in ${n.latencyMs} ms${next}\n`
}

/** Follows a delivery to its end, printing each attempt; fails (exit code 1) when it was not delivered. */
async function follow(service: Service, delivery: Delivery, json: boolean | undefined): Promise<void> {
  const stop = json ? () => undefined : service.webhooks.onAttempt((n) => n.deliveryId === delivery.id && process.stdout.write(attemptLine(n)))
  // Ctrl-C leaves the delivery in the log; it reads as interrupted from then on.
  const interrupt = () => {
    process.stderr.write(`\nStopped: delivery ${delivery.id} will read as interrupted.\n`)
    process.exit(130)
  }
  process.once('SIGINT', interrupt)
  try {
    await service.webhooks.whenSettled(delivery.id)
  } finally {
    stop()
    process.off('SIGINT', interrupt)
  }
  const detail: DeliveryDetail = await service.webhooks.delivery(OWNER, delivery.id)
  if (json) process.stdout.write(`${JSON.stringify(detail, null, 2)}\n`)
  else process.stdout.write(`${detail.status === 'succeeded' ? 'Delivered' : 'Not delivered'} (${detail.id}, ${detail.attempt_count} attempt${detail.attempt_count === 1 ? '' : 's'}).\n`)
  if (detail.status !== 'succeeded') throw new Error(`not delivered (${detail.status}); the attempts are in "callscope webhook log --tenant ${detail.tenant_id}"`)
}

export function registerWebhook(program: Command): void {
  const webhook = program.command('webhook').description("send signed test events to a tenant's webhook and manage its signing secret (docs/api.md, \"Webhooks\")")

  webhook
    .command('send')
    .description("build an event from the tenant's stored calls, sign it and deliver it, retrying on the documented schedule")
    .requiredOption('--tenant <id>', 'tenant id')
    .addOption(new Option('--event <kind>', 'event kind').choices(WEBHOOK_EVENT_KINDS).makeOptionMandatory())
    .option('--url <url>', "where to send it (default: the tenant's webhook_url)")
    .option('--call <id>', "the stored call to build it from (default: the tenant's newest that fits)")
    .option('--allow-private', 'allow loopback and private addresses for this send (e.g. a receiver on this machine)')
    .option('--json', 'print the delivery with every attempt as JSON at the end')
    .option('--db <file>', 'database file')
    .action(async (opts: SendOptions) => {
      await withService(opts.db, async (service) => {
        const delivery = await service.webhooks.testSend(OWNER, opts.tenant, { event: opts.event, url: opts.url, call_id: opts.call }, { allowPrivate: opts.allowPrivate })
        if (!opts.json) {
          const from = delivery.source === 'stored' ? (delivery.call_id ? `call ${delivery.call_id}` : 'a stored session') : 'an example (no stored call fits)'
          process.stdout.write(`Sending ${delivery.event_type} (${delivery.webhook_id}, from ${from}) to ${delivery.url}\n`)
        }
        await follow(service, delivery, opts.json)
      })
    })

  webhook
    .command('replay')
    .description('send a logged delivery again, signed afresh, under its webhook-id (or a new one)')
    .argument('<delivery-id>', 'the delivery (dlv_…)')
    .option('--new-id', 'send as a new message, under a new webhook-id')
    .option('--url <url>', 'send it here instead of where it went')
    .option('--allow-private', 'allow loopback and private addresses for this send')
    .option('--json', 'print the delivery with every attempt as JSON at the end')
    .option('--db <file>', 'database file')
    .action(async (id: string, opts: { newId?: boolean; url?: string; allowPrivate?: boolean; json?: boolean; db?: string }) => {
      await withService(opts.db, async (service) => {
        const delivery = await service.webhooks.replay(OWNER, id, { new_id: opts.newId, url: opts.url }, { allowPrivate: opts.allowPrivate })
        if (!opts.json) process.stdout.write(`Replaying ${delivery.event_type} (${delivery.webhook_id}) to ${delivery.url}\n`)
        await follow(service, delivery, opts.json)
      })
    })

  webhook
    .command('log')
    .description("a tenant's deliveries, newest first")
    .requiredOption('--tenant <id>', 'tenant id')
    .option('--limit <n>', 'how many (1 to 200)', parseNonNegativeInt, 20)
    .option('--json', 'print JSON')
    .option('--db <file>', 'database file')
    .action(async (opts: { tenant: string; limit: number; json?: boolean; db?: string }) => {
      await withService(opts.db, async (service) => {
        const { deliveries, total } = await service.webhooks.deliveries(OWNER, opts.tenant, Math.min(200, Math.max(1, opts.limit)))
        if (opts.json) return void process.stdout.write(`${JSON.stringify({ deliveries, total }, null, 2)}\n`)
        if (deliveries.length === 0) return void process.stdout.write('No deliveries yet. Send one with "callscope webhook send".\n')
        console.table(deliveries.map((d) => ({ id: d.id, when: d.created_at.slice(0, 19).replace('T', ' '), event: d.event_type, status: d.status, attempts: d.attempt_count, last: d.last_status ?? d.last_error_kind ?? '', url: d.url })))
      })
    })

  webhook
    .command('secret')
    .description("create the tenant's signing secret (shown once), rotate it, or set your backend's")
    .requiredOption('--tenant <id>', 'tenant id')
    .option('--rotate', 'replace the existing secret with a new one')
    .option('--set', "set a secret read from stdin (your backend's whsec_…), so the inbox can verify its events")
    .option('--db <file>', 'database file')
    .action(async (opts: { tenant: string; rotate?: boolean; set?: boolean; db?: string }) => {
      const given = opts.set ? await readStdin() : undefined
      await withService(opts.db, async (service) => {
        const status = await service.webhooks.secretStatus(OWNER, opts.tenant)
        if (status.configured && !opts.rotate && !opts.set) {
          process.stdout.write(`The tenant has a signing secret (${status.hint}, since ${status.created_at}). It is never shown again; pass --rotate for a new one.\n`)
          return
        }
        const made = await service.webhooks.setSecret(OWNER, opts.tenant, given)
        if (given) return void process.stdout.write(`Set the signing secret ${made.hint}${made.replaced ? ' (the previous one no longer works)' : ''}.\n`)
        process.stderr.write(`Signing secret for tenant ${opts.tenant}${made.replaced ? ' (the previous one no longer works)' : ''}, shown this once:\n`)
        process.stdout.write(`${made.secret}\n`)
      })
    })

  webhook
    .command('allow-private')
    .description('allow (or, with --off, refuse again) loopback and private addresses as test-send targets, for every send')
    .option('--off', 'refuse them again (the default)')
    .option('--db <file>', 'database file')
    .action(async (opts: { off?: boolean; db?: string }) => {
      await withService(opts.db, async (service) => {
        await service.webhooks.setSettings(OWNER, { allow_private_targets: !opts.off })
        process.stdout.write(opts.off ? 'Test-sends to loopback and private addresses are refused again.\n' : 'Test-sends may now go to loopback and private addresses.\n')
      })
    })
}

async function readStdin(): Promise<string> {
  if (process.stdin.isTTY) process.stderr.write('Paste the secret (whsec_…) and press Ctrl-D: ')
  const chunks: Buffer[] = []
  for await (const chunk of process.stdin) chunks.push(Buffer.from(chunk as Buffer))
  const text = Buffer.concat(chunks).toString('utf8').trim()
  if (!text) throw new Error('no secret given on stdin')
  return text
}
