import {
  type CompiledQuery,
  type DatabaseConnection,
  type DatabaseIntrospector,
  type Dialect,
  type DialectAdapter,
  type Driver,
  type Kysely,
  type QueryCompiler,
  type QueryResult,
  RawNode,
  SelectQueryNode,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
} from 'kysely'
import type { ReadPool } from './read-pool'
import type { Release, StoreWriter } from './store-writer'

/**
 * SQLite-only: kysely over the store's one writing connection (StoreWriter: on the writer thread or
 * inline) and, when there is one, a pool of readers (read-pool.ts). A SELECT outside a transaction
 * goes to a reader thread; everything else (writes, DDL, pragmas, and every statement of a
 * transaction, reads included, so a transaction reads its own writes) goes to the writing
 * connection, one statement or one transaction at a time, taking turns with write jobs.
 */
export class StoreDialect implements Dialect {
  constructor(
    private readonly writer: StoreWriter,
    private readonly pool: ReadPool | null,
  ) {}

  createDriver(): Driver {
    return new StoreDriver(this.writer, this.pool)
  }

  createQueryCompiler(): QueryCompiler {
    return new SqliteQueryCompiler()
  }

  createAdapter(): DialectAdapter {
    return new TransactionalDdlAdapter()
  }

  createIntrospector(db: Kysely<any>): DatabaseIntrospector {
    return new SqliteIntrospector(db)
  }
}

/**
 * SQLite runs DDL inside transactions, though kysely's adapter says it does not: with this, the
 * migrator applies pending migrations in one transaction, so a crash or a failure part way (a table
 * rebuilt in 0008, say) leaves the store as it was, never half migrated.
 */
class TransactionalDdlAdapter extends SqliteAdapter {
  override get supportsTransactionalDdl(): boolean {
    return true
  }
}

/** A query that only reads: a SELECT built with kysely, or raw SQL that starts with SELECT. */
export function isPoolRead(query: CompiledQuery): boolean {
  if (SelectQueryNode.is(query.query)) return true
  return RawNode.is(query.query) && /^\s*select\b/i.test(query.sql)
}

/**
 * One per acquire. Outside a transaction each statement takes the writing connection for itself
 * alone (or goes to a reader); a transaction holds it from BEGIN to COMMIT or ROLLBACK, so reads
 * never queue behind a transaction and nothing else runs inside one.
 */
class StoreConnection implements DatabaseConnection {
  private held: Release | null = null

  constructor(
    private readonly writer: StoreWriter,
    private readonly pool: ReadPool | null,
  ) {}

  get inTransaction(): boolean {
    return this.held !== null
  }

  async hold(): Promise<void> {
    this.held = await this.writer.mutex.acquire()
  }

  letGo(): void {
    const release = this.held
    this.held = null
    release?.()
  }

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const statement = { sql: query.sql, parameters: query.parameters }
    if (this.held) return this.writer.backend.execute<R>(statement)
    if (this.pool && isPoolRead(query)) return { rows: await this.pool.read<R>(query.sql, query.parameters) }
    const release = await this.writer.mutex.acquire()
    try {
      return await this.writer.backend.execute<R>(statement)
    } finally {
      release()
    }
  }

  async *streamQuery<R>(query: CompiledQuery, chunkSize = 1000): AsyncIterableIterator<QueryResult<R>> {
    // Rows come back whole from either side of a thread; handed out in chunks all the same.
    const { rows } = await this.executeQuery<R>(query)
    for (let i = 0; i < rows.length; i += chunkSize) yield { rows: rows.slice(i, i + chunkSize) }
  }
}

const statement = (sql: string): CompiledQuery => ({ sql, parameters: [], query: RawNode.createWithSql(sql), queryId: { queryId: sql } }) as unknown as CompiledQuery

class StoreDriver implements Driver {
  constructor(
    private readonly writer: StoreWriter,
    private readonly pool: ReadPool | null,
  ) {}

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    return new StoreConnection(this.writer, this.pool)
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    const store = connection as StoreConnection
    await store.hold()
    try {
      await store.executeQuery(statement('begin'))
    } catch (error) {
      store.letGo()
      throw error
    }
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await this.end(connection as StoreConnection, 'commit')
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await this.end(connection as StoreConnection, 'rollback')
  }

  private async end(store: StoreConnection, word: 'commit' | 'rollback'): Promise<void> {
    try {
      await store.executeQuery(statement(word))
    } catch (error) {
      // A failed commit keeps the connection: kysely rolls back next, and that rollback must run
      // inside this hold, before anything else can reach the still-open transaction.
      if (word === 'commit') throw error
      // A full disk (SQLITE_FULL) or an I/O error can end the transaction inside SQLite itself; the
      // rollback kysely then asks for has nothing left to end, and its "no transaction is active"
      // must not take the place of the error that ended it (issue 36: a 500 instead of a 507).
      if (!/no transaction is active/.test((error as Error).message)) {
        store.letGo()
        throw error
      }
    }
    store.letGo()
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    // A transaction ends with commit or rollback; nothing is held past it.
    ;(connection as StoreConnection).letGo()
  }

  async destroy(): Promise<void> {
    await this.pool?.close()
    await this.writer.backend.close()
  }
}
