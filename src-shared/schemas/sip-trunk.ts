import { z } from './zod'

/** Where a SIP trunk listing came from. */
export const SIP_TRUNK_SOURCES = ['store', 'livekit', 'store_fallback', 'pulled'] as const

export const sipTrunkAuthenticationSchema = z
  .object({
    required: z.boolean().openapi({
      description: 'True when the trunk has a username or a password: callers must answer the digest challenge',
    }),
    username: z.string().nullable().openapi({ description: "LiveKit's auth_username; null when none is set" }),
    password_set: z.boolean().openapi({
      description: 'Whether a password is configured. The password itself is never returned.',
    }),
  })
  .openapi('SipTrunkAuthentication')

export const sipTrunkSchema = z
  .object({
    sip_trunk_id: z.string().openapi({ example: 'ST_a1b2c3d4e5f6' }),
    name: z.string(),
    tenant_id: z.string().nullable().openapi({
      description:
        "Callscope tenant the trunk belongs to: the stored mapping, else the `tenant_id` key of the trunk's JSON metadata; null when unknown",
    }),
    numbers: z.array(z.string()).openapi({ description: 'Phone numbers the trunk accepts calls for' }),
    allowed_addresses: z.array(z.string()).openapi({
      description: 'IP addresses or CIDR ranges allowed to send calls; empty means any address',
    }),
    allowed_numbers: z.array(z.string()).openapi({
      description: 'Caller numbers allowed to call; empty means any number',
    }),
    authentication: sipTrunkAuthenticationSchema,
    metadata: z
      .union([z.record(z.string(), z.unknown()), z.string()])
      .nullable()
      .openapi({
        description:
          'The JSON object when the metadata text is a JSON object, otherwise the text verbatim; null when empty',
      }),
    krisp_enabled: z.boolean(),
    created_at: z.string().nullable().openapi({ description: 'ISO 8601 UTC; null when LiveKit does not report it' }),
    updated_at: z.string().nullable().openapi({ description: 'ISO 8601 UTC; null when LiveKit does not report it' }),
  })
  .openapi('SipInboundTrunk')

export const sipTrunkListSchema = z
  .object({
    trunks: z.array(sipTrunkSchema).openapi({ description: 'Inbound trunks, by name then sip_trunk_id' }),
    total: z.number().int().openapi({ description: 'Number of trunks in `trunks`' }),
    source: z.enum(SIP_TRUNK_SOURCES).openapi({
      description:
        '`livekit`: listed live from the LiveKit server; `store`: the stored copy (LiveKit not configured); `store_fallback`: the stored copy because LiveKit could not be used (see `fallback_reason`); `pulled`: the list a pull fetched from another backend (a mirror with no trunks of its own), `fetched_at` being when it was fetched',
    }),
    fallback_reason: z.string().nullable().openapi({
      description: 'Why the live listing failed; null unless `source` is `store_fallback`',
    }),
    fetched_at: z.string().openapi({ description: 'When this listing was read from its source, ISO 8601 UTC' }),
  })
  .openapi('SipTrunkList')

export type SipTrunkSource = (typeof SIP_TRUNK_SOURCES)[number]
export type SipTrunkAuthentication = z.infer<typeof sipTrunkAuthenticationSchema>
export type SipTrunk = z.infer<typeof sipTrunkSchema>
export type SipTrunkList = z.infer<typeof sipTrunkListSchema>
