/**
 * `sesame migrate --plugin <configuration>` and `sesame schema --plugin <configuration>` with the
 * app's user fields (`user.fields`), against the real servers: the declared columns added to a
 * users table that already has rows (which then read the defaults), a second run that changes
 * nothing, the printed SQL making the same users table on an empty database, and the ORM formats
 * describing the columns. The configuration is a module of its own, as an app's `auth.config.js`.
 */
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import Database from "better-sqlite3"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { testDatabase } from "../../adapter-mysql/test/database.js"
import { testSchema } from "../../adapter-pg/test/database.js"
import { prismaValidate } from "./prisma-validate.js"
import { sesame } from "./run.js"

const config = join(import.meta.dirname, "fixtures", "auth.config.mjs")
const scratch = mkdtempSync(join(tmpdir(), "sesame-cli-user-fields-"))

/** A database to run SQL on: `exec` runs a script of statements, `rows` one SELECT. */
interface Connection {
  exec(sql: string): Promise<void>
  rows(sql: string): Promise<Record<string, unknown>[]>
}

interface Server {
  adapter: "pg" | "mysql" | "sqlite"
  provider: string
  /** `--tables`: MySQL's renames the users table, which the user fields follow. */
  tables: string[]
  usersTable: string
  /** A database for `migrate`, and an empty one for the printed SQL. */
  migrated: { url: string; connection(): Connection }
  empty: { connection(): Connection }
  /** Quotes an identifier. */
  q(name: string): string
}

const pgMigrated = testSchema("cliuserfields")
const pgEmpty = testSchema("cliuserfieldsempty")
const mysqlMigrated = testDatabase("cliuserfields")
const mysqlEmpty = testDatabase("cliuserfieldsempty")
const sqliteMigrated = join(scratch, "migrated.db")
const sqliteEmpty = join(scratch, "empty.db")

beforeAll(async () => {
  await Promise.all([pgMigrated.create(), pgEmpty.create(), mysqlMigrated.create(), mysqlEmpty.create()])
})
afterAll(async () => {
  await Promise.all([pgMigrated.drop(), pgEmpty.drop(), mysqlMigrated.drop(), mysqlEmpty.drop()])
})

const pgConnection = (schema: typeof pgMigrated) => (): Connection => {
  const pool = schema.pool({ max: 1 })
  return {
    exec: async (sql) => void (await pool.query(sql)),
    rows: async (sql) => (await pool.query(sql)).rows as Record<string, unknown>[],
  }
}
const mysqlConnection = (database: typeof mysqlMigrated) => (): Connection => {
  const pool = database.pool({ connectionLimit: 1, multipleStatements: true })
  return {
    exec: async (sql) => void (await pool.query(sql)),
    rows: async (sql) => (await pool.query(sql))[0] as Record<string, unknown>[],
  }
}
const sqliteConnection = (file: string) => (): Connection => ({
  async exec(sql) {
    const db = new Database(file)
    try {
      db.exec(sql)
    } finally {
      db.close()
    }
  },
  async rows(sql) {
    const db = new Database(file)
    try {
      return db.prepare(sql).all() as Record<string, unknown>[]
    } finally {
      db.close()
    }
  },
})

const servers: Server[] = [
  {
    adapter: "pg",
    provider: "postgresql",
    tables: [],
    usersTable: "sesame_users",
    migrated: { url: pgMigrated.url, connection: pgConnection(pgMigrated) },
    empty: { connection: pgConnection(pgEmpty) },
    q: (name) => `"${name}"`,
  },
  {
    adapter: "mysql",
    provider: "mysql",
    tables: ["--tables", "users=app_users"],
    usersTable: "app_users",
    migrated: { url: mysqlMigrated.url, connection: mysqlConnection(mysqlMigrated) },
    empty: { connection: mysqlConnection(mysqlEmpty) },
    q: (name) => `\`${name}\``,
  },
  {
    adapter: "sqlite",
    provider: "sqlite",
    tables: [],
    usersTable: "sesame_users",
    migrated: { url: sqliteMigrated, connection: sqliteConnection(sqliteMigrated) },
    empty: { connection: sqliteConnection(sqliteEmpty) },
    q: (name) => `"${name}"`,
  },
]

/** The user fields of user `id`, as the fixture's defaults leave them (flags and integers as each driver returns them). */
async function expectDefaults(server: Server, connection: Connection, id: string) {
  const { q } = server
  const [row] = await connection.rows(
    `SELECT ${["role", "credits", "beta", "joinedAt", "settings", "locale", "nick_name", "bio"].map(q).join(", ")} FROM ${q(server.usersTable)} WHERE id = '${id}'`,
  )
  expect(row).toBeDefined()
  expect({ ...row, credits: Number(row!.credits), beta: Boolean(Number(row!.beta)), joinedAt: row!.joinedAt !== null, settings: JSON.parse(row!.settings as string) }).toEqual({
    role: "member",
    credits: 0,
    beta: false,
    joinedAt: true,
    settings: { theme: "light" },
    locale: null,
    nick_name: null,
    bio: null,
  })
}

/** `sesame <command> --adapter … --plugin <config> …`, which must succeed; its output. */
async function succeeds(server: Server, args: string[]): Promise<string> {
  const result = await sesame([...args, "--adapter", server.adapter, "--plugin", config, ...server.tables])
  expect(result).toMatchObject({ code: 0, stderr: "" })
  return result.stdout
}

describe.each(servers)("user fields, --adapter $adapter", (server) => {
  it("migrate adds the declared columns to a users table with rows, which read the defaults; a second run has nothing to do", async () => {
    const first = await sesame(["migrate", "--adapter", server.adapter, "--url", server.migrated.url, ...server.tables])
    expect(first).toMatchObject({ code: 0, stderr: "" })
    const connection = server.migrated.connection()
    const { q } = server
    await connection.exec(`INSERT INTO ${q(server.usersTable)} (id, email) VALUES ('u1', 'ada@example.com')`)
    await connection.exec(`INSERT INTO ${q(server.usersTable)} (id, email) VALUES ('u2', 'grace@example.com')`)

    const added = await succeeds(server, ["migrate", "--url", server.migrated.url])
    expect(added).toMatch(new RegExp(`^Added the user fields' columns or indexes to the users table ${server.usersTable}\\.\\n.* is now at version 4, with the user fields\\.\\n$`))
    await expectDefaults(server, connection, "u1")
    await expectDefaults(server, connection, "u2")
    // The unique field's index is there: two users may not share a nickname.
    await connection.exec(`UPDATE ${q(server.usersTable)} SET ${q("nick_name")} = 'ada' WHERE id = 'u1'`)
    await expect(connection.exec(`UPDATE ${q(server.usersTable)} SET ${q("nick_name")} = 'ada' WHERE id = 'u2'`)).rejects.toThrow()

    const again = await succeeds(server, ["migrate", "--url", server.migrated.url])
    expect(again).toMatch(/^Nothing to do: .* already at version 4, with the user fields\.\n$/)
  })

  it("schema --format sql, run on an empty database, makes the users table with the declared columns", async () => {
    const sql = await succeeds(server, ["schema", "--format", "sql"])
    expect(sql).toContain(`ALTER TABLE ${server.q(server.usersTable)} ADD COLUMN ${server.q("role")}`)
    const connection = server.empty.connection()
    await connection.exec(sql)
    await connection.exec(`INSERT INTO ${server.q(server.usersTable)} (id, email) VALUES ('u1', 'ada@example.com')`)
    await expectDefaults(server, connection, "u1")
  })

  it("schema --format drizzle, kysely and prisma describe the declared columns", async () => {
    const users = server.usersTable
    const drizzle = await succeeds(server, ["schema", "--format", "drizzle"])
    const table = /export const users = \w+\([^\n]*\n[\s\S]*?\n\]\)/.exec(drizzle)?.[0] ?? ""
    expect(table).toMatch(/ role: \w+\("role"[^\n]*\.notNull\(\)\.default\("member"\),/)
    expect(table).toMatch(/ nickname: \w+\("nick_name"[^\n]*\),/)
    expect(table).toMatch(/ settings: [^\n]*\.notNull\(\)\.default\(\{"theme":"light"\}\),/)
    expect(table).toContain(`uniqueIndex("${users}_nick_name_key").on(t.nickname)`)
    expect(table).toContain(`index("${users}_role_idx").on(t.role)`)

    const kysely = await succeeds(server, ["schema", "--format", "kysely"])
    const usersInterface = /export interface SesameUsersTable \{[^}]*\}/.exec(kysely)?.[0] ?? ""
    expect(usersInterface).toContain("  role: Generated<string>")
    expect(usersInterface).toContain("  nick_name: string | null")
    expect(usersInterface).toMatch(/ {2}credits: Generated<(number|string)>/)

    const prisma = await succeeds(server, ["schema", "--format", "prisma"])
    const datasource = `datasource db {\n  provider = "${server.provider}"\n  url      = "${server.provider === "sqlite" ? "file:./dev.db" : `${server.provider}://u@localhost/db`}"\n}\n\n`
    const valid = await prismaValidate(datasource + prisma, scratch)
    expect(valid.output).toMatch(/is valid/)
    expect(valid.code).toBe(0)
    const model = /model SesameUser \{[\s\S]*?\n\}/.exec(prisma)?.[0] ?? ""
    expect(model).toMatch(/ role +String +@default\("member"\)/)
    expect(model).toMatch(/ nickname +String\? +@map\("nick_name"\)/)
    expect(model).toContain(`@@unique([nickname], map: "${users}_nick_name_key")`)
    expect(model).toContain(`@@map("${users}")`)
  })
})

describe("user fields: usage errors", () => {
  it("refuses two configurations that declare user fields", async () => {
    const result = await sesame(["schema", "--adapter", "pg", "--plugin", config, "--plugin", config])
    expect(result).toMatchObject({ code: 2, stdout: "" })
    expect(result.stderr).toMatch(/^sesame: --plugin .* and --plugin .* both declare `user\.fields`: give the app's one configuration\.\n$/)
  })

  it("refuses a required field without a default, saying which and why, before touching the database", async () => {
    const bad = join(import.meta.dirname, "fixtures", "required-without-default.config.mjs")
    const file = join(scratch, "never.db")
    for (const args of [
      ["migrate", "--adapter", "sqlite", "--url", file],
      ["schema", "--adapter", "mysql"],
    ]) {
      const result = await sesame([...args, "--plugin", bad])
      expect(result).toMatchObject({ code: 2, stdout: "" })
      expect(result.stderr).toBe(
        `sesame: --plugin ${bad}: \`user.fields.plan\`: a required field needs a \`default\`: email, passkey and provider sign-ins create users without it. Give it one, or make it optional.\n`,
      )
    }
    expect(await sesame(["migrate", "--adapter", "sqlite", "--url", file, "--plugin", bad])).toMatchObject({ code: 2 })
  })
})
