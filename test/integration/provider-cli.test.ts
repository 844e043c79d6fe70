import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { llmCatalog, sttCatalog } from '../../src-main/modules/providers/catalog'
import { CLI, type CliResult } from '../helpers/cli'
import { tempDir } from '../helpers/temp-dir'

const KEY = '0123456789abcdef0123456789abcdef01234567'
const OPENAI_KEY = 'sk-proj-FROMENVIRONMENT0123456789abcdwxyz'

/** Keys the developer's own environment might hold, blanked so listings are predictable. */
const NO_PROVIDER_KEYS = Object.fromEntries([...llmCatalog.providers, ...sttCatalog.providers].map((p) => [p.auth.key_env, '']))

function cli(args: string[], options: { input?: string; env?: NodeJS.ProcessEnv } = {}): CliResult {
  const result = spawnSync(process.execPath, [CLI, ...args], {
    encoding: 'utf8',
    input: options.input ?? '',
    env: { ...process.env, CALLSCOPE_TOKEN: '', ...NO_PROVIDER_KEYS, ...options.env },
    timeout: 60_000,
  })
  return { status: result.status, stdout: result.stdout, stderr: result.stderr }
}

describe('callscope provider', () => {
  const dir = tempDir()
  const db = `${dir}/providers.sqlite`

  it('stores a key read from stdin, sealed, with a 0600 key file next to the database', () => {
    const set = cli(['provider', 'set-key', '--kind', 'stt', '--provider', 'deepgram', '--base-url', 'http://127.0.0.1:9/', '--db', db], { input: `${KEY}\n` })
    expect(set.stderr).toBe('')
    expect(set.status).toBe(0)
    expect(set.stdout).toMatch(/^Stored the stt key for deepgram \(012…4567, base URL http:\/\/127\.0\.0\.1:9\), sealed with aes-256-gcm, key file .*providers\.sqlite\.key\.\n$/)
    const keyFile = `${db}.key`
    expect(existsSync(keyFile)).toBe(true)
    if (process.platform !== 'win32') expect(statSync(keyFile).mode & 0o777).toBe(0o600)
    // Neither the database nor its WAL holds the key in clear.
    for (const file of readdirSync(dir).filter((f) => f.startsWith('providers.sqlite'))) {
      expect(readFileSync(`${dir}/${file}`).includes(KEY), file).toBe(false)
    }
  })

  it('lists stored and environment keys masked', () => {
    const list = cli(['provider', 'list', '--json', '--db', db], { env: { OPENAI_API_KEY: OPENAI_KEY } })
    expect(list.status).toBe(0)
    expect(JSON.parse(list.stdout)).toEqual([
      { kind: 'stt', provider: 'deepgram', source: 'stored', key_hint: '012…4567', base_url: 'http://127.0.0.1:9', env_var: 'DEEPGRAM_API_KEY', updated_at: expect.any(String) },
      { kind: 'llm', provider: 'openai', source: 'environment', key_hint: 'sk-…wxyz', base_url: null, env_var: 'OPENAI_API_KEY', updated_at: null },
      // One variable serves both of OpenAI's catalog entries.
      { kind: 'stt', provider: 'openai', source: 'environment', key_hint: 'sk-…wxyz', base_url: null, env_var: 'OPENAI_API_KEY', updated_at: null },
    ])
    const table = cli(['provider', 'list', '--db', db], { env: { OPENAI_API_KEY: OPENAI_KEY } })
    expect(table.stdout).toMatch(/deepgram.*012…4567.*stored/)
    expect(table.stdout).toMatch(/openai.*sk-…wxyz.*env OPENAI_API_KEY/)
    for (const out of [list, table]) {
      expect(out.stdout + out.stderr).not.toContain(KEY)
      expect(out.stdout + out.stderr).not.toContain(OPENAI_KEY)
    }
  })

  it('takes --key too, and replaces the stored key', () => {
    const set = cli(['provider', 'set-key', '-k', 'llm', '-p', 'anthropic', '--key', 'sk-ant-abcdefghijklmnopqrstuvwxyz0123', '--db', db])
    expect(set.status).toBe(0)
    expect(set.stdout).toContain('(sk-…0123)')
    expect(set.stdout).not.toContain('sk-ant-abcdefghijklmnopqrstuvwxyz0123')
  })

  it('removes a stored key, and says so when there is none', () => {
    expect(cli(['provider', 'remove', '--kind', 'stt', '--provider', 'deepgram', '--db', db]).stdout).toBe('Removed the stored stt key for deepgram.\n')
    const again = cli(['provider', 'remove', '--kind', 'stt', '--provider', 'deepgram', '--db', db])
    expect(again.status).toBe(1)
    expect(again.stderr).toBe('callscope: error: no stored stt key for deepgram\n')
  })

  it.each([
    [['provider', 'set-key', '--kind', 'stt', '--provider', 'nope', '--key', 'k'], 1, /unknown stt provider "nope"; known: deepgram/],
    [['provider', 'set-key', '--kind', 'stt', '--provider', 'deepgram'], 1, /no key given/],
    [['provider', 'set-key', '--kind', 'stt', '--provider', 'deepgram', '--key', 'k', '--base-url', 'ftp://x'], 1, /http or https/],
    [['provider', 'set-key', '--kind', 'vision', '--provider', 'x'], 2, /Allowed choices are llm, stt, tts/],
    [['provider', 'set-key', '--provider', 'deepgram'], 2, /required option '-k, --kind <kind>' not specified/],
    [['provider', 'remove', '--kind', 'stt'], 2, /required option '-p, --provider <id>' not specified/],
  ])('rejects %j in one line', (args, status, message) => {
    const result = cli([...args, '--db', db])
    expect(result.status).toBe(status)
    expect(result.stderr).toMatch(message)
    expect(result.stderr.trim().split('\n')).toHaveLength(1)
  })

  it.each([[['provider']], [['provider', 'set-key']], [['provider', 'list']], [['provider', 'remove']]])('prints help for %j', (command) => {
    const result = cli([...command, '--help'])
    expect(result.status).toBe(0)
    expect(result.stdout).toMatch(/^Usage: callscope provider/)
  })
})
