/**
 * `sesame schema --format drizzle|kysely|prisma`, proven on real databases and real compilers:
 * - Drizzle: on each server, `sesame migrate` with plugins, then the printed module is imported,
 *   compared column by column and index by index with what the server reports, type-checked,
 *   and given to `@sesame/adapter-drizzle`, which creates a user, links an account and writes and
 *   reads the plugins' rows through `adapter.store`, while Drizzle reads and writes the same rows
 *   through the printed tables.
 * - Kysely: the printed `Database` compiles with a query of a plugin table, Sesame's tables have
 *   `@sesame/adapter-kysely`'s `SesameDatabase` types, and a wrong column fails to compile.
 * - Prisma: `prisma validate` (its bundled WebAssembly engine, offline) accepts the printed
 *   models with a datasource of each provider, and refuses them broken.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { pathToFileURL } from "node:url"
import DrizzleAdapter from "@sesame/adapter-drizzle"
import type { Adapter, ModelDeclaration } from "@sesame/core/adapters"
import Database from "better-sqlite3"
import { getTableName, is, type Table } from "drizzle-orm"
import { drizzle as drizzleSqlite } from "drizzle-orm/better-sqlite3"
import { MySqlTable, getTableConfig as mysqlConfig } from "drizzle-orm/mysql-core"
import { drizzle as drizzleMysql } from "drizzle-orm/mysql2"
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres"
import { PgTable, getTableConfig as pgConfig } from "drizzle-orm/pg-core"
import { getTableConfig as sqliteConfig } from "drizzle-orm/sqlite-core"
import ts from "typescript"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { testDatabase } from "../../adapter-mysql/test/database.js"
import { testSchema } from "../../adapter-pg/test/database.js"
import { prismaValidate } from "./prisma-validate.js"
import { sesame } from "./run.js"

const plugins = join(import.meta.dirname, "fixtures", "schema-plugins.mjs")
// The fixture's two models, to write and read their rows through the store.
const { note, notebook } = (await import(pathToFileURL(plugins).href)) as { note: ModelDeclaration; notebook: ModelDeclaration }
// Inside the package, so that the printed modules resolve drizzle-orm and kysely as an app's would.
const scratch = join(import.meta.dirname, ".scratch", `schema-formats-${crypto.randomUUID().slice(0, 8)}`)
const pgSchema = testSchema("cliformats")
const mysqlDatabase = testDatabase("cliformats")

beforeAll(async () => {
  mkdirSync(scratch, { recursive: true })
  await Promise.all([pgSchema.create(), mysqlDatabase.create()])
})
afterAll(async () => {
  rmSync(scratch, { recursive: true, force: true })
  await Promise.all([pgSchema.drop(), mysqlDatabase.drop()])
})

/** `sesame schema --format <format> --adapter <adapter> --plugin <fixture> …extra`'s output, which must succeed. */
async function printed(format: string, adapter: string, extra: string[] = []): Promise<string> {
  const result = await sesame(["schema", "--format", format, "--adapter", adapter, "--plugin", plugins, ...extra])
  expect(result).toMatchObject({ code: 0, stderr: "" })
  return result.stdout
}

/** Writes `files` to the scratch folder; the compiler's errors for them, one line each. */
function typeErrors(files: Record<string, string>): string[] {
  const paths = Object.entries(files).map(([name, text]) => {
    const path = join(scratch, name)
    writeFileSync(path, text)
    return path
  })
  const program = ts.createProgram(paths, {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    lib: ["lib.es2023.d.ts"],
    types: ["node"],
    strict: true,
    noUnusedLocals: true,
    noUncheckedIndexedAccess: true,
    verbatimModuleSyntax: true,
    skipLibCheck: true,
    noEmit: true,
  })
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const where = d.file ? `${d.file.fileName.slice(scratch.length + 1)}:${d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1}` : ""
    return `${where} ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`
  })
}

/** One column or index as both sides describe it, normalised to compare. */
interface Facts {
  columns: string[]
  indexes: string[]
  foreignKeys: string[]
}

interface DialectRun {
  adapter: "pg" | "mysql" | "sqlite"
  url: string
  /** The `--tables` of this run: SQLite's renames a table of Sesame's and a plugin's. */
  tables: string[]
  drizzle(): { db: Parameters<typeof DrizzleAdapter>[0]; close(): Promise<void> }
  /** What the server says of table `name`. */
  facts(name: string): Promise<Facts>
  /** The same from the printed Drizzle table. */
  config(table: Table): Facts
}

const sqliteFile = join(mkdtempSync(join(tmpdir(), "sesame-cli-formats-")), "auth.db")

const runs: DialectRun[] = [
  {
    adapter: "sqlite",
    url: sqliteFile,
    tables: ["--tables", "users=app_users,notebook=app_notebooks"],
    drizzle() {
      const file = new Database(sqliteFile)
      return { db: drizzleSqlite(file), close: async () => void file.close() }
    },
    async facts(name) {
      const db = new Database(sqliteFile, { readonly: true })
      try {
        const columns = db.prepare(`SELECT name, type, "notnull", pk FROM pragma_table_info(?)`).all(name) as { name: string; type: string; notnull: number; pk: number }[]
        // SQLite reports a primary key's columns as nullable unless declared NOT NULL; all of Sesame's are.
        const indexes = db.prepare(`SELECT name FROM pragma_index_list(?) WHERE origin = 'c'`).all(name) as { name: string }[]
        const fks = db.prepare(`SELECT "from", "table", "to", on_delete FROM pragma_foreign_key_list(?)`).all(name) as { from: string; table: string; to: string; on_delete: string }[]
        return {
          columns: columns.map((c) => `${c.name} ${c.type.toLowerCase()}${c.notnull || c.pk ? " not null" : ""}`).sort(),
          indexes: indexes.map((i) => i.name).sort(),
          foreignKeys: fks.map((f) => `${f.from}->${f.table}.${f.to} ${f.on_delete.toLowerCase()}`).sort(),
        }
      } finally {
        db.close()
      }
    },
    config(table) {
      const c = sqliteConfig(table as never)
      const pk = new Set(c.primaryKeys.flatMap((p) => p.columns.map((col) => col.name)))
      return {
        columns: c.columns.map((col) => `${col.name} ${col.getSQLType()}${col.notNull || pk.has(col.name) ? " not null" : ""}`).sort(),
        indexes: c.indexes.map((i) => i.config.name).sort(),
        foreignKeys: c.foreignKeys
          .map((f) => {
            const ref = f.reference()
            return `${ref.columns[0]!.name}->${getTableName(ref.foreignTable)}.${ref.foreignColumns[0]!.name} ${f.onDelete}`
          })
          .sort(),
      }
    },
  },
  {
    adapter: "pg",
    url: pgSchema.url,
    tables: [],
    drizzle() {
      const pool = pgSchema.pool()
      return { db: drizzlePg(pool), close: () => pool.end() }
    },
    async facts(name) {
      const pool = pgSchema.pool({ max: 1 })
      try {
        const columns = await pool.query(
          `SELECT column_name AS name, udt_name AS type, datetime_precision AS p, is_nullable AS n FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1`,
          [name],
        )
        const indexes = await pool.query(`SELECT indexname AS name FROM pg_indexes WHERE schemaname = current_schema() AND tablename = $1 AND indexname NOT LIKE '%\\_pkey'`, [name])
        const fks = await pool.query(
          `SELECT conname AS name, confdeltype AS d FROM pg_constraint WHERE contype = 'f' AND conrelid = (quote_ident(current_schema()) || '.' || quote_ident($1))::regclass`,
          [name],
        )
        return {
          columns: columns.rows.map((c) => `${c.name} ${c.type}${c.type === "timestamptz" ? `(${c.p})` : ""}${c.n === "NO" ? " not null" : ""}`).sort(),
          indexes: indexes.rows.map((i) => i.name as string).sort(),
          foreignKeys: fks.rows.map((f) => `${f.name} ${f.d === "c" ? "cascade" : "set null"}`).sort(),
        }
      } finally {
        await pool.end()
      }
    },
    config(table) {
      expect(is(table, PgTable)).toBe(true)
      const c = pgConfig(table as never)
      const pk = new Set(c.primaryKeys.flatMap((p) => p.columns.map((col) => col.name)))
      const type = (sql: string) =>
        ({ bigint: "int8", integer: "int4", boolean: "bool", text: "text", "timestamp (3) with time zone": "timestamptz(3)" })[sql] ?? sql
      return {
        columns: c.columns.map((col) => `${col.name} ${type(col.getSQLType())}${col.notNull || pk.has(col.name) ? " not null" : ""}`).sort(),
        indexes: [...c.indexes.map((i) => i.config.name!), ...c.uniqueConstraints.map((u) => u.name!)].sort(),
        foreignKeys: c.foreignKeys.map((f) => `${f.getName()} ${f.onDelete}`).sort(),
      }
    },
  },
  {
    adapter: "mysql",
    url: mysqlDatabase.url,
    tables: [],
    drizzle() {
      const pool = mysqlDatabase.pool()
      return { db: drizzleMysql(pool), close: () => pool.end() }
    },
    async facts(name) {
      const pool = mysqlDatabase.pool({ connectionLimit: 1 })
      try {
        const [columns] = await pool.query(
          `SELECT COLUMN_NAME AS name, COLUMN_TYPE AS type, CHARACTER_SET_NAME AS cs, IS_NULLABLE AS n FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ?`,
          [name],
        )
        const [indexes] = await pool.query(`SELECT DISTINCT INDEX_NAME AS name FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ? AND INDEX_NAME <> 'PRIMARY'`, [name])
        const [fks] = await pool.query(
          `SELECT CONSTRAINT_NAME AS name, DELETE_RULE AS d FROM information_schema.REFERENTIAL_CONSTRAINTS WHERE CONSTRAINT_SCHEMA = DATABASE() AND TABLE_NAME = ?`,
          [name],
        )
        // MariaDB shows integer display widths (bigint(20)); the type, not the width, is compared.
        const type = (t: string, cs: string | null) => `${t.replace(/^(bigint|int)\(\d+\)/, "$1")}${cs === "ascii" ? " ascii" : ""}`
        return {
          columns: (columns as { name: string; type: string; cs: string | null; n: string }[]).map((c) => `${c.name} ${type(c.type, c.cs)}${c.n === "NO" ? " not null" : ""}`).sort(),
          indexes: (indexes as { name: string }[]).map((i) => i.name).sort(),
          foreignKeys: (fks as { name: string; d: string }[]).map((f) => `${f.name} ${f.d.toLowerCase()}`).sort(),
        }
      } finally {
        await pool.end()
      }
    },
    config(table) {
      expect(is(table, MySqlTable)).toBe(true)
      const c = mysqlConfig(table as never)
      const pk = new Set(c.primaryKeys.flatMap((p) => p.columns.map((col) => col.name)))
      const type = (sql: string) => (sql === "boolean" ? "tinyint(1)" : sql.replace(/ CHARACTER SET ascii COLLATE ascii_bin$/, " ascii"))
      return {
        columns: c.columns.map((col) => `${col.name} ${type(col.getSQLType())}${col.notNull || pk.has(col.name) ? " not null" : ""}`).sort(),
        indexes: c.indexes.map((i) => i.config.name).sort(),
        foreignKeys: c.foreignKeys.map((f) => `${f.getName()} ${f.onDelete}`).sort(),
      }
    },
  },
]

describe.each(runs)("--format drizzle --adapter $adapter", (run) => {
  let module: Record<string, unknown>
  let text: string

  beforeAll(async () => {
    const migrated = await sesame(["migrate", "--adapter", run.adapter, "--url", run.url, "--plugin", plugins, ...run.tables])
    expect(migrated).toMatchObject({ code: 0, stderr: "" })
    text = await printed("drizzle", run.adapter, run.tables)
    const file = join(scratch, `drizzle-${run.adapter}.ts`)
    writeFileSync(file, text)
    module = (await import(file)) as Record<string, unknown>
  })

  it("has every table migrate made, with the same columns, types, nullability, indexes and foreign keys", async () => {
    const tables = module.sesameTables as Record<string, Table>
    expect(Object.keys(tables)).toEqual([
      "users",
      "accounts",
      "sessions",
      "verificationTokens",
      "authenticators",
      "passwords",
      "counters",
      "twoFactors",
      "recoveryCodes",
      "signingKeys",
      "auditSignIn",
      "notebook",
      "note",
    ])
    for (const [key, table] of Object.entries(tables)) {
      // Every entry is the module's Drizzle table of that name, plugin models' too.
      expect(table, key).toBe(module[key])
      const name = getTableName(table)
      const facts = await run.facts(name)
      expect(facts.columns.length, name).toBeGreaterThan(0)
      expect(run.config(table), name).toEqual(facts)
    }
    if (run.adapter === "sqlite") {
      expect(getTableName(module.users as Table)).toBe("app_users")
      expect(getTableName(tables.notebook!)).toBe("app_notebooks")
    }
  })

  it("type-checks", () => {
    expect(typeErrors({ [`drizzle-${run.adapter}-check.ts`]: text })).toEqual([])
  })

  it("works with the Drizzle adapter: users, accounts and the plugins' rows, read and written by both", async () => {
    const { db, close } = run.drizzle()
    try {
      const adapter: Adapter = DrizzleAdapter(db, { tables: module.sesameTables as Record<string, Table> })
      const user = await adapter.createUser!({ id: crypto.randomUUID(), email: `ada-${run.adapter}@example.com`, emailVerified: new Date(1_700_000_000_123) })
      await adapter.linkAccount!({ userId: user.id, type: "oauth", provider: "github", providerAccountId: "ada", expires_at: 1_700_000_000 })
      expect(await adapter.getUserByAccount!({ provider: "github", providerAccountId: "ada" })).toMatchObject({ id: user.id, emailVerified: new Date(1_700_000_000_123) })

      // Written by the store, read by Drizzle through the printed table.
      const store = adapter.store!
      await store.create(notebook, { id: 7, ownerId: user.id, title: "Ideas", settings: { theme: "dark", sizes: [1, 2] } })
      const d = db as unknown as { select(): { from(t: unknown): Promise<Record<string, unknown>[]> }; insert(t: unknown): { values(v: object): Promise<unknown> } }
      const [book] = await d.select().from(module.notebook)
      expect(book).toEqual({ id: 7, ownerId: user.id, title: "Ideas", pinned: false, settings: { theme: "dark", sizes: [1, 2] } })

      // Written by Drizzle through the printed table (defaults left to the database), read by the store.
      const expiresAt = new Date(Date.now() + 3_600_000)
      await d.insert(module.note).values({ notebookId: 7, slug: "first", body: "Hello", editorId: user.id, createdAt: new Date(1_700_000_000_456), expiresAt })
      expect(await store.findOne(note, { notebookId: 7, slug: "first" })).toEqual({
        notebookId: 7,
        slug: "first",
        body: "Hello",
        editorId: user.id,
        views: 0,
        label: "draft",
        publishedAt: new Date("2020-01-02T03:04:05.678Z"),
        createdAt: new Date(1_700_000_000_456),
        expiresAt,
      })
      await store.increment(note, { notebookId: 7, slug: "first" }, "views", { create: { notebookId: 7, slug: "first", body: "-", createdAt: new Date(), expiresAt } })
      const [row] = await d.select().from(module.note)
      expect(row).toMatchObject({ views: 1, publishedAt: new Date("2020-01-02T03:04:05.678Z"), createdAt: new Date(1_700_000_000_456) })

      // The foreign keys are the printed ones: deleting the user takes its notebook and its notes.
      await adapter.deleteUser!(user.id)
      expect(await store.count(notebook)).toBe(0)
      expect(await d.select().from(module.note)).toEqual([])
    } finally {
      await close()
    }
  })
})

describe("--format kysely", () => {
  for (const [adapter, dialect] of [
    ["pg", "postgres"],
    ["mysql", "mysql"],
    ["sqlite", "sqlite"],
  ] as const) {
    it(`--adapter ${adapter}: compiles with a query of a plugin table, and has SesameDatabase's types`, async () => {
      const text = await printed("kysely", adapter)
      expect(text).toMatch(/^export interface Database \{$/m)
      const usage = [
        `import { Kysely, type Selectable, type Insertable } from "kysely"`,
        `import type { SesameDatabase } from "@sesame/adapter-kysely"`,
        `import type { Database } from "./kysely-${adapter}.js"`,
        `type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false`,
        `const same: { [K in keyof SesameDatabase<"${dialect}">]: Equal<Selectable<Database[K]>, SesameDatabase<"${dialect}">[K]> } = {`,
        `  sesame_users: true, sesame_accounts: true, sesame_sessions: true, sesame_verificationTokens: true, sesame_authenticators: true,`,
        `  sesame_passwords: true, sesame_counters: true, sesame_two_factors: true, sesame_recovery_codes: true, sesame_signing_keys: true,`,
        `}`,
        `export const checked = same`,
        `export async function titles(db: Kysely<Database>): Promise<string[]> {`,
        `  const rows = await db.selectFrom("fixture_notebooks").select(["title", "owner_id"]).where("pinned", "=", ${adapter === "pg" ? "true" : "1"}).execute()`,
        `  return rows.map((r) => r.title.toUpperCase() + r.owner_id.toUpperCase())`,
        `}`,
        // Defaults may be left out of an insert, nullable columns too; the rest may not.
        `export const minimal: Insertable<Database["fixture_notes"]> = { notebookId: ${adapter === "pg" ? `"1"` : "1"}, slug: "s", body: "b", createdAt: ${adapter === "sqlite" ? "0" : "new Date()"}, expiresAt: ${adapter === "sqlite" ? "0" : "new Date()"} }`,
        "",
      ].join("\n")
      expect(typeErrors({ [`kysely-${adapter}.ts`]: text, [`kysely-${adapter}-use.ts`]: usage })).toEqual([])
      // The check can fail: a column the table does not have, and a wrong type.
      const wrong = usage.replace(`"owner_id"]`, `"ownerId"]`)
      expect(typeErrors({ [`kysely-${adapter}-use.ts`]: wrong }).join("\n")).toMatch(/ownerId/)
      const mistyped = text.replace(/( {2}title: )string/, "$1number")
      expect(typeErrors({ [`kysely-${adapter}.ts`]: mistyped, [`kysely-${adapter}-use.ts`]: usage }).length).toBeGreaterThan(0)
    })
  }
})

describe("--format prisma", () => {
  for (const [adapter, provider] of [
    ["pg", "postgresql"],
    ["mysql", "mysql"],
    ["sqlite", "sqlite"],
  ] as const) {
    it(`--adapter ${adapter}: prisma validate accepts the models with a ${provider} datasource`, async () => {
      const text = await printed("prisma", adapter, ["--tables", "users=app_users,notebook=app_notebooks"])
      const datasource = `datasource db {\n  provider = "${provider}"\n  url      = "${provider === "sqlite" ? "file:./dev.db" : `${provider}://u@localhost/db`}"\n}\n\n`
      const valid = await prismaValidate(datasource + text, scratch)
      expect(valid.output).toMatch(/is valid/)
      expect(valid.code).toBe(0)
      // Mapped onto the exact tables and columns, with relations for the foreign keys.
      expect(text).toMatch(/model SesameUser \{[^}]*@@map\("app_users"\)/)
      expect(text).toMatch(/model Notebook \{[^}]*ownerId +String[^\n]*@map\("owner_id"\)[^}]*@@map\("app_notebooks"\)/)
      expect(text).toMatch(/owner +SesameUser +@relation\("Notebook_ownerId", fields: \[ownerId\], references: \[id\], onDelete: Cascade/)
      expect(text).toMatch(/editor +SesameUser\? +@relation\("Note_editorId", fields: \[editorId\], references: \[id\], onDelete: SetNull/)
      expect(text).toMatch(/@@id\(\[notebookId, slug\]/)
      // The check can fail: a relation to a model that is not there.
      const broken = await prismaValidate(datasource + text.replace("owner SesameUser @relation", "owner NoSuchModel @relation"), scratch)
      expect(broken.code).not.toBe(0)
      expect(broken.output).toMatch(/NoSuchModel/)
    })
  }
})

describe("errors", () => {
  it("an unknown --format is a one-line usage error, exit code 2", async () => {
    const result = await sesame(["schema", "--format", "sequelize", "--adapter", "pg"])
    expect(result).toMatchObject({ code: 2, stdout: "" })
    expect(result.stderr).toBe(`sesame: Unknown format "sequelize": use sql, drizzle, kysely or prisma.\n`)
  })

  it("--format sql is the default", async () => {
    const plain = await sesame(["schema", "--adapter", "sqlite"])
    const sql = await sesame(["schema", "--adapter", "sqlite", "--format", "sql"])
    expect(sql).toEqual(plain)
    expect(sql.stdout).toMatch(/CREATE TABLE "sesame_users"/)
  })

  it("output is the same every run", async () => {
    expect(await printed("drizzle", "mysql")).toBe(await printed("drizzle", "mysql"))
  })
})
