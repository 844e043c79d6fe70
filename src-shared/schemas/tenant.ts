import { z } from './zod'
import { TENANT_LIMITS as L } from '../constants'

/** The Tenant object of `GET /tenants/{tenant_id}`: the spec's 22 fields, defaults and limits. */
export const tenantSchema = z
  .object({
    name: z.string().min(L.nameLength.min).max(L.nameLength.max),
    billing_plan: z.string().min(L.billingPlanLength.min).max(L.billingPlanLength.max),
    sip_enabled: z.boolean().default(false),
    recording_enabled: z.boolean().default(true),
    analytics_enabled: z.boolean().default(true),
    max_concurrent_calls: z
      .number()
      .int()
      .min(L.maxConcurrentCalls.min)
      .max(L.maxConcurrentCalls.max)
      .default(L.maxConcurrentCalls.default),
    monthly_call_limit: z.number().int().min(L.monthlyCallLimit.min).default(L.monthlyCallLimit.default),
    id: z.uuid(),
    status: z.string().openapi({ description: 'active, trial, suspended or cancelled' }),
    monthly_usage_cents: z.number().int().openapi({ description: 'Monthly usage in cents' }),
    meta_data: z.record(z.string(), z.unknown()).nullable().optional(),
    sip_domain: z.string().nullable().optional(),
    sip_username: z.string().nullable().optional(),
    hipaa_enabled: z.boolean().default(false),
    pci_enabled: z.boolean().default(false),
    recording_format: z.string().default(L.recordingFormatDefault),
    retention_days: z
      .number()
      .int()
      .default(L.retentionDaysDefault)
      .openapi({ description: 'Recording retention policy, in days' }),
    data_encryption_enabled: z.boolean().default(true),
    webhook_url: z
      .string()
      .nullable()
      .optional()
      .openapi({ description: 'Address that receives event notifications' }),
    webhook_timeout_seconds: z.number().int().default(L.webhookTimeoutSecondsDefault),
    created_at: z.iso.datetime(),
    updated_at: z.iso.datetime(),
  })
  .openapi('Tenant')

export type Tenant = z.infer<typeof tenantSchema>
