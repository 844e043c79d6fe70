import type BetterSqlite3 from 'better-sqlite3'
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
  SqliteDialect,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type TransactionSettings,
} from 'kysely'
import type { ReadPool } from './read-pool'

/**
 * SQLite-only: kysely over one writing connection and a pool of readers (read-pool.ts). A SELECT
 * outside a transaction goes to a reader thread, so the main thread never runs it; everything else
 * (writes, DDL, pragmas, and every statement of a transaction, reads included, so a transaction
 * reads its own writes) runs on the writing connection as kysely's SqliteDriver runs it.
 */
export class ReadRoutingDialect implements Dialect {
  constructor(
    private readonly sqlite: BetterSqlite3.Database,
    private readonly pool: ReadPool,
  ) {}

  createDriver(): Driver {
    return new ReadRoutingDriver(new SqliteDialect({ database: this.sqlite }).createDriver(), this.pool)
  }

  createQueryCompiler(): QueryCompiler {
    return new SqliteQueryCompiler()
  }

  createAdapter(): DialectAdapter {
    return new SqliteAdapter()
  }

  createIntrospector(db: Kysely<any>): DatabaseIntrospector {
    return new SqliteIntrospector(db)
  }
}

/** A query that only reads: a SELECT built with kysely, or raw SQL that starts with SELECT. */
export function isPoolRead(query: CompiledQuery): boolean {
  if (SelectQueryNode.is(query.query)) return true
  return RawNode.is(query.query) && /^\s*select\b/i.test(query.sql)
}

/**
 * One per acquire: reads go to the pool; the writer's single connection (and its mutex) is taken
 * only when a write or a transaction needs it, so reads never queue behind a transaction.
 */
class RoutingConnection implements DatabaseConnection {
  private writerConnection: DatabaseConnection | null = null
  inTransaction = false

  constructor(
    private readonly writer: Driver,
    private readonly pool: ReadPool,
  ) {}

  async writing(): Promise<DatabaseConnection> {
    this.writerConnection ??= await this.writer.acquireConnection()
    return this.writerConnection
  }

  async release(): Promise<void> {
    const connection = this.writerConnection
    if (!connection) return
    this.writerConnection = null
    await this.writer.releaseConnection(connection)
  }

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    if (!this.inTransaction && isPoolRead(query)) return { rows: await this.pool.read<R>(query.sql, query.parameters) }
    return (await this.writing()).executeQuery<R>(query)
  }

  async *streamQuery<R>(query: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    // Streams stay on the writing connection: the pool answers whole results.
    yield* (await this.writing()).streamQuery<R>(query, chunkSize)
  }
}

class ReadRoutingDriver implements Driver {
  constructor(
    private readonly writer: Driver,
    private readonly pool: ReadPool,
  ) {}

  init(): Promise<void> {
    return this.writer.init()
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    return new RoutingConnection(this.writer, this.pool)
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    const routing = connection as RoutingConnection
    await this.writer.beginTransaction(await routing.writing(), settings)
    routing.inTransaction = true
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    const routing = connection as RoutingConnection
    routing.inTransaction = false
    await this.writer.commitTransaction(await routing.writing())
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    const routing = connection as RoutingConnection
    routing.inTransaction = false
    await this.writer.rollbackTransaction(await routing.writing())
  }

  async savepoint(connection: DatabaseConnection, name: string, compile: Parameters<NonNullable<Driver['savepoint']>>[2]): Promise<void> {
    await this.writer.savepoint!(await (connection as RoutingConnection).writing(), name, compile)
  }

  async rollbackToSavepoint(connection: DatabaseConnection, name: string, compile: Parameters<NonNullable<Driver['rollbackToSavepoint']>>[2]): Promise<void> {
    await this.writer.rollbackToSavepoint!(await (connection as RoutingConnection).writing(), name, compile)
  }

  async releaseSavepoint(connection: DatabaseConnection, name: string, compile: Parameters<NonNullable<Driver['releaseSavepoint']>>[2]): Promise<void> {
    await this.writer.releaseSavepoint!(await (connection as RoutingConnection).writing(), name, compile)
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    await (connection as RoutingConnection).release()
  }

  async destroy(): Promise<void> {
    await this.pool.close()
    await this.writer.destroy()
  }
}
