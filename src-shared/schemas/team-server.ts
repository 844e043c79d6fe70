import { z } from './zod'

/**
 * The desktop app's team server (issue 20 pt 4): a Callscope `serve` the team shares, which the
 * console reads instead of the local store while connected. Settings → Team server.
 */
export const teamServerConnectSchema = z.object({
  url: z
    .string()
    .trim()
    .min(1, 'Give the team server\'s address, e.g. https://callscope.example.internal:8787')
    .max(2048)
    .refine((value) => /^https?:\/\/[^/\s]+/i.test(value) && URL.canParse(value), 'Give an http:// or https:// address, e.g. https://callscope.example.internal:8787'),
  token: z.string().trim().min(1, 'Give a token the team server issued (callscope token create on the server)').max(4096),
  /** PEM of the server's own certificate, for a server whose certificate no known authority signed. */
  certificate: z
    .string()
    .trim()
    .max(65_536)
    .refine((value) => value === '' || value.includes('-----BEGIN CERTIFICATE-----'), 'Paste the certificate in PEM form (-----BEGIN CERTIFICATE----- …)')
    .optional(),
})
export type TeamServerConnectInput = z.infer<typeof teamServerConnectSchema>

export const teamServerStatusSchema = z.object({
  /** The server's base URL while connected, null when the console reads the local store. */
  url: z.string().nullable(),
  connectedAt: z.string().nullable(),
  /** What the server's /healthz said when the connection was made. */
  serverVersion: z.string().nullable(),
  /** True when a pasted certificate is trusted for this server. */
  pinnedCertificate: z.boolean(),
})
export type TeamServerStatus = z.infer<typeof teamServerStatusSchema>

export const NOT_CONNECTED: TeamServerStatus = { url: null, connectedAt: null, serverVersion: null, pinnedCertificate: false }
