/**
 * Auth.js databases for the tests of `sesame migrate --from authjs --check`: the tables of
 * Auth.js's adapters as their own schemas make them (`@auth/pg-adapter`'s schema.sql on
 * PostgreSQL, `@auth/drizzle-adapter`'s MySQL tables on MariaDB, `@auth/kysely-adapter`'s models on
 * SQLite, with dates as ISO strings as that adapter stores them there, and the Drizzle SQLite
 * tables with dates in milliseconds), filled with rows written directly, as Auth.js would have
 * left them.
 */
import type Database from "better-sqlite3"
import type mysql from "mysql2/promise"
import type pg from "pg"

export interface AuthjsUser {
  id: number
  email: string | null
  verified: boolean
}

export interface Dataset {
  users: AuthjsUser[]
  accounts: { userId: number; type: string; provider: string; providerAccountId: string }[]
  sessions: { userId: number; token: string; days: number }[]
  verificationTokens: { identifier: string; token: string; hours: number }[]
  /** Rows of the authenticators table, where the layout has one. */
  authenticators: { userId: number; credentialID: string }[]
}

/** The session token of Auth.js v5 numbered `n` in {@link dataset}. */
export const uuid = (n: number) => `0b6f4c3e-1d2a-4c5b-8e9f-${String(n).padStart(12, "0")}`
const hex64 = (c: string) => c.repeat(64)

/**
 * The users of an app that ran Auth.js v5 for a while (and v4 before it): each way in, each kind of
 * session, email links still valid and expired.
 */
export const dataset: Dataset = {
  users: [
    { id: 1, email: "ada@example.com", verified: true }, // email links only
    { id: 2, email: "bob@example.com", verified: false }, // GitHub: Auth.js leaves OAuth users unverified
    { id: 3, email: "cy@example.com", verified: false }, // GitHub and Google
    { id: 4, email: "dee@example.com", verified: true }, // Google, and email links
    { id: 5, email: "eve@example.com", verified: false }, // made by the app's own code, nothing linked
    { id: 6, email: null, verified: false }, // a provider that gave no address, its account since removed
    { id: 7, email: "pat@example.com", verified: false }, // a passkey
  ],
  accounts: [
    { userId: 2, type: "oauth", provider: "github", providerAccountId: "1001" },
    { userId: 3, type: "oauth", provider: "github", providerAccountId: "1002" },
    { userId: 3, type: "oidc", provider: "google", providerAccountId: "2001" },
    { userId: 4, type: "oidc", provider: "google", providerAccountId: "2002" },
    { userId: 7, type: "webauthn", provider: "passkey", providerAccountId: "cHVibGljLWtleS1pZA" },
  ],
  sessions: [
    { userId: 1, token: uuid(1), days: 20 },
    { userId: 2, token: uuid(2), days: 3 },
    { userId: 3, token: uuid(3), days: 29 },
    { userId: 2, token: uuid(4), days: -2 },
    { userId: 4, token: hex64("a"), days: 10 }, // Auth.js v4's token
    { userId: 7, token: "app-token-0001", days: 5 }, // the app's own generateSessionToken
  ],
  verificationTokens: [
    { identifier: "ada@example.com", token: hex64("b"), hours: 20 },
    { identifier: "dee@example.com", token: hex64("c"), hours: 2 },
    { identifier: "eve@example.com", token: hex64("d"), hours: -30 },
  ],
  authenticators: [{ userId: 7, credentialID: "cHVibGljLWtleS1pZA" }],
}

/** Users whose addresses collide once normalised (case, and full-width letters under NFKC), and one stored in capitals that collides with none. */
export const collidingUsers: AuthjsUser[] = [
  { id: 8, email: "Ada@Example.com", verified: true },
  { id: 9, email: "ｅｖｅ@example.com", verified: false },
  { id: 10, email: "Zed@Example.com", verified: true },
]

const at = (ms: number) => new Date(Date.now() + ms)
const day = 86_400_000
const hour = 3_600_000

/** `@auth/pg-adapter`'s schema.sql. */
const pgSchema = `
CREATE TABLE users (id SERIAL, name VARCHAR(255), email VARCHAR(255) UNIQUE, "emailVerified" TIMESTAMPTZ, image TEXT, PRIMARY KEY (id));
CREATE TABLE accounts (
  id SERIAL, "userId" INTEGER NOT NULL REFERENCES users ON DELETE CASCADE, type VARCHAR(255) NOT NULL, provider VARCHAR(255) NOT NULL,
  "providerAccountId" VARCHAR(255) NOT NULL, refresh_token TEXT, access_token TEXT, expires_at BIGINT, id_token TEXT, scope TEXT,
  session_state TEXT, token_type TEXT, PRIMARY KEY (id), UNIQUE (provider, "providerAccountId"));
CREATE TABLE sessions (id SERIAL, "userId" INTEGER NOT NULL REFERENCES users ON DELETE CASCADE, expires TIMESTAMPTZ NOT NULL, "sessionToken" VARCHAR(255) UNIQUE NOT NULL, PRIMARY KEY (id));
CREATE TABLE verification_token (identifier TEXT NOT NULL, expires TIMESTAMPTZ NOT NULL, token TEXT NOT NULL, PRIMARY KEY (identifier, token));
`

/** Makes `@auth/pg-adapter`'s tables on `pool` (its search_path) and fills them. */
export async function fillPg(pool: pg.Pool, data: Dataset, extraUsers: AuthjsUser[] = []): Promise<void> {
  await pool.query(pgSchema)
  for (const u of [...data.users, ...extraUsers]) {
    await pool.query(`INSERT INTO users (id, name, email, "emailVerified") VALUES ($1, $2, $3, $4)`, [u.id, `User ${u.id}`, u.email, u.verified ? at(-30 * day) : null])
  }
  for (const a of data.accounts) {
    await pool.query(`INSERT INTO accounts ("userId", type, provider, "providerAccountId", access_token) VALUES ($1, $2, $3, $4, 'at')`, [
      a.userId,
      a.type,
      a.provider,
      a.providerAccountId,
    ])
  }
  for (const s of data.sessions) await pool.query(`INSERT INTO sessions ("userId", expires, "sessionToken") VALUES ($1, $2, $3)`, [s.userId, at(s.days * day), s.token])
  for (const t of data.verificationTokens) await pool.query(`INSERT INTO verification_token (identifier, expires, token) VALUES ($1, $2, $3)`, [t.identifier, at(t.hours * hour), t.token])
}

/** `@auth/drizzle-adapter`'s MySQL tables (its `defineTables`). */
const mysqlSchema = [
  "CREATE TABLE `user` (id VARCHAR(255) NOT NULL PRIMARY KEY, name VARCHAR(255), email VARCHAR(255) UNIQUE, emailVerified TIMESTAMP(3) NULL, image VARCHAR(255))",
  `CREATE TABLE \`account\` (userId VARCHAR(255) NOT NULL, type VARCHAR(255) NOT NULL, provider VARCHAR(255) NOT NULL, providerAccountId VARCHAR(255) NOT NULL,
    refresh_token VARCHAR(255), access_token VARCHAR(255), expires_at INT, token_type VARCHAR(255), scope VARCHAR(255), id_token VARCHAR(2048), session_state VARCHAR(255),
    PRIMARY KEY (provider, providerAccountId), FOREIGN KEY (userId) REFERENCES \`user\` (id) ON DELETE CASCADE)`,
  "CREATE TABLE `session` (sessionToken VARCHAR(255) NOT NULL PRIMARY KEY, userId VARCHAR(255) NOT NULL, expires TIMESTAMP NOT NULL, FOREIGN KEY (userId) REFERENCES `user` (id) ON DELETE CASCADE)",
  "CREATE TABLE `verificationToken` (identifier VARCHAR(255) NOT NULL, token VARCHAR(255) NOT NULL, expires TIMESTAMP NOT NULL, PRIMARY KEY (identifier, token))",
  `CREATE TABLE \`authenticator\` (credentialID VARCHAR(255) NOT NULL UNIQUE, userId VARCHAR(255) NOT NULL, providerAccountId VARCHAR(255) NOT NULL,
    credentialPublicKey VARCHAR(255) NOT NULL, counter INT NOT NULL, credentialDeviceType VARCHAR(255) NOT NULL, credentialBackedUp BOOLEAN NOT NULL, transports VARCHAR(255),
    PRIMARY KEY (userId, credentialID), FOREIGN KEY (userId) REFERENCES \`user\` (id) ON DELETE CASCADE)`,
]

/** A date as MySQL takes it, in UTC. */
const mysqlDate = (d: Date) => d.toISOString().slice(0, 23).replace("T", " ")

/** Makes `@auth/drizzle-adapter`'s MySQL tables in the pool's database and fills them (UTC dates, ids as Drizzle's strings). */
export async function fillMysql(pool: mysql.Pool, data: Dataset): Promise<void> {
  const connection = await pool.getConnection()
  try {
    await connection.query("SET time_zone = '+00:00'")
    for (const sql of mysqlSchema) await connection.query(sql)
    for (const u of data.users) {
      await connection.query("INSERT INTO `user` (id, name, email, emailVerified) VALUES (?, ?, ?, ?)", [String(u.id), `User ${u.id}`, u.email, u.verified ? mysqlDate(at(-30 * day)) : null])
    }
    for (const a of data.accounts) {
      await connection.query("INSERT INTO `account` (userId, type, provider, providerAccountId) VALUES (?, ?, ?, ?)", [String(a.userId), a.type, a.provider, a.providerAccountId])
    }
    for (const s of data.sessions) await connection.query("INSERT INTO `session` (sessionToken, userId, expires) VALUES (?, ?, ?)", [s.token, String(s.userId), mysqlDate(at(s.days * day))])
    for (const t of data.verificationTokens) {
      await connection.query("INSERT INTO `verificationToken` (identifier, token, expires) VALUES (?, ?, ?)", [t.identifier, t.token, mysqlDate(at(t.hours * hour))])
    }
    for (const a of data.authenticators) {
      await connection.query(
        "INSERT INTO `authenticator` (credentialID, userId, providerAccountId, credentialPublicKey, counter, credentialDeviceType, credentialBackedUp) VALUES (?, ?, ?, 'pk', 0, 'singleDevice', 0)",
        [a.credentialID, String(a.userId), a.credentialID],
      )
    }
  } finally {
    connection.release()
  }
}

/** The SQLite tables of `@auth/kysely-adapter`'s models (dates as ISO strings) or `@auth/drizzle-adapter`'s (dates in milliseconds). */
export function fillSqlite(db: Database.Database, layout: "kysely" | "drizzle", data: Dataset, extraUsers: AuthjsUser[] = []): void {
  const [User, Account, Session, VerificationToken, Authenticator] =
    layout === "kysely" ? ["User", "Account", "Session", "VerificationToken", "Authenticator"] : ["user", "account", "session", "verificationToken", "authenticator"]
  const date = (d: Date) => (layout === "kysely" ? d.toISOString() : d.getTime())
  const dateType = layout === "kysely" ? "TEXT" : "INTEGER"
  db.exec(`
    CREATE TABLE "${User}" (id TEXT PRIMARY KEY, name TEXT, email TEXT UNIQUE, emailVerified ${dateType}, image TEXT);
    CREATE TABLE "${Account}" (id TEXT, userId TEXT NOT NULL REFERENCES "${User}" (id) ON DELETE CASCADE, type TEXT NOT NULL, provider TEXT NOT NULL,
      providerAccountId TEXT NOT NULL, refresh_token TEXT, access_token TEXT, expires_at INTEGER, token_type TEXT, scope TEXT, id_token TEXT, session_state TEXT,
      PRIMARY KEY (provider, providerAccountId));
    CREATE TABLE "${Session}" (id TEXT, sessionToken TEXT NOT NULL UNIQUE, userId TEXT NOT NULL REFERENCES "${User}" (id) ON DELETE CASCADE, expires ${dateType} NOT NULL);
    CREATE TABLE "${VerificationToken}" (identifier TEXT NOT NULL, token TEXT NOT NULL UNIQUE, expires ${dateType} NOT NULL);
    CREATE TABLE "${Authenticator}" (credentialID TEXT NOT NULL UNIQUE, userId TEXT NOT NULL REFERENCES "${User}" (id) ON DELETE CASCADE, providerAccountId TEXT NOT NULL,
      credentialPublicKey TEXT NOT NULL, counter INTEGER NOT NULL, credentialDeviceType TEXT NOT NULL, credentialBackedUp INTEGER NOT NULL, transports TEXT,
      PRIMARY KEY (userId, credentialID));
  `)
  const insert = db.transaction(() => {
    for (const u of [...data.users, ...extraUsers]) {
      db.prepare(`INSERT INTO "${User}" (id, name, email, emailVerified) VALUES (?, ?, ?, ?)`).run(`user-${u.id}`, `User ${u.id}`, u.email, u.verified ? date(at(-30 * day)) : null)
    }
    for (const a of data.accounts) {
      db.prepare(`INSERT INTO "${Account}" (id, userId, type, provider, providerAccountId) VALUES (?, ?, ?, ?, ?)`).run(
        `account-${a.provider}-${a.providerAccountId}`,
        `user-${a.userId}`,
        a.type,
        a.provider,
        a.providerAccountId,
      )
    }
    for (const s of data.sessions) db.prepare(`INSERT INTO "${Session}" (id, sessionToken, userId, expires) VALUES (?, ?, ?, ?)`).run(`s-${s.token}`, s.token, `user-${s.userId}`, date(at(s.days * day)))
    for (const t of data.verificationTokens) db.prepare(`INSERT INTO "${VerificationToken}" (identifier, token, expires) VALUES (?, ?, ?)`).run(t.identifier, t.token, date(at(t.hours * hour)))
    for (const a of data.authenticators) {
      db.prepare(
        `INSERT INTO "${Authenticator}" (credentialID, userId, providerAccountId, credentialPublicKey, counter, credentialDeviceType, credentialBackedUp) VALUES (?, ?, ?, 'pk', 0, 'singleDevice', 0)`,
      ).run(a.credentialID, `user-${a.userId}`, a.credentialID)
    }
  })
  insert()
}
