import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSettingsStore } from '../../src-main/desktop/desktop-settings'
import { createTeamServerControl } from '../../src-main/desktop/team-server'
import { createFileSecretBox } from '../../src-main/modules/providers/secret-box'
import { createIpcTrpcHandler, type IpcSenderInfo } from '../../src-main/server/ipc'
import { createIpcStreamHandler } from '../../src-main/server/ipc-stream'
import { createService, type Service } from '../../src-main/service'
import { DEFAULT_LISTENER } from '../../src-shared/schemas/listener'
import { selfSignedCertificate, type SelfSigned } from '../helpers/self-signed'
import { ADMIN_TOKEN, startTestServer, type TestServer, tokenFor } from '../helpers/test-server'
import { tempDir } from '../helpers/temp-dir'

/**
 * The desktop app pointed at a team server (issue 20 pt 4): the real IPC handler of the desktop's
 * main process, over an empty local store, forwarding to a real HTTPS team server holding the demo
 * data, with a certificate the test made. Only Electron's IPC transport is left out.
 */
const dir = tempDir()
const event: IpcSenderInfo = { sender: { id: 1 }, senderFrame: { url: 'file:///app/index.html' } }
let tls: SelfSigned
let team: TestServer
let local: Service
const settingsFile = join(dir, 'settings.json')
const settings = createSettingsStore(settingsFile)
const control = createTeamServerControl({ saved: null, secretBox: createFileSecretBox(join(dir, 'team-server.key')), save: (saved) => settings.update({ teamServer: saved }) })

beforeAll(async () => {
  tls = selfSignedCertificate()
  team = await startTestServer({ tls: { cert: tls.cert, key: tls.key } })
  local = await createService({ dbPath: join(dir, 'local.sqlite'), seedNewDatabase: false })
})
afterAll(async () => {
  await team?.close()
  await local?.close()
})

const handler = () =>
  createIpcTrpcHandler({
    service: local,
    runtime: { mode: 'desktop', listenerUrl: null },
    isTrustedSender: () => true,
    desktop: { listener: { status: () => ({ config: DEFAULT_LISTENER, url: null, error: null }), configure: async () => ({ config: DEFAULT_LISTENER, url: null, error: null }), stop: async () => {} }, chooseSavePath: async () => null, teamServer: control },
    team: () => control.target(),
  })

type Answer = { status: number; body: { result?: { data: any }; error?: { message: string; data: { code: string } } } }
async function call(path: string, input?: unknown, source?: string): Promise<Answer> {
  const request = input === undefined ? { url: `/${path}`, method: 'GET' as const } : { url: `/${path}`, method: 'POST' as const, body: JSON.stringify(input) }
  const response = await handler()(event, { ...request, ...(source ? { source } : {}) })
  return { status: response.status, body: JSON.parse(response.body) }
}

const tenantNames = async (service: Service) => (await service.tenants.list({ role: 'admin', tenantId: null, tokenId: null })).map((t) => t.name)

describe('the desktop console connected to a team server', () => {
  it('reads the local store until connected', async () => {
    const tenants = await call('tenants.list', undefined)
    expect(tenants.body.result!.data).toEqual([])
    expect((await call('settings.teamServer')).body.result!.data).toEqual({ url: null, connectedAt: null, serverVersion: null, pinnedCertificate: false })
  })

  it('refuses to connect, saying what to fix: nothing listening, an untrusted certificate, a refused token, a server that is not Callscope', async () => {
    const stopped = await startTestServer({ seed: false })
    const deadUrl = stopped.url
    await stopped.close()
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ url: deadUrl, token: ADMIN_TOKEN }, /^Nothing answers at http:\/\/127\.0\.0\.1:\d+: check that the team server runs/],
      [{ url: team.url, token: ADMIN_TOKEN }, /The certificate of https:\/\/127\.0\.0\.1:\d+ is not trusted \(DEPTH_ZERO_SELF_SIGNED_CERT\): paste the server's certificate/],
      [{ url: team.url, token: 'not-a-token', certificate: tls.cert }, /The team server refused the token/],
      [{ url: team.url.replace('https:', 'http:'), token: ADMIN_TOKEN }, /closed the connection \(ECONNRESET\): if the server speaks TLS, give its https:\/\/ address/],
      [{ url: 'ftp://example.com', token: ADMIN_TOKEN }, /Give an http:\/\/ or https:\/\/ address/],
      [{ url: team.url, token: ADMIN_TOKEN, certificate: 'hello' }, /Paste the certificate in PEM form/],
    ]
    for (const [input, message] of cases) {
      const refused = await call('settings.connectTeamServer', input)
      expect(refused.body.error?.data.code, JSON.stringify(input)).toBe('BAD_REQUEST')
      expect(refused.body.error!.message, JSON.stringify(input)).toMatch(message)
    }
    expect((await call('settings.teamServer')).body.result!.data.url).toBeNull()
    expect(settings.get().teamServer).toBeNull()
  })

  it('connects with a token and the pasted certificate, and every page then reads the server; the token is stored sealed', async () => {
    const viewer = await tokenFor(team, 'viewer')
    const connected = await call('settings.connectTeamServer', { url: `${team.url}/`, token: viewer, certificate: tls.cert })
    expect(connected.body.result!.data).toMatchObject({ url: team.url, serverVersion: 'test', pinnedCertificate: true })
    expect((await call('tenants.list', undefined)).body.result!.data.map((t: { name: string }) => t.name)).toEqual(await tenantNames(team.service))
    expect((await call('tokens.whoami')).body.result!.data.role).toBe('viewer')
    // The server's rules apply: a viewer may not create tokens there.
    expect((await call('tokens.create', { name: 'x', role: 'admin', tenantId: null, expires: null })).body.error!.data.code).toBe('FORBIDDEN')
    // The app's own settings stay local while connected.
    expect((await call('settings.teamServer')).body.result!.data.url).toBe(team.url)
    const file = readFileSync(settingsFile, 'utf8')
    expect(file).not.toContain(viewer)
    expect(JSON.parse(file).teamServer).toMatchObject({ url: team.url, sealedToken: expect.stringMatching(/^aesgcm1:/) })
  })

  it('sends the source picker\'s choice to the server, which refuses a source it does not have', async () => {
    const refused = await call('tenants.list', undefined, 'http://nowhere.example:9')
    expect(refused.status).toBe(422)
    expect(JSON.stringify(refused.body)).toContain('x-callscope-source')
    expect((await call('tenants.list', undefined, 'local')).body.result!.data.length).toBe((await tenantNames(team.service)).length)
  })

  it('carries a live tail subscription from the server as a stream', async () => {
    const streams = createIpcStreamHandler({ service: local, runtime: { mode: 'desktop', listenerUrl: null }, isTrustedSender: () => true, team: () => control.target() })
    const chunks: string[] = []
    let gotData!: () => void
    const firstData = new Promise<void>((resolve) => (gotData = resolve))
    const input = encodeURIComponent(JSON.stringify({ filter: {}, backlog: 3 }))
    const opened = await streams.open(event, 7, { url: `/callLogs.tail?input=${input}`, method: 'GET' }, (_id, chunk) => {
      if (chunk !== null) chunks.push(chunk)
      if (chunks.join('').includes('"log_level"')) gotData()
    })
    expect(opened.status).toBe(200)
    expect(opened.headers['content-type']).toMatch(/^text\/event-stream/)
    await firstData
    // The server's lines (the local store has none), after the connected event.
    const text = chunks.join('')
    expect(text.indexOf('event: connected')).toBeLessThan(text.indexOf('"log_level"'))
    const ids = [...text.matchAll(/"id":"([^"]+)"/g)].map((m) => m[1]!)
    expect(ids.length).toBeGreaterThan(0)
    expect(team.sqlite!.prepare(`select count(*) n from call_logs where id in (${ids.map(() => '?').join(',')})`).get(...ids)).toEqual({ n: new Set(ids).size })
    streams.close(1, 7)
  })

  it('answers a 502 with what to do when the server goes away, and reads the local store again once disconnected', async () => {
    await team.stopListening()
    const gone = await call('tenants.list', undefined)
    expect(gone.status).toBe(502)
    expect(gone.body.error!.data.code).toBe('BAD_GATEWAY')
    expect(gone.body.error!.message).toMatch(/^Nothing answers at https:\/\/127\.0\.0\.1:\d+.*Settings → Team server → Disconnect/)
    await team.listenAgain()
    expect((await call('tenants.list', undefined)).body.result!.data.length).toBeGreaterThan(0)
    expect((await call('settings.disconnectTeamServer', {})).body.result!.data.url).toBeNull()
    expect((await call('tenants.list', undefined)).body.result!.data).toEqual([])
    expect(settings.get().teamServer).toBeNull()
  })
})
