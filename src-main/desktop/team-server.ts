import { z } from '../../src-shared/schemas/zod'
import { NOT_CONNECTED, type TeamServerConnectInput, type TeamServerStatus } from '../../src-shared/schemas/team-server'
import { InvalidInputError } from '../kit/errors'
import type { SecretBox } from '../modules/providers/secret-box'
import { describeTeamError, type TeamTarget, teamFetch } from '../server/team-fetch'

/** The connection as settings.json keeps it: the token sealed, never in clear. */
export const savedTeamServerSchema = z.object({
  url: z.string(),
  sealedToken: z.string(),
  certificate: z.string().nullable(),
  connectedAt: z.string(),
  serverVersion: z.string().nullable(),
})
export type SavedTeamServer = z.infer<typeof savedTeamServerSchema>

export interface TeamServerControl {
  status(): TeamServerStatus
  /** Checks the server and the token, then remembers them; throws InvalidInputError saying what to fix. */
  connect(input: TeamServerConnectInput): Promise<TeamServerStatus>
  disconnect(): TeamServerStatus
  /** Where the console's requests go while connected; null for the local store. */
  target(): Promise<TeamTarget | null>
}

export interface TeamServerOptions {
  saved: SavedTeamServer | null
  secretBox: SecretBox
  save(saved: SavedTeamServer | null): void
  now?: () => Date
}

// Bound to the sealed token: a token sealed for one server does not open for another.
const sealContext = (url: string) => `team-server:${url}`

/** A server answers /healthz with its status and version, and the token with settings.info. */
async function check(target: TeamTarget): Promise<{ version: string | null }> {
  const ask = async (path: string) => {
    try {
      return await teamFetch(target, path, { method: 'GET', signal: AbortSignal.timeout(10_000) })
    } catch (error) {
      throw new InvalidInputError((error as Error).name === 'TimeoutError' || (error as Error).name === 'AbortError' ? `${target.url} did not answer within 10 s: check the address and the network` : describeTeamError(target.url, error))
    }
  }
  const health = await ask('/healthz')
  const body = (await health.json().catch(() => null)) as { status?: string; version?: string } | null
  if (health.status !== 200 || body?.status !== 'ok') {
    throw new InvalidInputError(`${target.url} answered, but not as a Callscope server (GET /healthz gave ${health.status}): check the address`)
  }
  const info = await ask('/trpc/settings.info')
  await info.body?.cancel()
  if (info.status === 401) throw new InvalidInputError('The team server refused the token: it is wrong, revoked or expired. Ask its admin for one (callscope token create on the server)')
  if (info.status !== 200) throw new InvalidInputError(`The team server answered ${info.status} to the token check: ask its admin`)
  return { version: typeof body.version === 'string' ? body.version : null }
}

/**
 * The desktop app's connection to a team server (Settings → Team server). The token is sealed with
 * the app's secret box before it reaches settings.json, and opened once per run.
 */
export function createTeamServerControl({ saved: initial, secretBox, save, now = () => new Date() }: TeamServerOptions): TeamServerControl {
  let saved = initial
  let opened: TeamTarget | null = null
  return {
    status: () =>
      saved ? { url: saved.url, connectedAt: saved.connectedAt, serverVersion: saved.serverVersion, pinnedCertificate: saved.certificate !== null } : NOT_CONNECTED,
    async connect(input) {
      const url = input.url.trim().replace(/\/+$/, '')
      const certificate = input.certificate?.trim() || undefined
      const target: TeamTarget = { url, token: input.token.trim(), certificate }
      const { version } = await check(target)
      const next: SavedTeamServer = {
        url,
        sealedToken: await secretBox.seal(target.token, sealContext(url)),
        certificate: certificate ?? null,
        connectedAt: now().toISOString(),
        serverVersion: version,
      }
      save(next)
      saved = next
      opened = target
      return this.status()
    },
    disconnect() {
      save(null)
      saved = null
      opened = null
      return NOT_CONNECTED
    },
    async target() {
      if (!saved) return null
      opened ??= { url: saved.url, token: await secretBox.open(saved.sealedToken, sealContext(saved.url)), certificate: saved.certificate ?? undefined }
      return opened
    },
  }
}
