import { type Kysely, type Migration, sql } from 'kysely'

/*
 * Pulled squad analytics, SIP trunks and LLM provider details as rows (issue 15), served by their
 * operations where the first two were JSON documents. Analytics are aggregates no pulled row can recompute, so each squad's answer
 * is kept whole, with the period it covers (the pull's range) and, when it says, its name and tenant
 * for the console. A trunk list becomes one row per trunk in the remote's order; a list that is not
 * `{ "trunks": [...] }` stays a document (its shape is "not shown" in the spec). A provider's details
 * are kept whole: the remote's catalog, key status (masked) and agents. Documents of earlier pulls
 * are moved in. Keyed by source: two backends may share ids. Frozen snapshot.
 */
async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('pulled_squad_analytics')
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('squad_id', 'text', (c) => c.notNull().check(sql`length(squad_id) between 1 and 255`))
    .addColumn('squad_name', 'text')
    .addColumn('tenant_id', 'text')
    .addColumn('period_start', 'text', (c) => c.notNull())
    .addColumn('period_end', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull().check(sql`json_valid(body) and json_type(body) = 'object'`))
    .addColumn('fetched_at', 'text', (c) => c.notNull())
    .addColumn('pull_id', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('pulled_squad_analytics_pk', ['source', 'squad_id'])
    .modifyEnd(sql`strict`)
    .execute()
  await db.schema.createIndex('pulled_squad_analytics_squad').on('pulled_squad_analytics').columns(['squad_id', 'fetched_at']).execute()

  await db.schema
    .createTable('pulled_sip_trunks')
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull().check(sql`position >= 0`))
    .addColumn('sip_trunk_id', 'text')
    .addColumn('tenant_id', 'text')
    .addColumn('body', 'text', (c) => c.notNull().check(sql`json_valid(body) and json_type(body) = 'object'`))
    .addColumn('fetched_at', 'text', (c) => c.notNull())
    .addColumn('pull_id', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('pulled_sip_trunks_pk', ['source', 'position'])
    .modifyEnd(sql`strict`)
    .execute()

  await db.schema
    .createTable('pulled_llm_providers')
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('provider', 'text', (c) => c.notNull().check(sql`length(provider) between 1 and 255`))
    .addColumn('body', 'text', (c) => c.notNull().check(sql`json_valid(body) and json_type(body) = 'object'`))
    .addColumn('fetched_at', 'text', (c) => c.notNull())
    .addColumn('pull_id', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('pulled_llm_providers_pk', ['source', 'provider'])
    .modifyEnd(sql`strict`)
    .execute()
  await db.schema.createIndex('pulled_llm_providers_provider').on('pulled_llm_providers').columns(['provider', 'fetched_at']).execute()

  await sql`insert into pulled_squad_analytics (source, squad_id, squad_name, tenant_id, period_start, period_end, body, fetched_at, pull_id)
    select d.source, d.key, json_extract(d.body, '$.squad_name'), json_extract(d.body, '$.tenant_id'),
      coalesce(p.since, d.fetched_at), coalesce(p.until, d.fetched_at), d.body, d.fetched_at, d.pull_id
    from pulled_documents d left join pulls p on p.id = d.pull_id
    where d.kind = 'squad_analytics' and json_type(d.body) = 'object'`.execute(db)
  await sql`delete from pulled_documents where kind = 'squad_analytics' and json_type(body) = 'object'`.execute(db)
  await sql`insert into pulled_sip_trunks (source, position, sip_trunk_id, tenant_id, body, fetched_at, pull_id)
    select d.source, t.key, json_extract(t.value, '$.sip_trunk_id'), json_extract(t.value, '$.tenant_id'), t.value, d.fetched_at, d.pull_id
    from pulled_documents d, json_each(d.body, '$.trunks') t
    where d.kind = 'sip_trunks' and d.key = '*' and json_type(d.body, '$.trunks') = 'array' and json_type(t.value) = 'object'`.execute(db)
  await sql`delete from pulled_documents where kind = 'sip_trunks' and key = '*' and json_type(body, '$.trunks') = 'array'`.execute(db)
}

async function down(db: Kysely<any>): Promise<void> {
  await sql`insert or replace into pulled_documents (source, kind, key, body, fetched_at, pull_id)
    select source, 'squad_analytics', squad_id, body, fetched_at, pull_id from pulled_squad_analytics`.execute(db)
  await sql`insert or replace into pulled_documents (source, kind, key, body, fetched_at, pull_id)
    select source, 'sip_trunks', '*', json_object('trunks', json_group_array(json(body) order by position)), max(fetched_at), max(pull_id)
    from pulled_sip_trunks group by source`.execute(db)
  await db.schema.dropTable('pulled_llm_providers').execute()
  await db.schema.dropTable('pulled_sip_trunks').execute()
  await db.schema.dropTable('pulled_squad_analytics').execute()
}

export const pulledAnswers: Migration = { up, down }
