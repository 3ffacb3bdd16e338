/**
 * The `sesame` command line.
 *
 * ```sh
 * npx sesame secret [--write]
 * npx sesame migrate --adapter pg|mysql|sqlite --url <connection URL or file> [--tables users=…,sessions=…]
 * npx sesame schema --adapter pg|mysql|sqlite [--tables …]
 * ```
 *
 * Every failure is one line on stderr and a non-zero exit code: 2 for a mistake in the command
 * line, 1 for a failure while running.
 *
 * @module
 */
import { parseArgs } from "node:util"
import { defaultTableNames, type TableNames } from "@sesame/sql-common"
import { dialect, type Dialect } from "./dialects.js"
import { CliError, usageError } from "./errors.js"
import { newSecret, writeSecret } from "./secret.js"

export const usage = `Usage: sesame <command> [options]

Commands:
  secret [--write]              Print a new random secret for AUTH_SECRET. With --write, put it in
                                .env.local (created, or its AUTH_SECRET line replaced) instead.
  migrate --adapter <a> --url <url>
                                Create or upgrade Sesame's tables; a no-op when they are current.
  schema --adapter <a>          Print the SQL of Sesame's tables.

Options:
  --adapter pg|mysql|sqlite     The database: PostgreSQL, MySQL/MariaDB, or SQLite.
  --url <url>                   postgres://user:password@host:5432/db (search_path in ?options=),
                                mysql://user:password@host:3306/db, or a SQLite file path.
  --tables users=a,sessions=b   Table names, when the app renamed them (users, accounts, sessions,
                                verificationTokens, authenticators, passwords, counters,
                                twoFactors, recoveryCodes, signingKeys).
  -h, --help                    Show this help.`

/** Where output goes; the tests pass their own. */
export interface Io {
  out(line: string): void
  err(line: string): void
  cwd: string
}

const processIo: Io = {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
  cwd: process.cwd(),
}

/** `users=a,sessions=b` as table names. */
function parseTables(value: string | undefined): Partial<TableNames> {
  if (!value) return {}
  const tables: Partial<TableNames> = {}
  for (const pair of value.split(",")) {
    const [role = "", name = ""] = pair.split("=").map((s) => s.trim())
    if (!Object.hasOwn(defaultTableNames, role) || !name) {
      throw usageError(`--tables takes role=name pairs, the roles being ${Object.keys(defaultTableNames).join(", ")}; got ${JSON.stringify(pair)}.`)
    }
    tables[role as keyof TableNames] = name
  }
  return tables
}

/** Runs the command line `args`; resolves with the exit code. */
export async function main(args: string[], io: Io = processIo): Promise<number> {
  try {
    let parsed
    try {
      parsed = parseArgs({
        args,
        allowPositionals: true,
        options: {
          adapter: { type: "string" },
          url: { type: "string" },
          tables: { type: "string" },
          write: { type: "boolean" },
          help: { type: "boolean", short: "h" },
        },
      })
    } catch (error) {
      throw usageError(`${(error as Error).message} (sesame --help lists the options).`)
    }
    const { values, positionals } = parsed
    const [command, ...extra] = positionals
    if (values.help || !command) {
      io.out(usage)
      return values.help ? 0 : 2
    }
    if (extra.length > 0) throw usageError(`Unexpected argument ${JSON.stringify(extra[0])} (sesame --help lists the commands).`)
    switch (command) {
      case "secret":
        io.out(values.write ? writeSecret(io.cwd) : newSecret())
        return 0
      case "schema": {
        const chosen = dialect(values.adapter)
        io.out(await schemaOf(chosen, parseTables(values.tables)))
        return 0
      }
      case "migrate": {
        const chosen = dialect(values.adapter)
        if (!values.url) throw usageError(`Missing --url: the database to migrate, such as ${chosen.urlExample}.`)
        const { result, server } = await chosen.migrate(values.url, { tables: parseTables(values.tables) })
        for (const m of result.applied) io.out(`Applied migration ${m.version}: ${m.description}.`)
        io.out(
          result.applied.length > 0
            ? `The ${chosen.kind} schema at ${server} is now at version ${result.version}.`
            : `Nothing to do: the ${chosen.kind} schema at ${server} is already at version ${result.version}.`,
        )
        return 0
      }
      default:
        throw usageError(`Unknown command ${JSON.stringify(command)}: use secret, migrate or schema (sesame --help).`)
    }
  } catch (error) {
    if (error instanceof CliError) {
      io.err(`sesame: ${error.message}`)
      return error.exitCode
    }
    io.err(`sesame: ${error instanceof Error ? error.message : String(error)}`)
    return 1
  }
}

/** The schema's SQL; an unsafe table name is a mistake in the command line. */
async function schemaOf(chosen: Dialect, tables: Partial<TableNames>): Promise<string> {
  try {
    return await chosen.schema(tables)
  } catch (error) {
    throw error instanceof TypeError ? usageError(error.message) : error
  }
}
