/**
 * The schema of @auth/kysely-adapter: the migration its documentation gives ("Schema", the file
 * `db/migrations/001_create_db.ts` on https://authjs.dev/getting-started/adapters/kysely, in
 * nextauthjs/next-auth docs/pages/getting-started/adapters/kysely.mdx), which is written for
 * PostgreSQL. For MySQL/MariaDB and SQLite its types are translated the way the adapter's own test
 * suite does (nextauthjs/next-auth packages/adapter-kysely/tests/index.test.ts, `createDatabase`):
 *
 * - MySQL/MariaDB: uuid ids as `varchar(36)` defaulting to `UUID()`, dates as `DATETIME(3)`,
 *   indexed text as `varchar(255)`, foreign keys as table constraints. The token columns stay
 *   `text` as the docs have them: an ID token does not fit in the suite's `varchar(255)`.
 * - SQLite: the adapter stores dates as ISO strings and makes user ids itself (`randomUUID`), so
 *   user ids are `text`; accounts and sessions, which it gives no id, number theirs.
 *
 * Table and column names are the docs' (`User`, `Account`, `Session`, `VerificationToken`,
 * camelCase columns).
 */
import { sql, type Kysely } from "kysely"

export type KyselyDialectName = "postgres" | "mysql" | "sqlite"

/** Runs the migration on `db` (`Kysely<any>` in the docs: the schema builder reads no table types). */
export async function createKyselySchema(db: Kysely<object>, dialect: KyselyDialectName): Promise<void> {
  const text = dialect === "mysql" ? sql`varchar(255)` : sql`text`
  const longText = sql`text`
  const date = dialect === "mysql" ? sql`datetime(3)` : dialect === "sqlite" ? sql`text` : sql`timestamptz`
  const uuid = dialect === "mysql" ? sql`varchar(36)` : dialect === "sqlite" ? sql`text` : sql`uuid`

  function withId(table: string, kind: "user" | "row") {
    const builder = db.schema.createTable(table)
    if (dialect === "postgres") return builder.addColumn("id", "uuid", (col) => col.primaryKey().defaultTo(sql`gen_random_uuid()`))
    if (dialect === "mysql") return builder.addColumn("id", "varchar(36)", (col) => col.primaryKey().defaultTo(sql`(UUID())`))
    return kind === "user" ? builder.addColumn("id", "text", (col) => col.primaryKey()) : builder.addColumn("id", "integer", (col) => col.primaryKey().autoIncrement())
  }

  await withId("User", "user")
    .addColumn("name", text)
    .addColumn("email", text, (col) => col.unique().notNull())
    .addColumn("emailVerified", date)
    .addColumn("image", longText)
    .execute()

  let account = withId("Account", "row")
    .addColumn("userId", uuid, (col) => (dialect === "mysql" ? col.notNull() : col.references("User.id").onDelete("cascade").notNull()))
    .addColumn("type", text, (col) => col.notNull())
    .addColumn("provider", text, (col) => col.notNull())
    .addColumn("providerAccountId", text, (col) => col.notNull())
    .addColumn("refresh_token", longText)
    .addColumn("access_token", longText)
    .addColumn("expires_at", "bigint")
    .addColumn("token_type", text)
    .addColumn("scope", text)
    .addColumn("id_token", longText)
    .addColumn("session_state", text)
  if (dialect === "mysql") account = account.addForeignKeyConstraint("Account_userId_fk", ["userId"], "User", ["id"], (fk) => fk.onDelete("cascade"))
  await account.execute()

  let session = withId("Session", "row")
    .addColumn("userId", uuid, (col) => (dialect === "mysql" ? col.notNull() : col.references("User.id").onDelete("cascade").notNull()))
    .addColumn("sessionToken", text, (col) => col.notNull().unique())
    .addColumn("expires", date, (col) => col.notNull())
  if (dialect === "mysql") session = session.addForeignKeyConstraint("Session_userId_fk", ["userId"], "User", ["id"], (fk) => fk.onDelete("cascade"))
  await session.execute()

  await db.schema
    .createTable("VerificationToken")
    .addColumn("identifier", text, (col) => col.notNull())
    .addColumn("token", text, (col) => col.notNull().unique())
    .addColumn("expires", date, (col) => col.notNull())
    .execute()

  await db.schema.createIndex("Account_userId_index").on("Account").column("userId").execute()
  await db.schema.createIndex("Session_userId_index").on("Session").column("userId").execute()
}
