/**
 * The `sesame` command line.
 *
 * ```sh
 * npx sesame secret [--write]
 * npx sesame migrate --adapter pg|mysql|sqlite --url <connection URL or file> [--tables users=…,sessions=…] [--plugin <file or package>]…
 * npx sesame migrate --from authjs --check --adapter pg|mysql|sqlite --url <…> [--tables users=…,accounts=…]
 * npx sesame schema --adapter pg|mysql|sqlite [--format sql|drizzle|kysely|prisma] [--tables …] [--plugin <file or package>]…
 * ```
 *
 * `--plugin` takes the app's plugins, or its configuration module (`--plugin ./auth.config.js`),
 * whose plugins' models get tables (and `session.revocation`'s), and whose `user.fields` get columns of the users table.
 *
 * Every failure is one line on stderr and a non-zero exit code: 2 for a mistake in the command
 * line, 1 for a failure while running.
 *
 * @module
 */
import { parseArgs } from "node:util"
import { isUserModel, type ModelDeclaration } from "@sesame/core/adapters"
import { defaultTableNames, identifier, type TableOverrides } from "@sesame/sql-common"
import { checkAuthjs } from "./authjs/check.js"
import { authjsRoles, type AuthjsTables } from "./authjs/read.js"
import { dialect, type Dialect } from "./dialects.js"
import { CliError, usageError } from "./errors.js"
import { declaredModels } from "./plugins.js"
import { printSchema, schemaFormat } from "./schema/formats.js"
import { newSecret, writeSecret } from "./secret.js"

export const usage = `Usage: sesame <command> [options]

Commands:
  secret [--write]              Print a new random secret for AUTH_SECRET. With --write, put it in
                                .env.local (created, or its AUTH_SECRET line replaced) instead.
  migrate --adapter <a> --url <url> [--plugin <p>]…
                                Create or upgrade Sesame's tables, and the plugins' (created, or
                                their missing columns and indexes added), then add the user
                                fields' missing columns to the users table; a no-op when current.
  migrate --from authjs --check --adapter <a> --url <url>
                                Read an Auth.js database, writing nothing, and say what switching
                                to Sesame changes for its users and what to do first. Exit code 1
                                when something blocks the switch.
  schema --adapter <a> [--format <f>] [--plugin <p>]…
                                Print Sesame's tables, the plugins' tables and the user fields'
                                columns: as SQL, or for an ORM (--format drizzle, kysely or prisma).

Options:
  --adapter pg|mysql|sqlite     The database: PostgreSQL, MySQL/MariaDB, or SQLite.
  --url <url>                   postgres://user:password@host:5432/db (search_path in ?options=),
                                mysql://user:password@host:3306/db, or a SQLite file path.
  --tables users=a,sessions=b   Table names, when the app renamed them (users, accounts, sessions,
                                verificationTokens, authenticators, passwords, counters,
                                twoFactors, recoveryCodes, signingKeys). With --from authjs: the
                                Auth.js tables (users, accounts, sessions, verificationTokens,
                                authenticators), when not the names of Auth.js's adapters.
  --plugin <file or package>    A plugin's module, or the app's configuration module (a .js file
                                or a package: --plugin ./auth.config.js), whose default export is
                                a plugin, a list of them, or the configuration: its plugins'
                                models, and its user.fields, columns of the users table (one
                                configuration with user.fields at most). Repeat it for several.
                                Tables of declared models are renamed by model name in --tables
                                (auditSignIn=audit_log); the users table by its role (users=…).
  --format sql|drizzle|kysely|prisma
                                With schema: SQL (the default), a module of Drizzle tables, a
                                Kysely Database interface, or Prisma models, each of the tables
                                migrate makes on --adapter's database.
  --from authjs --check         With migrate: check an Auth.js database instead (see above).
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

/** `users=a,sessions=b` as table names: by role, or by the name of one of `models`. */
function parseTables(value: string | undefined, models: readonly ModelDeclaration[] = []): TableOverrides {
  if (!value) return {}
  const tables: Record<string, string> = {}
  // The user fields' model is named for the users table's role, which renames it.
  const names = [...Object.keys(defaultTableNames), ...models.filter((model) => !isUserModel(model)).map((model) => model.name)]
  for (const pair of value.split(",")) {
    const [role = "", name = ""] = pair.split("=").map((s) => s.trim())
    if (!names.includes(role) || !name) {
      throw usageError(`--tables takes role=name pairs, the roles being ${names.join(", ")}; got ${JSON.stringify(pair)}.`)
    }
    tables[role] = name
  }
  return tables
}

/** `users=a,accounts=b` as the tables of an Auth.js database. */
function parseAuthjsTables(value: string | undefined): Partial<AuthjsTables> {
  const tables: Partial<AuthjsTables> = {}
  if (!value) return tables
  for (const pair of value.split(",")) {
    const [role = "", name = ""] = pair.split("=").map((s) => s.trim())
    if (!(authjsRoles as readonly string[]).includes(role) || !name) {
      throw usageError(`With --from authjs, --tables takes role=name pairs, the roles being ${authjsRoles.join(", ")}; got ${JSON.stringify(pair)}.`)
    }
    try {
      tables[role as keyof AuthjsTables] = identifier(`--tables ${role}`, name, 64)
    } catch (error) {
      throw usageError((error as Error).message)
    }
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
          from: { type: "string" },
          check: { type: "boolean" },
          plugin: { type: "string", multiple: true },
          format: { type: "string" },
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
        const format = schemaFormat(values.format)
        const chosen = dialect(values.adapter)
        const models = await declaredModels(values.plugin ?? [], io.cwd)
        const tables = parseTables(values.tables, models)
        // The adapter's DDL checks the table names and the models (references, keys) for every format.
        const sql = await schemaOf(chosen, tables, models)
        io.out(format === "sql" ? sql : printSchema(format, chosen.id, tables, models))
        return 0
      }
      case "migrate": {
        if (values.from !== undefined || values.check) {
          if (values.from !== "authjs") throw usageError(`--from takes authjs, the one library Sesame reads the database of; got ${JSON.stringify(values.from ?? "")}.`)
          if (!values.check) {
            throw usageError("--from authjs goes with --check: Sesame uses Auth.js's tables as they are (through Auth.js's adapter), so there is nothing to migrate, only to check.")
          }
          const chosen = dialect(values.adapter)
          if (!values.url) throw usageError(`Missing --url: the Auth.js database to check, such as ${chosen.urlExample}.`)
          return await checkAuthjs(chosen, values.url, parseAuthjsTables(values.tables), io)
        }
        const chosen = dialect(values.adapter)
        if (!values.url) throw usageError(`Missing --url: the database to migrate, such as ${chosen.urlExample}.`)
        const models = await declaredModels(values.plugin ?? [], io.cwd)
        const tables = parseTables(values.tables, models)
        const { result, server } = await chosen.migrate(values.url, { tables, ...(models.length > 0 ? { models } : {}) })
        for (const m of result.applied) io.out(`Applied migration ${m.version}: ${m.description}.`)
        for (const table of result.models?.created ?? []) io.out(`Created the plugins' table ${table}.`)
        for (const table of result.models?.altered ?? []) io.out(alteredLine(table, tables, models))
        const changed = result.applied.length > 0 || (result.models?.created.length ?? 0) + (result.models?.altered.length ?? 0) > 0
        io.out(
          changed
            ? `The ${chosen.kind} schema at ${server} is now at version ${result.version}${declaredNote(models)}.`
            : `Nothing to do: the ${chosen.kind} schema at ${server} is already at version ${result.version}${declaredNote(models)}.`,
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

/** What migrate did to `table`: the users table gained user fields, or a plugin's table columns or indexes. */
function alteredLine(table: string, tables: TableOverrides, models: readonly ModelDeclaration[]): string {
  return models.some(isUserModel) && table === (tables.users ?? defaultTableNames.users)
    ? `Added the user fields' columns or indexes to the users table ${table}.`
    : `Added columns or indexes to the plugins' table ${table}.`
}

/** `, with the plugins' tables and the user fields`: what the final line says migrate took care of besides Sesame's tables. */
function declaredNote(models: readonly ModelDeclaration[]): string {
  const parts = [...(models.some((m) => !isUserModel(m)) ? ["the plugins' tables"] : []), ...(models.some(isUserModel) ? ["the user fields"] : [])]
  return parts.length > 0 ? `, with ${parts.join(" and ")}` : ""
}

/**
 * The schema's SQL, as the adapter prints it: Sesame's tables, then the declared models' (the
 * plugins' tables, and the user fields' columns added to the users table); an unsafe table name
 * or a model the DDL refuses is a mistake in the command line.
 */
async function schemaOf(chosen: Dialect, tables: TableOverrides, models: readonly ModelDeclaration[]): Promise<string> {
  try {
    return await chosen.schema(tables, models)
  } catch (error) {
    throw error instanceof TypeError ? usageError(error.message) : error
  }
}
