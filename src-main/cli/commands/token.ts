import { type Command, Option } from 'commander'
import { TOKEN_ROLES, type TokenRole } from '../../../src-shared/constants'
import { withService } from '../open-service'

export function registerToken(program: Command): void {
  const token = program.command('token').description('manage API tokens for the HTTP port')

  token
    .command('create')
    .description('create a token and print it once')
    .requiredOption('-n, --name <name>', 'what the token is for')
    .addOption(new Option('-r, --role <role>', 'what it may do').choices(TOKEN_ROLES).default('viewer'))
    .option('-t, --tenant <id>', 'tenant the token is limited to (role "tenant")')
    .option('--db <file>', 'database file')
    .action(async (opts: { name: string; role: TokenRole; tenant?: string; db?: string }) => {
      await withService(opts.db, async (service) => {
        const role = opts.tenant && opts.role === 'viewer' ? 'tenant' : opts.role
        const { token: secret, record } = await service.tokens.create({ name: opts.name, role, tenantId: opts.tenant })
        process.stdout.write(`${secret}\n`)
        process.stderr.write(`Created ${record.role} token "${record.name}" (id ${record.id}). It is shown only this once.\n`)
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
            created: r.created_at.slice(0, 19).replace('T', ' '),
            'last used': r.last_used_at?.slice(0, 19).replace('T', ' ') ?? 'never',
            status: r.revoked_at ? 'revoked' : 'active',
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
