/**
 * The three SQL adapters the CLI migrates: how each reads `--url`, connects with its driver, runs
 * the adapter's own `migrate`, prints its schema, and opens a connection that cannot write (for
 * `migrate --from authjs --check`). Drivers are imported when needed, so an app that uses one
 * database needs only that driver installed.
 *
 * @module
 */
import type { ModelDeclaration } from "@sesame/core/adapters"
import type { Row, SqlDialect, SqlMigrateOptions, SqlMigrationResult, TableOverrides } from "@sesame/sql-common"
import { CliError, explain, usageError } from "./errors.js"

/**
 * A connection the database itself keeps from writing (a read-only transaction on PostgreSQL and
 * MySQL, a file opened read-only with SQLite), all of whose reads see one snapshot.
 */
export interface ReadOnlyDatabase {
  /** The name in messages: "PostgreSQL", "MySQL", "SQLite". */
  kind: string
  /** host:port/database, or the file: never the URL, which may hold a password. */
  server: string
  /** `name` quoted as an identifier; `name` is a checked plain identifier. */
  quote(name: string): string
  /** The tables this connection sees without a schema name (PostgreSQL: those of its search_path). */
  tables(): Promise<string[]>
  /** The rows of a SELECT. */
  query(sql: string): Promise<Row[]>
  /** Ends the transaction (rolled back: it wrote nothing) and the connection. */
  close(): Promise<void>
}

export interface Dialect {
  /** The name `--adapter` gives it. */
  id: SqlDialect
  /** The name in messages. */
  kind: string
  /** What `--url` looks like, for messages. */
  urlExample: string
  /** The SQL that creates the schema, and the tables of `models`. */
  schema(tables: TableOverrides, models: readonly ModelDeclaration[]): Promise<string>
  /** Migrates the database at `url` (and `options.models`' tables); `server` names it in messages without secrets. */
  migrate(url: string, options: SqlMigrateOptions): Promise<{ result: SqlMigrationResult; server: string }>
  /** Opens the database at `url` for reading only. */
  openReadOnly(url: string): Promise<ReadOnlyDatabase>
}

/** How long to wait for a server before calling it unreachable. */
const connectTimeoutMs = 10_000

/** The URL when it parses and has one of `protocols`; a one-line error otherwise. */
function serverUrl(url: string, protocols: string[], example: string): URL {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    throw usageError(`--url is not a valid connection URL: expected something like ${example}.`)
  }
  if (!protocols.includes(parsed.protocol)) {
    throw usageError(`--url must start with ${protocols.map((p) => `${p}//`).join(" or ")}; got ${parsed.protocol}//…: expected something like ${example}.`)
  }
  if (!parsed.hostname) throw usageError(`--url names no host: expected something like ${example}.`)
  return parsed
}

/** host:port/database, without the user or password. */
const describe = (url: URL, defaultPort: number) => `${url.hostname}:${url.port || defaultPort}${url.pathname === "/" ? "" : url.pathname}`

/** Imports a driver, or explains how to install it. */
async function driver<T>(name: string, load: () => Promise<T>): Promise<T> {
  try {
    return await load()
  } catch (error) {
    if ((error as { code?: unknown }).code === "ERR_MODULE_NOT_FOUND") throw new CliError(`The ${name} package is not installed: npm install ${name}`)
    throw error
  }
}

const pg: Dialect = {
  id: "pg",
  kind: "PostgreSQL",
  urlExample: "postgres://user:password@127.0.0.1:5432/app",
  schema: async (tables, models) => (await import("@sesame/adapter-pg")).schema(tables, models),
  async migrate(url, options) {
    const parsed = serverUrl(url, ["postgres:", "postgresql:"], pg.urlExample)
    const server = describe(parsed, 5432)
    const { default: driverModule } = await driver("pg", () => import("pg"))
    const { migrate } = await import("@sesame/adapter-pg")
    const pool = new driverModule.Pool({ connectionString: url, max: 1, connectionTimeoutMillis: connectTimeoutMs })
    // A connection that fails while idle is of no concern to a command about to exit.
    pool.on("error", () => {})
    try {
      return { result: await migrate(pool, options), server }
    } catch (error) {
      throw explain(error, pg.kind, server)
    } finally {
      await pool.end().catch(() => {})
    }
  },
  async openReadOnly(url) {
    const parsed = serverUrl(url, ["postgres:", "postgresql:"], pg.urlExample)
    const server = describe(parsed, 5432)
    const { default: driverModule } = await driver("pg", () => import("pg"))
    const client = new driverModule.Client({ connectionString: url, connectionTimeoutMillis: connectTimeoutMs })
    client.on("error", () => {})
    try {
      await client.connect()
      // The server refuses every write in a READ ONLY transaction; REPEATABLE READ makes every
      // count of one run agree with the others.
      await client.query("BEGIN TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
    } catch (error) {
      await client.end().catch(() => {})
      throw explain(error, pg.kind, server, "read")
    }
    return {
      kind: pg.kind,
      server,
      quote: (name) => `"${name}"`,
      async tables() {
        const { rows } = await client.query<{ name: string }>(
          "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = ANY (current_schemas(false))",
        )
        return rows.map((r) => r.name)
      },
      query: async (sql) => (await client.query(sql)).rows as Row[],
      async close() {
        await client.query("ROLLBACK").catch(() => {})
        await client.end().catch(() => {})
      },
    }
  },
}

const mysql: Dialect = {
  id: "mysql",
  kind: "MySQL",
  urlExample: "mysql://user:password@127.0.0.1:3306/app",
  schema: async (tables, models) => (await import("@sesame/adapter-mysql")).schema(tables, models),
  async migrate(url, options) {
    const parsed = serverUrl(url, ["mysql:", "mariadb:"], mysql.urlExample)
    const server = describe(parsed, 3306)
    if (parsed.pathname.length <= 1) throw usageError(`--url names no database: add one, as in ${mysql.urlExample}.`)
    parsed.protocol = "mysql:"
    const driverModule = await driver("mysql2", () => import("mysql2/promise"))
    const { migrate } = await import("@sesame/adapter-mysql")
    const pool = driverModule.createPool({ uri: parsed.href, connectionLimit: 1, connectTimeout: connectTimeoutMs })
    try {
      return { result: await migrate(pool, options), server }
    } catch (error) {
      throw explain(error, mysql.kind, server)
    } finally {
      await pool.end().catch(() => {})
    }
  },
  async openReadOnly(url) {
    const parsed = serverUrl(url, ["mysql:", "mariadb:"], mysql.urlExample)
    const server = describe(parsed, 3306)
    if (parsed.pathname.length <= 1) throw usageError(`--url names no database: add one, as in ${mysql.urlExample}.`)
    parsed.protocol = "mysql:"
    const driverModule = await driver("mysql2", () => import("mysql2/promise"))
    let connection: Awaited<ReturnType<typeof driverModule.createConnection>> | undefined
    try {
      // Dates as the stored text, read as UTC (as Sesame's MySQL adapter reads them).
      connection = await driverModule.createConnection({ uri: parsed.href, connectTimeout: connectTimeoutMs, dateStrings: true })
      // TIMESTAMP columns as UTC, whatever the server's zone.
      await connection.query("SET time_zone = '+00:00'")
      await connection.query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
      await connection.query("START TRANSACTION WITH CONSISTENT SNAPSHOT, READ ONLY")
    } catch (error) {
      await connection?.end().catch(() => {})
      throw explain(error, mysql.kind, server, "read")
    }
    const open = connection
    return {
      kind: mysql.kind,
      server,
      quote: (name) => `\`${name}\``,
      async tables() {
        const [rows] = await open.query("SELECT TABLE_NAME AS name FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE()")
        return (rows as { name: string }[]).map((r) => r.name)
      },
      query: async (sql) => (await open.query(sql))[0] as Row[],
      async close() {
        await open.query("ROLLBACK").catch(() => {})
        await open.end().catch(() => {})
      },
    }
  },
}

const sqlite: Dialect = {
  id: "sqlite",
  kind: "SQLite",
  urlExample: "./data/auth.db",
  schema: async (tables, models) => (await import("@sesame/adapter-sqlite")).schema(tables, models),
  async migrate(url, options) {
    const file = url.startsWith("file:") ? new URL(url).pathname : url
    if (!file || file === ":memory:") throw usageError(`--url must name a SQLite file, such as ${sqlite.urlExample}.`)
    const { default: Database } = await driver("better-sqlite3", () => import("better-sqlite3"))
    const { migrate } = await import("@sesame/adapter-sqlite")
    let db: InstanceType<typeof Database> | undefined
    try {
      db = new Database(file)
      return { result: await migrate(db, options), server: file }
    } catch (error) {
      throw explain(error, sqlite.kind, file)
    } finally {
      db?.close()
    }
  },
  async openReadOnly(url) {
    const file = url.startsWith("file:") ? new URL(url).pathname : url
    if (!file || file === ":memory:") throw usageError(`--url must name a SQLite file, such as ${sqlite.urlExample}.`)
    const { default: Database } = await driver("better-sqlite3", () => import("better-sqlite3"))
    let db: InstanceType<typeof Database>
    try {
      // Read-only: SQLite refuses every write, and never creates a file that is not there.
      db = new Database(file, { readonly: true, fileMustExist: true })
      db.exec("BEGIN")
    } catch (error) {
      throw explain(error, sqlite.kind, file, "read")
    }
    return {
      kind: sqlite.kind,
      server: file,
      quote: (name) => `"${name}"`,
      tables: async () => (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map((r) => r.name),
      async query(sql) {
        const statement = db.prepare(sql)
        // Run as it is (SQLite itself refuses a write to a file opened read-only).
        if (statement.reader) return statement.all() as Row[]
        statement.run()
        return []
      },
      async close() {
        if (db.inTransaction) db.exec("ROLLBACK")
        db.close()
      },
    }
  },
}

export const dialects: Record<string, Dialect> = { pg, mysql, sqlite }

/** The dialect named by `--adapter`. */
export function dialect(name: string | undefined): Dialect {
  if (!name) throw usageError("Missing --adapter: use --adapter pg, --adapter mysql or --adapter sqlite.")
  const found = Object.hasOwn(dialects, name) ? dialects[name] : undefined
  if (!found) throw usageError(`Unknown adapter ${JSON.stringify(name)}: use pg, mysql or sqlite.`)
  return found
}
