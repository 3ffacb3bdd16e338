/**
 * The three SQL adapters the CLI migrates: how each reads `--url`, connects with its driver, runs
 * the adapter's own `migrate`, and prints its schema. Drivers are imported when needed, so an app
 * that uses one database needs only that driver installed.
 *
 * @module
 */
import type { MigrateOptions, MigrationResult, TableNames } from "@sesame/sql-common"
import { CliError, explain, usageError } from "./errors.js"

export interface Dialect {
  /** The name in messages. */
  kind: string
  /** What `--url` looks like, for messages. */
  urlExample: string
  /** The SQL that creates the schema. */
  schema(tables: Partial<TableNames>): Promise<string>
  /** Migrates the database at `url`; `server` names it in messages without secrets. */
  migrate(url: string, options: MigrateOptions): Promise<{ result: MigrationResult; server: string }>
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
  kind: "PostgreSQL",
  urlExample: "postgres://user:password@127.0.0.1:5432/app",
  schema: async (tables) => (await import("@sesame/adapter-pg")).schema(tables),
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
}

const mysql: Dialect = {
  kind: "MySQL",
  urlExample: "mysql://user:password@127.0.0.1:3306/app",
  schema: async (tables) => (await import("@sesame/adapter-mysql")).schema(tables),
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
}

const sqlite: Dialect = {
  kind: "SQLite",
  urlExample: "./data/auth.db",
  schema: async (tables) => (await import("@sesame/adapter-sqlite")).schema(tables),
  async migrate(url, options) {
    const file = url.startsWith("file:") ? new URL(url).pathname : url
    if (!file || file === ":memory:") throw usageError(`--url must name a SQLite file, such as ${sqlite.urlExample}.`)
    const { default: Database } = await driver("better-sqlite3", () => import("better-sqlite3"))
    const { migrate } = await import("@sesame/adapter-sqlite")
    let db: InstanceType<typeof Database> | undefined
    try {
      db = new Database(file)
      return { result: migrate(db, options), server: file }
    } catch (error) {
      throw explain(error, sqlite.kind, file)
    } finally {
      db?.close()
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
