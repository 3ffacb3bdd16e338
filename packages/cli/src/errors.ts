/**
 * What the CLI tells its user when something fails: one line saying what is wrong and what to do,
 * and an exit code (2 for a mistake in the command line, 1 for a failure while running). Messages
 * name the server by host, port and database, never by the whole URL, which may carry a password.
 *
 * @module
 */

/** A failure the CLI reports as one line. */
export class CliError extends Error {
  constructor(
    message: string,
    /** 2: the command line is wrong; 1: running it failed. */
    readonly exitCode: 1 | 2 = 1,
  ) {
    super(message)
    this.name = "CliError"
  }
}

/** A mistake in the command line. */
export const usageError = (message: string) => new CliError(message, 2)

/** The parts of a driver error the CLI reads. */
interface DriverError {
  code?: unknown
  errno?: unknown
  message?: unknown
}

const networkCodes = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "ETIMEDOUT", "EHOSTUNREACH", "ENETUNREACH", "ECONNRESET"])

/**
 * The one line for a database error met while migrating (or, with `doing` "read", reading)
 * `server` (host:port/database) of `kind` ("PostgreSQL", "MySQL", "SQLite").
 */
export function explain(error: unknown, kind: string, server: string, doing: "migrate" | "read" = "migrate"): CliError {
  if (error instanceof CliError) return error
  // The adapters refuse unsafe table names with a TypeError before touching the database.
  if (error instanceof TypeError && /identifier/.test(error.message)) return usageError(error.message)
  const e = (error ?? {}) as DriverError
  const code = typeof e.code === "string" ? e.code : ""
  const message = typeof e.message === "string" ? e.message : String(error)
  if (networkCodes.has(code) || /timeout|terminated unexpectedly/i.test(message)) {
    return new CliError(`Cannot reach the ${kind} server at ${server} (${code || message}): check that it is running and that the host and port in --url are right.`)
  }
  // PostgreSQL: insufficient_privilege; MySQL: table, database or command access denied.
  if (code === "42501" || code === "ER_TABLEACCESS_DENIED_ERROR" || code === "ER_DBACCESS_DENIED_ERROR" || code === "ER_SPECIFIC_ACCESS_DENIED_ERROR") {
    if (doing === "read") return new CliError(`The database user may not read a table on ${server} (${message}): grant it SELECT there, or run the check as the owner.`)
    return new CliError(
      `The database user lacks a privilege that migrate needs on ${server} (${message}): grant it CREATE and REFERENCES there, or run migrate as the owner.`,
    )
  }
  if (code === "28P01" || code === "28000" || code === "ER_ACCESS_DENIED_ERROR" || code === "ER_NOT_SUPPORTED_AUTH_MODE") {
    return new CliError(`The ${kind} server at ${server} refused the user name or password (${message}): check the credentials in --url.`)
  }
  if (code === "3D000" || code === "ER_BAD_DB_ERROR") {
    return new CliError(`The database in --url does not exist on ${server} (${message}): create it first, or name an existing one.`)
  }
  if (code === "ER_NO_DB_ERROR") {
    return new CliError(`--url names no database on ${server}: add one, as in mysql://user@host:3306/app.`)
  }
  if (code === "3F000") {
    return new CliError(`The schema in the URL's search_path does not exist on ${server} (${message}): create it first (CREATE SCHEMA …).`)
  }
  if (code === "SQLITE_CANTOPEN" || /directory does not exist|unable to open/i.test(message)) {
    return new CliError(`Cannot open the SQLite file ${server} (${message}): check the path in --url and that its folder exists.`)
  }
  return new CliError(`${doing === "read" ? "Reading" : "Migrating"} ${server} failed: ${message}`)
}
