import { type Kysely, type Migration, sql } from 'kysely'

/*
 * Log values as real backends send them (issue 15). The log type becomes an open string (any text
 * of 1 to 100 characters, where it was a lower-case identifier), and a level given in another
 * spelling (`WARN`, `fatal`, `40`) keeps that spelling in log_level_original beside the normalised
 * log_level, which stays one of the five.
 *
 * SQLite cannot drop a CHECK constraint in place (better-sqlite3 runs in defensive mode, so no
 * writable_schema either): the table is rebuilt as SQLite's ALTER TABLE page describes, rows
 * copied with their seq, so the external-content FTS index (keyed on seq) stays valid as it is.
 * Indexes and triggers are recreated under their names. Frozen snapshot.
 */

const COLUMNS = [
  'seq', 'id', 'tenant_id', 'log_type', 'log_level', 'message', 'timestamp', 'agent_id', 'session_id',
  'call_id', 'details', 'user_id', 'trace_id', 'request_id', 'import_id', 'pull_id',
]

const INDEXES: Array<[string, string[], boolean?]> = [
  ['call_logs_id', ['id'], true],
  ['call_logs_timestamp', ['timestamp']],
  ['call_logs_agent_timestamp', ['agent_id', 'timestamp']],
  ['call_logs_tenant_timestamp', ['tenant_id', 'timestamp']],
  ['call_logs_level_timestamp', ['log_level', 'timestamp']],
  ['call_logs_type_timestamp', ['log_type', 'timestamp']],
  ['call_logs_call', ['call_id']],
  ['call_logs_trace', ['trace_id']],
  ['call_logs_session', ['session_id']],
]

const TRIGGERS = [
  sql`create trigger call_logs_fts_insert after insert on call_logs begin
    insert into call_logs_fts(rowid, message) values (new.seq, new.message);
  end`,
  sql`create trigger call_logs_fts_delete after delete on call_logs begin
    insert into call_logs_fts(call_logs_fts, rowid, message) values ('delete', old.seq, old.message);
  end`,
  sql`create trigger call_logs_fts_update after update of message on call_logs begin
    insert into call_logs_fts(call_logs_fts, rowid, message) values ('delete', old.seq, old.message);
    insert into call_logs_fts(rowid, message) values (new.seq, new.message);
  end`,
]

/** The call_logs table under `name`, with the log type's rule given; `original` adds log_level_original. */
async function createCallLogs(db: Kysely<any>, name: string, logTypeCheck: ReturnType<typeof sql>, original: boolean): Promise<void> {
  let builder = db.schema
    .createTable(name)
    .modifyEnd(sql`strict`)
    .addColumn('seq', 'integer', (c) => c.primaryKey())
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('log_type', 'text', (c) => c.notNull().check(logTypeCheck))
    .addColumn('log_level', 'text', (c) => c.notNull().check(sql`log_level in ('debug', 'info', 'warning', 'error', 'critical')`))
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('timestamp', 'text', (c) => c.notNull())
    .addColumn('agent_id', 'text')
    .addColumn('session_id', 'text')
    .addColumn('call_id', 'text')
    .addColumn('details', 'text', (c) => c.notNull().defaultTo('{}').check(sql`json_valid(details) and substr(details, 1, 1) = '{'`))
    .addColumn('user_id', 'text')
    .addColumn('trace_id', 'text')
    .addColumn('request_id', 'text')
    .addColumn('import_id', 'text')
    .addColumn('pull_id', 'text')
  if (original) {
    builder = builder.addColumn('log_level_original', 'text', (c) =>
      c.check(sql`log_level_original is null or length(log_level_original) between 1 and 100`),
    )
  }
  await builder.execute()
}

/** Copies every row into `next`, swaps it in for call_logs and recreates the indexes and triggers. */
async function swapIn(db: Kysely<any>, next: string): Promise<void> {
  const columns = sql.join(COLUMNS.map((c) => sql.ref(c)))
  await sql`insert into ${sql.table(next)} (${columns}) select ${columns} from call_logs order by seq`.execute(db)
  await db.schema.dropTable('call_logs').execute()
  await db.schema.alterTable(next).renameTo('call_logs').execute()
  for (const [index, columns, unique] of INDEXES) {
    const builder = db.schema.createIndex(index).on('call_logs').columns(columns)
    await (unique ? builder.unique() : builder).execute()
  }
  for (const trigger of TRIGGERS) await trigger.execute(db)
}

async function up(db: Kysely<any>): Promise<void> {
  await createCallLogs(db, 'call_logs_next', sql`length(log_type) between 1 and 100`, true)
  await swapIn(db, 'call_logs_next')
}

async function down(db: Kysely<any>): Promise<void> {
  await createCallLogs(db, 'call_logs_previous', sql`length(log_type) between 1 and 50 and log_type glob '[a-z]*' and not log_type glob '*[^a-z0-9_.]*'`, false)
  await swapIn(db, 'call_logs_previous')
}

export const openLogValues: Migration = { up, down }
