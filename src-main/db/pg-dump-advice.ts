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
  return [
    'callscope backup copies a SQLite store; a PostgreSQL store is backed up with PostgreSQL\'s own pg_dump, which takes a consistent copy while serve runs:',
    `  pg_dump --format=custom --file=${quoted(file)} ${quoted(safe)}`,
    'Restore it (with serve stopped) into an empty or existing database with pg_restore:',
    `  pg_restore --clean --if-exists --no-owner --dbname=${quoted(safe)} ${quoted(file)}`,
    'pg_dump asks for the password, or reads PGPASSWORD or ~/.pgpass. Keep the store\'s key file (--key-file) with the dump: sealed provider keys and webhook secrets cannot be read without it.',
  ].join('\n')
}
