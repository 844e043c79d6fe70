import { randomBytes } from 'node:crypto'
import pg from 'pg'
import { afterAll, inject } from 'vitest'
import { openDatabase } from '../../src-main/db/connection'
import { migrateToLatest } from '../../src-main/db/migrate'
import { openPostgresStore } from '../../src-main/db/pg-connection'
import { copySqliteToPostgres } from '../../src-main/db/pg-copy'
import type { PgCluster } from './pg-cluster'

/** Migrated, no rows. */
export const PG_EMPTY_TEMPLATE = 'callscope_empty'
/** Migrated, with the run's demo set (test/helpers/demo-template.ts) copied from its SQLite template. */
export const PG_DEMO_TEMPLATE = 'callscope_demo'

/** Creates and fills the two template databases (test/pg-global-setup.ts). */
export async function writePgTemplates(cluster: PgCluster, sqliteTemplate: string | undefined): Promise<void> {
  for (const name of [PG_EMPTY_TEMPLATE, PG_DEMO_TEMPLATE]) {
    await cluster.psql(`create database ${name}`)
    const store = openPostgresStore({ url: cluster.urlOf(name), poolSize: 2 })
    try {
      await migrateToLatest(store.db)
      if (name === PG_DEMO_TEMPLATE) {
        if (!sqliteTemplate) throw new Error('the PostgreSQL templates need test/global-setup.ts first (the SQLite demo template)')
        const source = openDatabase({ path: sqliteTemplate, readonly: true })
        try {
          await copySqliteToPostgres(source.db, store.pg)
        } finally {
          await source.close()
        }
      }
    } finally {
      await store.close()
    }
  }
}

/** Runs one statement on the cluster's `postgres` database. */
async function admin(baseUrl: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: `${baseUrl}/postgres` })
  await client.connect()
  try {
    await client.query(statement)
  } finally {
    await client.end()
  }
}

/**
 * A database of the test file's own on the run's cluster, copied from a template (the demo set
 * unless `seed: false`; `bare: true` for one never migrated, as an operator creates it), dropped
 * after the file. Returns its URL.
 */
export async function createPgDatabase(options: { seed?: boolean; bare?: boolean } = {}): Promise<string> {
  const baseUrl = inject('pgBaseUrl')
  if (!baseUrl) throw new Error('no PostgreSQL cluster: list test/pg-global-setup.ts in the project\'s globalSetup')
  const name = `t_${randomBytes(6).toString('hex')}`
  const template = options.bare ? 'template1' : options.seed === false ? PG_EMPTY_TEMPLATE : PG_DEMO_TEMPLATE
  await admin(baseUrl, `create database ${name} template ${template}`)
  afterAll(() => admin(baseUrl, `drop database if exists ${name} with (force)`))
  return `${baseUrl}/${name}`
}
