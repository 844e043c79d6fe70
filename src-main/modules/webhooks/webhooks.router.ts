import { WEBHOOK_EVENT_KINDS } from '../../../src-shared/schemas/webhook-events'
import { laxUuid } from '../../../src-shared/schemas/params'
import { replayBodySchema, secretBodySchema, testSendBodySchema, WEBHOOK_LIMITS, webhookSettingsSchema } from '../../../src-shared/schemas/webhooks'
import { z } from '../../../src-shared/schemas/zod'
import { adminProcedure, procedure, router } from '../../kit/trpc'
import type { WebhooksService } from './webhooks.service'

const byTenant = z.object({ tenantId: laxUuid() })
const list = byTenant.extend({ limit: z.number().int().min(1).max(WEBHOOK_LIMITS.listMax).default(WEBHOOK_LIMITS.listDefault) })
const byDelivery = z.object({ deliveryId: z.string().min(1).max(100) })

/** The console's Webhooks tab and the call page's events: the same service as the REST operations. */
export const webhooksRouter = (webhooks: WebhooksService) =>
  router({
    /** The catalog's kinds, in the order the picker shows them. */
    kinds: procedure.query(() => [...WEBHOOK_EVENT_KINDS]),
    secret: procedure.input(byTenant).query(({ ctx, input }) => webhooks.secretStatus(ctx.principal, input.tenantId)),
    /** Creates or rotates (or, with `secret`, sets) the signing secret; the answer holds it this once. */
    setSecret: adminProcedure
      .input(byTenant.extend(secretBodySchema.shape))
      .mutation(({ ctx, input }) => webhooks.setSecret(ctx.principal, input.tenantId, input.secret)),
    testSend: adminProcedure
      .input(byTenant.extend(testSendBodySchema.shape))
      .mutation(({ ctx, input }) => webhooks.testSend(ctx.principal, input.tenantId, { event: input.event, url: input.url, call_id: input.call_id })),
    deliveries: procedure.input(list).query(({ ctx, input }) => webhooks.deliveries(ctx.principal, input.tenantId, input.limit)),
    delivery: procedure.input(byDelivery).query(({ ctx, input }) => webhooks.delivery(ctx.principal, input.deliveryId)),
    replay: adminProcedure
      .input(byDelivery.extend(replayBodySchema.shape))
      .mutation(({ ctx, input }) => webhooks.replay(ctx.principal, input.deliveryId, { new_id: input.new_id, url: input.url })),
    inbox: procedure.input(list).query(({ ctx, input }) => webhooks.inbox(ctx.principal, input.tenantId, input.limit)),
    /** What was sent and received about one call (the call page). */
    callEvents: procedure.input(z.object({ callId: z.string().min(1).max(100) })).query(({ ctx, input }) => webhooks.callEvents(ctx.principal, input.callId)),
    settings: procedure.query(() => webhooks.settings()),
    setSettings: adminProcedure.input(webhookSettingsSchema).mutation(({ ctx, input }) => webhooks.setSettings(ctx.principal, input)),
  })
