import { createHash } from 'node:crypto'
import { copyFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs'
import Database from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { runCli, runCliAsync, startServe } from '../helpers/cli'
import { tempDir } from '../helpers/temp-dir'
import { ADMIN_TOKEN, startTestServer, type TestServer } from '../helpers/test-server'

/*
 * `callscope snapshot` end to end: a store with tokens, a provider key and a pull origin, packed
 * three ways by the real CLI, each pack's raw bytes searched for what it must not carry.
 */

const PROVIDER_KEY = 'dg-live-9f8e7d6c5b4a39281706f5e4d3c2b1a0'
const EMAIL = 'maria.lopez@mail.example'
const OTHER_EMAIL = 'j.smith@corp.example'
const IMPORTED_USER = 'usr_Imported001'
const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`

/** Call logs with e-mail addresses (the demo set has none), each address in two places. */
function importFile(path: string, tenantId: string): void {
  const line = (n: number, message: string, details: object) =>
    JSON.stringify({
      id: uuid(n), tenant_id: tenantId, log_type: 'crm', log_level: 'info', message, timestamp: `2026-11-20T09:0${n}:00.000Z`,
      agent_id: null, session_id: null, call_id: null, details, user_id: IMPORTED_USER, trace_id: null, request_id: null,
    })
  writeFileSync(path, [
    line(1, `Callback requested by ${EMAIL}`, { contact: EMAIL, cc: OTHER_EMAIL }),
    line(2, `Ticket closed; summary sent to ${OTHER_EMAIL}`, { to: EMAIL }),
  ].join('\n'))
}

let remote: TestServer
beforeAll(async () => {
  remote = await startTestServer()
})
afterAll(() => remote.close())

describe('callscope snapshot', () => {
  const dir = tempDir()
  const store = `${dir}/store.sqlite`
  const secrets = { token: '', tokenHash: '', sealed: '', keyFile: '', origin: '' }

  const bytesOf = (file: string) => {
    // A pack is one self-contained file: nothing beside it holds part of it.
    for (const suffix of ['-wal', '-shm', '-journal']) expect(existsSync(`${file}${suffix}`), `${file}${suffix}`).toBe(false)
    return readFileSync(file)
  }
  const pack = (name: string, ...flags: string[]) => {
    const file = `${dir}/${name}.sqlite`
    const result = runCli(['snapshot', file, '--db', store, ...flags])
    expect(result.stderr).toBe('')
    expect(result.status).toBe(0)
    return { file, stdout: result.stdout, bytes: bytesOf(file) }
  }
  const counts = (db: string) => (JSON.parse(runCli(['db', 'info', '--json', '--db', db]).stdout) as { counts: Record<string, number> }).counts
  const query = <T>(file: string, sql: string, ...params: unknown[]) => {
    const db = new Database(file, { readonly: true })
    try {
      return db.prepare(sql).pluck().all(...params) as T[]
    } finally {
      db.close()
    }
  }

  it('builds a store with tokens, a provider key, a pull origin and imported e-mail addresses', async () => {
    copyFileSync(inject('demoTemplate'), store)
    const created = runCli(['token', 'create', '--name', 'ops', '--role', 'admin', '--db', store])
    expect(created.status).toBe(0)
    secrets.token = created.stdout.trim()
    secrets.tokenHash = createHash('sha256').update(secrets.token).digest('hex')
    expect(runCli(['provider', 'set-key', '--kind', 'stt', '--provider', 'deepgram', '--key', PROVIDER_KEY, '--db', store]).status).toBe(0)
    secrets.keyFile = readFileSync(`${store}.key`, 'utf8').trim()
    const pulled = await runCliAsync(['pull', '--base-url', remote.url, '--since', '2026-11-20T06:00:00Z', '--rate', '200', '--db', store], { CALLSCOPE_REMOTE_TOKEN: ADMIN_TOKEN })
    expect(pulled.status).toBe(0)
    secrets.origin = new URL(remote.url).host
    importFile(`${dir}/crm.ndjson`, query<string>(store, 'select id from tenants limit 1')[0]!)
    expect(runCli(['import', 'logs', `${dir}/crm.ndjson`, '--db', store]).status).toBe(0)

    secrets.sealed = query<string>(store, 'select secret from provider_credentials')[0]!
    const raw = readFileSync(store)
    // The store itself holds what the packs must leave out (else the checks below prove nothing).
    for (const held of [secrets.tokenHash, secrets.sealed, secrets.origin]) expect(raw.includes(held), held).toBe(true)
  }, 120_000)

  it('leaves secrets out by default: no token, credential, origin address or sealing key in the file', () => {
    const { bytes, stdout, file } = pack('plain')
    expect(stdout).toMatch(/Left out: 1 API tokens, 1 provider credentials, 0 webhook secrets, 0 secret settings; 1 pull origins renamed/)
    for (const secret of [secrets.tokenHash, secrets.token, PROVIDER_KEY, secrets.sealed, secrets.origin, '127.0.0.1:', secrets.keyFile]) {
      expect(bytes.includes(secret), secret).toBe(false)
    }
    expect(bytes.includes(Buffer.from(secrets.keyFile, 'base64'))).toBe(false)
    expect(existsSync(`${file}.key`)).toBe(false)
    // Everything else is there, row for row.
    expect(counts(file)).toEqual({ ...counts(store), api_tokens: 0, provider_credentials: 0 })
  })

  it('keeps them with --include-secrets, which still never carries a plaintext key or the sealing key', () => {
    const { bytes, stdout } = pack('with-secrets', '--include-secrets')
    expect(stdout).toContain('Secrets included')
    for (const kept of [secrets.tokenHash, secrets.sealed, secrets.origin]) expect(bytes.includes(kept), kept).toBe(true)
    for (const never of [secrets.token, PROVIDER_KEY, secrets.keyFile]) expect(bytes.includes(never), never).toBe(false)
    expect(bytes.includes(Buffer.from(secrets.keyFile, 'base64'))).toBe(false)
  })

  describe('--redact', () => {
    let red: { file: string; bytes: Buffer }
    beforeAll(() => {
      red = pack('redacted', '--redact')
    }, 120_000)

    it('leaves no byte of the phone numbers, e-mail addresses, user ids and names it pseudonymises', () => {
      // A sample of each (a search of the whole file per value): callers, trunk numbers, user ids, names.
      const phones = query<string>(store, "select distinct from_number from calls where from_number like '+%' union select distinct to_number from calls where to_number like '+%' order by 1 limit 150")
      const users = query<string>(store, "select distinct user_id from conversations where user_id like 'usr%' order by 1 limit 150")
      const names = query<string>(store, "select distinct json_extract(tool_arguments, '$.patient_name') from messages where json_extract(tool_arguments, '$.patient_name') is not null union select json_extract(meta_data, '$.account_manager') from tenants order by 1 limit 100")
      expect([phones.length, users.length, names.length]).toEqual([150, 150, 100])
      for (const original of [...phones, ...users, ...names, EMAIL, OTHER_EMAIL, IMPORTED_USER]) {
        expect(red.bytes.includes(original), original).toBe(false)
      }
      // Secrets are left out as in a plain pack.
      for (const secret of [secrets.tokenHash, secrets.sealed, secrets.origin]) expect(red.bytes.includes(secret), secret).toBe(false)
    })

    it('maps each original to one stand-in wherever it occurs', () => {
      const call = query<{ id: string; from: string; user: string }>(store, "select json_object('id', c.id, 'from', c.from_number, 'user', v.user_id) from calls c join conversations v on v.id = c.conversation_id where c.direction = 'inbound' and c.from_number like '+%' limit 1").map((j) => JSON.parse(j as unknown as string) as { id: string; from: string; user: string })[0]!
      const phone = query<string>(red.file, 'select from_number from calls where id = ?', call.id)[0]!
      expect(phone).toMatch(/^\+1555\d{4,11}$/)
      expect(phone).not.toBe(call.from)
      // The same number in the log line's text and in its details; the same user id in both tables.
      const inbound = query<string>(red.file, "select json_object('message', message, 'from', details ->> '$.from', 'user', user_id) from call_logs where call_id = ? and message like 'Inbound call%'", call.id).map((j) => JSON.parse(j))[0]
      expect(inbound).toEqual({ message: expect.stringContaining(`from ${phone} to +1555`), from: phone, user: expect.stringMatching(/^usr_[0-9a-f]{10}$/) })
      const conversationUser = query<string>(red.file, 'select v.user_id from calls c join conversations v on v.id = c.conversation_id where c.id = ?', call.id)[0]
      expect(conversationUser).toBe(inbound.user)
      // An imported address: in one line's message and another's details, the same stand-in.
      const [first, second] = query<string>(red.file, "select json_object('message', message, 'details', json(details)) from call_logs where log_type = 'crm' order by timestamp").map((j) => JSON.parse(j))
      const email = /by (user-[0-9a-f]{8}@example\.invalid)$/.exec(first.message)?.[1]
      expect(email).toBeDefined()
      expect(first.details.contact).toBe(email)
      expect(second.details.to).toBe(email)
      expect(second.message).toContain(first.details.cc)
    })

    it('still serves every REST operation and the console search, with the counts of the plain pack', async () => {
      expect(counts(red.file)).toEqual(counts(`${dir}/plain.sqlite`))
      const env = { CALLSCOPE_TOKEN: 'pack-admin' }
      const [plain, redacted] = await Promise.all([startServe(['--db', `${dir}/plain.sqlite`], env), startServe(['--db', red.file], env)])
      try {
        const both = async (path: string, init: RequestInit = {}) => {
          const answers = await Promise.all([plain, redacted].map(async (s) => {
            const response = await fetch(`${s.url}${path}`, { ...init, headers: { Authorization: 'Bearer pack-admin', 'Content-Type': 'application/json' } })
            return { status: response.status, body: (await response.json()) as any }
          }))
          expect(answers.map((a) => a.status), path).toEqual([200, 200])
          return answers.map((a) => a.body)
        }
        const tenants = query<string>(red.file, 'select id from tenants')
        for (const id of tenants) {
          const [a, b] = await both(`/tenants/${id}`)
          expect({ ...b, meta_data: null }).toEqual({ ...a, meta_data: null })
        }
        for (const agent of query<string>(red.file, 'select id from agents')) {
          for (const base of ['sessions', 'conversations']) {
            const [a, b] = await both(`/agents/${agent}/${base}?limit=100`)
            expect(b.total).toBe(a.total)
            expect(b.sessions.map((s: any) => s.conversation_id)).toEqual(a.sessions.map((s: any) => s.conversation_id))
          }
        }
        const [logsA, logsB] = await both('/logs/calls?limit=1000&start_date=2026-11-01')
        expect(logsB.map((l: any) => l.id)).toEqual(logsA.map((l: any) => l.id))
        for (const squad of query<string>(red.file, 'select id from squads')) {
          // Aggregates only, so equal; the period ends at the time of the request.
          const [a, b] = await both(`/squads/${squad}/analytics`)
          expect({ ...b, period: null }).toEqual({ ...a, period: null })
        }
        const [trunksA, trunksB] = await both('/agents/sip/list-trunks')
        expect(trunksB.trunks.map((t: any) => t.sip_trunk_id)).toEqual(trunksA.trunks.map((t: any) => t.sip_trunk_id))
        for (const trunk of trunksB.trunks) for (const number of trunk.numbers) expect(number).toMatch(/^\+1555\d+$/)
        await both('/admin/providers/llm/openai')
        await both('/admin/providers/validate/stt?online=false', { method: 'POST', body: JSON.stringify({ provider: 'deepgram', model: 'nova-3' }) })
        // The console's full-text search finds the stand-ins, and the originals no longer.
        const search = async (s: typeof plain, q: string) => {
          const input = encodeURIComponent(JSON.stringify({ filter: { q }, limit: 500 }))
          const response = await fetch(`${s.url}/trpc/callLogs.search?input=${input}`, { headers: { Authorization: 'Bearer pack-admin' } })
          return ((await response.json()) as any).result.data.rows.length as number
        }
        expect(await search(redacted, '"Inbound call from"')).toBe(await search(plain, '"Inbound call from"'))
        const original = query<string>(`${dir}/plain.sqlite`, "select message from call_logs where log_type = 'crm' order by timestamp limit 1")[0]!
        const standIn = query<string>(red.file, "select message from call_logs where log_type = 'crm' order by timestamp limit 1")[0]!
        expect(await search(plain, `"${original.split(' by ')[1]}"`)).toBe(1)
        expect(await search(redacted, `"${original.split(' by ')[1]}"`)).toBe(0)
        expect(await search(redacted, `"${standIn.split(' by ')[1]}"`)).toBe(1)
      } finally {
        expect(await plain.stop()).toBe(0)
        expect(await redacted.stop()).toBe(0)
      }
    }, 120_000)
  })
})
