import { createInterface } from 'node:readline'
import { Writable } from 'node:stream'
import { type Command, Option } from 'commander'
import { PROVIDER_KINDS } from '../../../src-shared/constants'
import type { ProviderKind } from '../../modules/providers/catalog'
import { withService } from '../open-service'

interface KindProvider {
  kind: ProviderKind
  provider: string
  db?: string
}

const kindOption = () => new Option('-k, --kind <kind>', 'provider kind').choices(PROVIDER_KINDS).makeOptionMandatory()

export function registerProvider(program: Command): void {
  const provider = program
    .command('provider')
    .description('manage provider API keys (stored encrypted; environment variables such as DEEPGRAM_API_KEY also work)')

  provider
    .command('set-key')
    .description('store (or replace) a provider API key, read from stdin unless --key is given')
    .addOption(kindOption())
    .requiredOption('-p, --provider <id>', 'provider id from the catalog, e.g. deepgram')
    .option('--key <key>', 'the key itself (visible in the process list and shell history: prefer stdin)')
    .option('--base-url <url>', "use this API base URL instead of the catalog's (a proxy, a region, a test server)")
    .option('--db <file>', 'database file')
    .action(async (opts: KindProvider & { key?: string; baseUrl?: string }) => {
      const key = opts.key ?? (await readKey(`${opts.kind} key for ${opts.provider}`))
      await withService(opts.db, async (service) => {
        const stored = await service.providers.credentials.set({
          kind: opts.kind,
          provider: opts.provider,
          key,
          baseUrl: opts.baseUrl ?? null,
        })
        const base = stored.base_url ? `, base URL ${stored.base_url}` : ''
        process.stdout.write(
          `Stored the ${stored.kind} key for ${stored.provider} (${stored.key_hint}${base}), sealed with ${service.providers.credentials.protection}.\n`,
        )
      })
    })

  provider
    .command('list')
    .description('list configured provider keys, masked (stored ones and those from environment variables)')
    .option('--json', 'print JSON')
    .option('--db <file>', 'database file')
    .action(async (opts: { json?: boolean; db?: string }) => {
      await withService(opts.db, async (service) => {
        const entries = await service.providers.credentials.list()
        if (opts.json) {
          process.stdout.write(`${JSON.stringify(entries, null, 2)}\n`)
          return
        }
        if (entries.length === 0) {
          process.stdout.write('No provider keys configured. Add one with "callscope provider set-key".\n')
          return
        }
        console.table(
          entries.map((e) => ({
            kind: e.kind,
            provider: e.provider,
            key: e.key_hint,
            source: e.source === 'environment' ? `env ${e.env_var}` : 'stored',
            'base url': e.base_url ?? '',
            updated: e.updated_at?.slice(0, 19).replace('T', ' ') ?? '',
          })),
        )
      })
    })

  provider
    .command('remove')
    .description('delete a stored provider key (environment variables are not affected)')
    .addOption(kindOption())
    .requiredOption('-p, --provider <id>', 'provider id')
    .option('--db <file>', 'database file')
    .action(async (opts: KindProvider) => {
      await withService(opts.db, async (service) => {
        const removed = await service.providers.credentials.remove(opts.kind, opts.provider)
        if (!removed) throw new Error(`no stored ${opts.kind} key for ${opts.provider}`)
        process.stdout.write(`Removed the stored ${opts.kind} key for ${opts.provider}.\n`)
      })
    })
}

/** The key from stdin: a hidden prompt on a terminal, else everything piped in (trimmed). */
async function readKey(what: string): Promise<string> {
  const stdin = process.stdin
  if (stdin.isTTY) {
    process.stderr.write(`Paste the ${what} and press Enter (input is hidden): `)
    const muted = new Writable({ write: (_chunk, _encoding, done) => done() })
    const rl = createInterface({ input: stdin, output: muted, terminal: true })
    try {
      return await new Promise<string>((resolve, reject) => {
        rl.once('line', resolve)
        rl.once('close', () => reject(new Error('no key given')))
      })
    } finally {
      rl.close()
      process.stderr.write('\n')
    }
  }
  const chunks: Buffer[] = []
  for await (const chunk of stdin) chunks.push(Buffer.from(chunk as Buffer))
  const key = Buffer.concat(chunks).toString('utf8').trim()
  if (!key) throw new Error('no key given: pipe it on stdin or pass --key')
  return key
}
