import { type Command, InvalidArgumentError, Option } from 'commander'
import { TOKEN_ROLES, type TokenRole } from '../../../src-shared/constants'
import { resolveTokenExpiry } from '../../../src-shared/token-lifetime'
import { withService } from '../open-service'
import { TokenError } from '../../modules/tokens/tokens.service'

/** Checks `--expires` while parsing, so a bad value is a usage error (exit 2); the service counts from its own clock. */
function parseExpires(value: string): string {
  const expiry = resolveTokenExpiry(value, Date.now())
  if ('problem' in expiry) throw new InvalidArgumentError(expiry.problem)
  return value
}

/** A stored timestamp as the listing shows it: to the second, UTC. */
const shortTime = (iso: string) => iso.slice(0, 19).replace('T', ' ')

export function registerToken(program: Command): void {
  const token = program.command('token').description('manage API tokens for the HTTP port')

  token
    .command('create')
    .description('create a token and print it once')
    .requiredOption('-n, --name <name>', 'what the token is for')
    .addOption(new Option('-r, --role <role>', 'what it may do').choices(TOKEN_ROLES).default('viewer'))
    .option('-t, --tenant <id>', 'tenant the token is limited to (role "tenant")')
    .option('-s, --source <source>', 'the one source it reads: local, or a pulled backend\'s base URL (default: every source)')
    .addOption(
      new Option('-e, --expires <when>', 'when it stops working: never, a duration (12h, 30d, 2w, 1y) or an ISO 8601 date or date-time')
        .default('never')
        .argParser(parseExpires),
    )
    .option('--db <file>', 'database file')
    .action(async (opts: { name: string; role: TokenRole; tenant?: string; source?: string; expires: string; db?: string }) => {
      await withService(opts.db, async (service) => {
        const role = opts.tenant && opts.role === 'viewer' ? 'tenant' : opts.role
        const source = opts.source === undefined ? null : await service.sources.resolve(opts.source)
        if (source && 'problem' in source) throw new TokenError(`--source: ${source.problem}`)
        const { token: secret, record } = await service.tokens.create({ name: opts.name, role, tenantId: opts.tenant, expires: opts.expires, source: source?.key })
        const expiry = record.expires_at ? `expires ${shortTime(record.expires_at)} UTC` : 'never expires'
        process.stdout.write(`${secret}\n`)
        process.stderr.write(`Created ${record.role} token "${record.name}" (id ${record.id}; ${expiry}). It is shown only this once.\n`)
      })
    })

  token
    .command('list')
    .description('list tokens (never their secrets)')
    .option('--json', 'print JSON')
    .option('--db <file>', 'database file')
    .action(async (opts: { json?: boolean; db?: string }) => {
      await withService(opts.db, async (service) => {
        const rows = await service.tokens.list()
        if (opts.json) {
          process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`)
          return
        }
        if (rows.length === 0) {
          process.stdout.write('No tokens.\n')
          return
        }
        console.table(
          rows.map((r) => ({
            id: r.id.slice(0, 8),
            prefix: `${r.token_prefix}…`,
            name: r.name,
            role: r.role,
            tenant: r.tenant_id ?? '',
            source: r.source === null ? 'every' : r.source === '' ? 'local' : r.source,
            created: shortTime(r.created_at),
            'last used': r.last_used_at ? shortTime(r.last_used_at) : 'never',
            'expires (UTC)': r.expires_at ? shortTime(r.expires_at) : 'never',
            status: r.status,
          })),
        )
      })
    })

  token
    .command('revoke')
    .description('revoke a token by the start of its id or prefix')
    .argument('<id-or-prefix>', 'as shown by "token list"')
    .option('--db <file>', 'database file')
    .action(async (key: string, opts: { db?: string }) => {
      await withService(opts.db, async (service) => {
        const record = await service.tokens.revoke(key)
        process.stdout.write(`Revoked token "${record.name}" (id ${record.id}).\n`)
      })
    })
}
