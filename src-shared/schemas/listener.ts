import { z } from './zod'

const LOOPBACK = /^(127\.\d{1,3}\.\d{1,3}\.\d{1,3}|::1|localhost)$/

export const isLoopback = (host: string): boolean => LOOPBACK.test(host)

/**
 * The desktop app's optional HTTP listener: off unless turned on, loopback unless the user
 * explicitly allows another address (other machines could then reach the API and the console).
 */
export const listenerConfigSchema = z
  .object({
    enabled: z.boolean(),
    host: z.string().trim().min(1).max(255),
    // 0: any free port (the URL shows which).
    port: z.number().int().min(0).max(65535),
    allowNonLoopback: z.boolean().default(false),
  })
  .superRefine((config, ctx) => {
    if (!isLoopback(config.host) && !config.allowNonLoopback) {
      ctx.addIssue({ code: 'custom', path: ['host'], message: `${config.host} is not a loopback address: allow other addresses explicitly to listen on it` })
    }
  })

export type ListenerConfig = z.infer<typeof listenerConfigSchema>

export const DEFAULT_LISTENER: ListenerConfig = { enabled: false, host: '127.0.0.1', port: 8787, allowNonLoopback: false }

export interface ListenerStatus {
  config: ListenerConfig
  /** Base URL while listening. */
  url: string | null
  /** Why the last start failed (port in use, address not available), else null. */
  error: string | null
}
