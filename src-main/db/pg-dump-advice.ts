/**
 * What `callscope backup` says of a PostgreSQL store: the server's own tools make its backups
 * (a consistent dump while the service runs, restored by pg_restore), shown with the store's URL
 * without its password so the line can be run as is (pg_dump asks for it, or reads PGPASSWORD or
 * ~/.pgpass).
 */
export function pgDumpAdvice(url: string, file = 'callscope.dump'): string {
  let safe = url
  try {
    const parsed = new URL(url)
    parsed.password = ''
    safe = parsed.toString()
  } catch {
    safe = 'postgres://USER@HOST:5432/DATABASE'
  }
  const quoted = (value: string) => `'${value.replace(/'/g, `'\\''`)}'`
  const restored = restoredUrl(safe)
  return [
    'callscope backup copies a SQLite store; a PostgreSQL store is backed up with PostgreSQL\'s own pg_dump, which takes a consistent copy while serve runs:',
    `  pg_dump --format=custom --file=${quoted(file)} ${quoted(safe)}`,
    'Restore it into a new, empty database, then point serve at that one (--db):',
    `  createdb --maintenance-db=${quoted(safe)} ${quoted(restored.name)}`,
    `  pg_restore --no-owner --dbname=${quoted(restored.url)} ${quoted(file)}`,
    'pg_dump asks for the password, or reads PGPASSWORD or ~/.pgpass. Keep the store\'s key file (--key-file) with the dump: sealed provider keys and webhook secrets cannot be read without it.',
  ].join('\n')
}

/** The same server with a new database beside the store's: `<name>_restored`. */
function restoredUrl(url: string): { name: string; url: string } {
  try {
    const parsed = new URL(url)
    const name = `${decodeURIComponent(parsed.pathname.slice(1)) || 'callscope'}_restored`
    parsed.pathname = `/${encodeURIComponent(name)}`
    return { name, url: parsed.toString() }
  } catch {
    return { name: 'callscope_restored', url: 'postgres://USER@HOST:5432/callscope_restored' }
  }
}
