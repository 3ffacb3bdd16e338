/**
 * `sesame migrate --from authjs --check` on Auth.js databases filled directly with rows as Auth.js
 * leaves them: on PostgreSQL (`@auth/pg-adapter`'s tables), MariaDB (`@auth/drizzle-adapter`'s) and
 * SQLite (`@auth/kysely-adapter`'s and Drizzle's): the counts it prints, its exit codes, and that
 * it wrote nothing (every row and table the same afterwards; the connection itself refuses writes).
 */
import { createHash } from "node:crypto"
import { mkdtempSync, readdirSync, readFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import Database from "better-sqlite3"
import type mysql from "mysql2/promise"
import type pg from "pg"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { foldEmail as coreFoldEmail } from "../../core/src/email/normalize.js"
import { testDatabase } from "../../adapter-mysql/test/database.js"
import { testSchema } from "../../adapter-pg/test/database.js"
import { foldEmail } from "../src/authjs/findings.js"
import { dialects } from "../src/dialects.js"
import { collidingUsers, dataset, fillMysql, fillPg, fillSqlite } from "./authjs-database.js"
import { sesame, type Run } from "./run.js"

const pgSchemas = { main: testSchema("authjs"), collide: testSchema("authjs_collide"), renamed: testSchema("authjs_renamed"), two: testSchema("authjs_two") }
const mysqlDatabase = testDatabase("authjs")

beforeAll(async () => {
  await Promise.all([...Object.values(pgSchemas).map((s) => s.create()), mysqlDatabase.create()])
})
afterAll(async () => {
  await Promise.all([...Object.values(pgSchemas).map((s) => s.drop()), mysqlDatabase.drop()])
})

const check = (adapter: string, url: string, ...more: string[]) => sesame(["migrate", "--from", "authjs", "--check", "--adapter", adapter, "--url", url, ...more])

/** What the check prints for {@link dataset} after its first line (which names the tables and the server). */
const expectedBody = (passkeys?: string) =>
  `
Users: 7.
- 2 users sign in with a provider and have addresses Auth.js never verified (emailVerified is null, as Auth.js stores every OAuth user): Sesame treats them as Auth.js did, keeps their provider accounts, and marks the address verified the first time they follow an email link.
- 1 user signs in with a provider and has a verified address.
- 1 user has a passkey and no provider account.
- 1 user has only a verified address (they signed in by email link): they need an email provider in Sesame's configuration.
- 1 user has only an address that was never verified: an email link signs them in and marks it verified.
- 1 user has no way in that Sesame knows of (no provider account, no passkey, no address): only a Credentials provider of the app's own can sign them in.
1 user has no address: Sesame's own tables require one, so keep Auth.js's adapter while that user exists.

Provider accounts: 5, under 3 provider ids. Sesame finds an account by its provider id: configure each of these under the same id (an id that changes, or a provider left out, takes that way in from its users).
- github: 2 accounts of 2 users (oauth)
- google: 2 accounts of 2 users (oidc)
- passkey: 1 account of 1 user (webauthn)
${passkeys ? `${passkeys}\n` : ""}
Database sessions: 5 live, 1 expired (ignored).
- 3 sessions of Auth.js v5 (UUID tokens) carry over with migrateFrom: "authjs": found on first use and re-keyed to Sesame's hash, their users stay signed in.
- 1 session with tokens of the app's own generateSessionToken carries over with migrateFrom: "authjs" as Auth.js v5's do.
- 1 session whose token is 64 hex digits (Auth.js v4's, or the app's own generateSessionToken) does not carry over: such a token cannot be told apart from a hash Sesame stores, so it is never looked up as it is. Its user signs in again.
- Without migrateFrom: "authjs", all 5 end and their users sign in again.
JWT sessions are in the browsers' cookies, not here: with migrateFrom: "authjs" and the same AUTH_SECRET, Sesame reads Auth.js's session cookies and re-issues them as its own.

Email links: 2 still valid, 1 expired. With migrateFrom: "authjs" and the same AUTH_SECRET, the links Auth.js sent keep working until they expire; without it they fail, and their users ask for new ones.

Addresses: no two users share an address once Sesame normalises it (Unicode NFKC, trimmed, lower case).

Before the switch:
1. Keep AUTH_SECRET (and AUTH_SECRET_1…3) as they are: Auth.js's session cookies and email links are sealed with them.
2. Set migrateFrom: "authjs" in Sesame's configuration, and keep the session strategy Auth.js had, or everyone signed in signs in again.
3. Configure the providers github, google, passkey under these same ids.
4. Configure an email provider: 2 users have no other way in.
5. Keep a Credentials provider that knows the 1 user with no way in Sesame knows of.

Nothing blocks the switch.
`

/** Every row of every table of a PostgreSQL schema, and the tables themselves. */
async function pgContents(pool: pg.Pool): Promise<string> {
  const { rows: tables } = await pool.query<{ name: string }>(`SELECT tablename AS name FROM pg_tables WHERE schemaname = current_schema() ORDER BY 1`)
  const dump: Record<string, unknown> = {}
  for (const { name } of tables) dump[name] = (await pool.query(`SELECT * FROM "${name}" ORDER BY 1, 2`)).rows
  return JSON.stringify(dump)
}

async function mysqlContents(pool: mysql.Pool): Promise<string> {
  const [tables] = await pool.query<mysql.RowDataPacket[]>("SELECT TABLE_NAME AS name FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() ORDER BY 1")
  const dump: Record<string, unknown> = {}
  for (const { name } of tables) dump[name as string] = (await pool.query(`SELECT * FROM \`${name as string}\` ORDER BY 1, 2`))[0]
  return JSON.stringify(dump)
}

/** The bytes of every file in `dir` (a SQLite database and whatever journal it might leave). */
function folderContents(dir: string): string {
  return JSON.stringify(readdirSync(dir).map((f) => [f, createHash("sha256").update(readFileSync(join(dir, f))).digest("hex")]))
}

function passed(result: Run) {
  expect(result.stderr).toBe("")
  expect(result.code).toBe(0)
}

describe("sesame migrate --from authjs --check", () => {
  it("PostgreSQL with @auth/pg-adapter's tables: the counts, exit 0, nothing written", async () => {
    const pool = pgSchemas.main.pool()
    await fillPg(pool, dataset)
    const before = await pgContents(pool)
    const result = await check("pg", pgSchemas.main.url)
    passed(result)
    expect(result.stdout).toBe(
      `Read the Auth.js tables users, accounts, sessions, verification_token (the names of @auth/pg-adapter) of the PostgreSQL database at 127.0.0.1:5432/test; nothing was written.\n${expectedBody()}`,
    )
    expect(await pgContents(pool)).toBe(before)
  })

  it("MariaDB with @auth/drizzle-adapter's tables", async () => {
    const pool = mysqlDatabase.pool()
    await fillMysql(pool, dataset)
    const before = await mysqlContents(pool)
    const result = await check("mysql", mysqlDatabase.url)
    passed(result)
    expect(result.stdout).toBe(
      `Read the Auth.js tables user, account, session, verificationToken, authenticator (the names of @auth/drizzle-adapter) of the MySQL database at 127.0.0.1:3306/${mysqlDatabase.name}; nothing was written.\n${expectedBody("Passkeys: 1 in authenticator.")}`,
    )
    expect(await mysqlContents(pool)).toBe(before)
  })

  it("SQLite with @auth/kysely-adapter's models (ISO dates) and with Drizzle's tables (dates in milliseconds)", async () => {
    for (const layout of ["kysely", "drizzle"] as const) {
      const dir = mkdtempSync(join(tmpdir(), "sesame-authjs-"))
      const file = join(dir, "auth.db")
      const db = new Database(file)
      fillSqlite(db, layout, dataset)
      db.close()
      const before = folderContents(dir)
      const result = await check("sqlite", file)
      passed(result)
      const [tables, by] =
        layout === "kysely"
          ? ["User, Account, Session, VerificationToken, Authenticator", "@auth/kysely-adapter or @auth/prisma-adapter"]
          : ["user, account, session, verificationToken, authenticator", "@auth/drizzle-adapter"]
      const authenticators = layout === "kysely" ? "Authenticator" : "authenticator"
      expect(result.stdout).toBe(
        `Read the Auth.js tables ${tables} (the names of ${by}) of the SQLite database at ${file}; nothing was written.\n${expectedBody(`Passkeys: 1 in ${authenticators}.`)}`,
      )
      expect(folderContents(dir)).toBe(before)
    }
  })

  it("addresses that collide once normalised block the switch: exit 1, the groups listed, the reason on stderr", async () => {
    const pool = pgSchemas.collide.pool()
    await fillPg(pool, dataset, collidingUsers)
    const before = await pgContents(pool)
    const dir = mkdtempSync(join(tmpdir(), "sesame-authjs-"))
    const db = new Database(join(dir, "auth.db"))
    fillSqlite(db, "kysely", dataset, collidingUsers)
    db.close()
    const runs = { pg: await check("pg", pgSchemas.collide.url), sqlite: await check("sqlite", join(dir, "auth.db")) }
    for (const [name, result] of Object.entries(runs)) {
      const id = (n: number) => (name === "pg" ? `${n}` : `user-${n}`)
      expect(result.code).toBe(1)
      expect(result.stderr).toBe("sesame: the switch from Auth.js is blocked: 4 users share an address with another once addresses are normalised.\n")
      expect(result.stdout).toContain(
        [
          "Addresses: 4 users share an address with another once Sesame normalises it (Unicode NFKC, trimmed, lower case), in 2 groups:",
          `- ada@example.com: user ${id(1)} (ada@example.com), user ${id(8)} (Ada@Example.com)`,
          `- eve@example.com: user ${id(5)} (eve@example.com), user ${id(9)} (ｅｖｅ@example.com)`,
          "Sesame sees one mailbox in each group: an email link reaches only the user whose address is stored exactly as normalised (or none of them), and the others lose that way in.",
          "1 address is stored otherwise than Sesame normalises it (and collides with no other): Sesame looks users up by the normalised address, so where text compares exactly it never finds that user by address, and an email link makes a new user.",
          "",
          "Before the switch:",
          "1. Merge each group of users above into one (move the accounts and sessions to the user kept, delete the others), or give them different addresses.",
        ].join("\n"),
      )
      expect(result.stdout).toContain("7. Rewrite the 1 address stored otherwise than normalised to the normalised form.\n")
      expect(result.stdout).toMatch(/\nThe switch is blocked: 4 users share an address with another once addresses are normalised \(step 1\)\.\n$/)
      expect(result.stdout).toContain("Users: 10.\n")
    }
    expect(await pgContents(pool)).toBe(before)
  })

  it("tables under other names, given with --tables; several candidate layouts; no Auth.js tables; a table that is not Auth.js's", async () => {
    const pool = pgSchemas.renamed.pool()
    await fillPg(pool, dataset)
    await pool.query(`ALTER TABLE users RENAME TO app_users; ALTER TABLE accounts RENAME TO app_accounts; ALTER TABLE sessions RENAME TO app_sessions`)
    const renamed = await check("pg", pgSchemas.renamed.url, "--tables", "users=app_users,accounts=app_accounts,sessions=app_sessions")
    passed(renamed)
    expect(renamed.stdout).toMatch(/^Read the Auth.js tables app_users, app_accounts, app_sessions of the PostgreSQL database at 127\.0\.0\.1:5432\/test; nothing was written\.\n/)
    expect(renamed.stdout).toContain("Database sessions: 5 live, 1 expired (ignored).")
    expect(renamed.stdout).toContain("Email links: no verification token table (no email provider).")

    const none = await check("pg", pgSchemas.renamed.url)
    expect(none.code).toBe(1)
    expect(none.stdout).toBe("")
    expect(none.stderr).toMatch(/^sesame: No Auth.js tables here: none of users, User, user exists\. Check --url .*\n$/)

    const missing = await check("pg", pgSchemas.renamed.url, "--tables", "users=app_users,accounts=accounts")
    expect(missing.code).toBe(1)
    expect(missing.stderr).toMatch(/^sesame: No table accounts \(Auth.js's accounts\) in this database/)

    const wrong = await check("pg", pgSchemas.renamed.url, "--tables", "users=app_sessions,accounts=app_accounts")
    expect(wrong.code).toBe(1)
    expect(wrong.stderr).toMatch(/^sesame: The table app_sessions lacks a column of Auth.js's users \(id, email, emailVerified\).*--tables users=…\n$/)

    const two = pgSchemas.two.pool()
    await fillPg(two, dataset)
    await two.query(`CREATE TABLE "User" (id TEXT PRIMARY KEY)`)
    const ambiguous = await check("pg", pgSchemas.two.url)
    expect(ambiguous.code).toBe(2)
    expect(ambiguous.stderr).toMatch(/^sesame: This database has several tables that could be Auth.js's users \(users, User\): name the ones to read with --tables/)
    // Sesame's marks of unproven users, kept among the verification tokens, are no email links.
    await two.query(`INSERT INTO verification_token (identifier, expires, token) VALUES ('sesame:unproven:5', now() + interval '100 years', 'unproven:5')`)
    // A token Auth.js never made (a space in it) is never looked up.
    await two.query(`INSERT INTO sessions ("userId", expires, "sessionToken") VALUES (1, now() + interval '1 day', 'not a token')`)
    const chosen = await check("pg", pgSchemas.two.url, "--tables", "users=users")
    passed(chosen)
    expect(chosen.stdout).toContain("Database sessions: 6 live, 1 expired (ignored).\n")
    expect(chosen.stdout).toContain("- 1 session whose token is not 1 to 512 visible ASCII characters (never Auth.js's) does not carry over.\n")
    expect(chosen.stdout).toContain("Email links: 2 still valid, 1 expired.")
    expect(chosen.stdout).toContain("Sesame has run on this database already: 1 row of its own is among the verification tokens, and the counts above may include its sessions.\n")
  })

  it("command-line mistakes: one line, exit code 2", async () => {
    const line = (result: Run, pattern: RegExp) => {
      expect(result.code).toBe(2)
      expect(result.stdout).toBe("")
      expect(result.stderr).toMatch(/^sesame: [^\n]+\n$/)
      expect(result.stderr).toMatch(pattern)
    }
    const help = await sesame(["--help"])
    expect(help.code).toBe(0)
    expect(help.stdout).toContain("migrate --from authjs --check --adapter <a> --url <url>\n")
    line(await sesame(["migrate", "--from", "authjs", "--adapter", "pg", "--url", pgSchemas.main.url]), /--from authjs goes with --check/)
    line(await sesame(["migrate", "--check", "--adapter", "pg", "--url", pgSchemas.main.url]), /--from takes authjs/)
    line(await sesame(["migrate", "--from", "next-auth", "--check", "--adapter", "pg", "--url", pgSchemas.main.url]), /--from takes authjs.*got "next-auth"/)
    line(await sesame(["migrate", "--from", "authjs", "--check", "--adapter", "pg"]), /Missing --url: the Auth.js database to check/)
    line(await sesame(["migrate", "--from", "authjs", "--check", "--url", "x"]), /Missing --adapter/)
    line(await check("pg", pgSchemas.main.url, "--tables", "passwords=p"), /With --from authjs, --tables takes role=name pairs, the roles being users, accounts, sessions, verificationTokens, authenticators/)
    line(await check("pg", pgSchemas.main.url, "--tables", "users=a;b"), /plain SQL identifier/)
    // A SQLite file that is not there is not created.
    const dir = mkdtempSync(join(tmpdir(), "sesame-authjs-"))
    const missing = await check("sqlite", join(dir, "auth.db"))
    expect(missing.code).toBe(1)
    expect(missing.stderr).toMatch(/^sesame: Cannot open the SQLite file/)
    expect(readdirSync(dir)).toEqual([])
  })

  it("the connection it reads through refuses writes, on every database", async () => {
    const pool = pgSchemas.main.pool()
    const file = join(mkdtempSync(join(tmpdir(), "sesame-authjs-")), "auth.db")
    const db = new Database(file)
    fillSqlite(db, "kysely", dataset)
    db.close()
    const cases = [
      { dialect: dialects.pg!, url: pgSchemas.main.url, insert: `INSERT INTO users (email) VALUES ('x@example.com')` },
      { dialect: dialects.mysql!, url: mysqlDatabase.url, insert: "INSERT INTO `user` (id, email) VALUES ('x', 'x@example.com')" },
      { dialect: dialects.sqlite!, url: file, insert: `INSERT INTO "User" (id, email) VALUES ('x', 'x@example.com')` },
    ]
    for (const { dialect, url, insert } of cases) {
      const reader = await dialect.openReadOnly(url)
      try {
        await expect(reader.query(insert)).rejects.toThrow(/read.only|readonly/i)
      } finally {
        await reader.close()
      }
    }
    expect((await pool.query(`SELECT COUNT(*)::int AS n FROM users`)).rows[0].n).toBe(7)
  })

  it("folds addresses exactly as the core does", () => {
    for (const address of ["Ada@Example.com", " ada@example.com ", "ｅｖｅ@example.com", "İnci@example.com", "straße@example.com", "ﬁ@example.com", "Ǆ@example.com"]) {
      expect(foldEmail(address)).toBe(coreFoldEmail(address))
    }
  })
})
