/**
 * Auth.js's own adapters, handed unchanged to `Auth()`, when the app declares user fields
 * (`user: { fields: { role: … } }`). None of them has `withUserFields`, so Sesame passes the
 * declared fields in `createUser` (as Auth.js passes a profile's fields), logs the warning
 * `user-fields-adapter-unaware`, and reads whatever the adapter's user objects hold:
 *
 * - @auth/kysely-adapter (PostgreSQL) and @auth/drizzle-adapter (PostgreSQL, with a users table
 *   object that has the column) insert what they are given: with a `role` column, the row holds
 *   what the app's `profile()` mapped ("admin"), else the declared default, and `session.user`
 *   carries it, with both session strategies.
 * - @auth/pg-adapter inserts a fixed column list: the field is dropped, the row holds the
 *   database's own default, and database sessions (it selects `*`) read that. Without the column
 *   at all, sign-ins work as before: declaring fields never breaks an adapter that ignores them.
 *
 * What was stored is read with plain SQL on the place, never through the adapter. The tables are
 * emptied before each test.
 */
import type { Adapter } from "@auth/core/adapters"
import { DrizzleAdapter } from "@auth/drizzle-adapter"
import { KyselyAdapter } from "@auth/kysely-adapter"
import PostgresAdapter from "@auth/pg-adapter"
import type { AuthConfig, OIDCConfig } from "@sesame/core"
import type { DevIdp } from "@sesame/dev-idp"
import * as kit from "drizzle-kit/api"
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres"
import { pgTable, text, timestamp } from "drizzle-orm/pg-core"
import { Kysely, PostgresDialect } from "kysely"
import { readFileSync } from "node:fs"
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest"
import { CookieJar, home, secret } from "../../core/test/helpers.js"
import { followLink, lastLink, recordingEmail, requestLink } from "../../core/test/email/helpers.js"
import { client, oidc, session, signIn as oidcSignIn, startIdp } from "../../core/test/oauth/harness.js"
import { postgresPlace, type PostgresPlace } from "./places.js"
import * as drizzlePgSchema from "./schemas/drizzle-pg.js"
import { createKyselySchema } from "./schemas/kysely.js"
import { rawStore, type RawStore, type TableNames } from "./store.js"

/** The identity provider's people: Alice is in IT, which the app's `profile()` makes an admin. */
const idpAccounts = [
  { id: "alice", email: "alice@example.com", name: "Alice Liddell", claims: { department: "it" } },
  { id: "bob", email: "bob@example.com", name: "Bob Builder", claims: { department: "sales" } },
]
const as = (id: string) => ({ query: { login_hint: id } })

const fields = { role: { type: "string", default: "member" } } as const

/** An adapter on a place of its own, with raw access to its users table. */
interface RoleSubject {
  adapter: Adapter
  place: PostgresPlace
  store: RawStore
  /** The users table's name in this schema. */
  usersTable: string
  close(): Promise<void>
}

interface RoleSubjectSpec {
  name: string
  open(): Promise<RoleSubject>
}

function roleSubject(place: PostgresPlace, adapter: Adapter, tables: TableNames, close?: () => Promise<void>): RoleSubject {
  return {
    adapter,
    place,
    store: rawStore(place, tables, (date) => date),
    usersTable: tables.users,
    async close() {
      await close?.()
      await place.close()
    },
  }
}

// @auth/kysely-adapter on PostgreSQL: the documented migration, and the app's column. --------------

const kyselyTables: TableNames = { users: "User", accounts: "Account", sessions: "Session", verificationTokens: "VerificationToken" }

const kyselyWithRole: RoleSubjectSpec = {
  name: "@auth/kysely-adapter on PostgreSQL, users with a role column",
  async open() {
    const place = await postgresPlace("fields_kysely")
    const db = new Kysely<object>({ dialect: new PostgresDialect({ pool: place.pool() }) })
    await createKyselySchema(db, "postgres")
    await place.query(`ALTER TABLE "User" ADD COLUMN role text NOT NULL DEFAULT 'member'`)
    const adapter = KyselyAdapter(db as unknown as Parameters<typeof KyselyAdapter>[0])
    return roleSubject(place, adapter, kyselyTables, () => db.destroy())
  },
}

// @auth/drizzle-adapter on PostgreSQL: the documented schema, its users table with the app's column.

/** The documented `users` table (schemas/drizzle-pg.ts) with the app's `role` column added. */
const usersWithRole = pgTable("user", {
  id: text("id")
    .primaryKey()
    .$defaultFn(() => crypto.randomUUID()),
  name: text("name"),
  email: text("email").unique(),
  emailVerified: timestamp("emailVerified", { mode: "date" }),
  image: text("image"),
  role: text("role").notNull().default("member"),
})

const drizzleTables: TableNames = { users: "user", accounts: "account", sessions: "session", verificationTokens: "verificationToken", authenticators: "authenticator" }

const drizzleWithRole: RoleSubjectSpec = {
  name: "@auth/drizzle-adapter on PostgreSQL, users with a role column",
  async open() {
    const place = await postgresPlace("fields_drizzle")
    const schema = { ...drizzlePgSchema, users: usersWithRole }
    const statements = await kit.generateMigration(kit.generateDrizzleJson({}), kit.generateDrizzleJson({ ...schema }))
    // drizzle-kit qualifies referenced tables with "public"; here they live in the place's schema.
    for (const statement of statements) await place.query(statement.replaceAll(`"public".`, ""))
    const adapter = DrizzleAdapter(drizzlePg(place.pool()), {
      usersTable: usersWithRole,
      accountsTable: drizzlePgSchema.accounts,
      sessionsTable: drizzlePgSchema.sessions,
      verificationTokensTable: drizzlePgSchema.verificationTokens,
      authenticatorsTable: drizzlePgSchema.authenticators,
    })
    return roleSubject(place, adapter, drizzleTables)
  },
}

// @auth/pg-adapter on PostgreSQL: the documented schema, with and without a role column. ---------

const pgAdapterTables: TableNames = { users: "users", accounts: "accounts", sessions: "sessions", verificationTokens: "verification_token" }

/** The role column's default in the pg-adapter schema: not the declared one, so that a row that holds it was filled by the database. */
const databaseDefault = "guest"

function pgAdapterSubject(label: string, column: string | null): RoleSubjectSpec {
  return {
    name: `@auth/pg-adapter on PostgreSQL, ${column ? "users with a role column" : "users without a role column"}`,
    async open() {
      const place = await postgresPlace(label)
      await place.query(readFileSync(new URL("./schemas/pg-adapter.sql", import.meta.url), "utf8"))
      if (column) await place.query(`ALTER TABLE users ADD COLUMN ${column}`)
      return roleSubject(place, PostgresAdapter(place.pool()), pgAdapterTables)
    },
  }
}

const pgAdapterWithRole = pgAdapterSubject("fields_pg_role", `role text NOT NULL DEFAULT '${databaseDefault}'`)
const pgAdapterWithoutRole = pgAdapterSubject("fields_pg_plain", null)

// The flows ------------------------------------------------------------------------------------

let idp: DevIdp

beforeAll(async () => {
  idp = await startIdp({ clients: [client("dev")], accounts: idpAccounts })
})
afterAll(async () => {
  await idp?.close()
})

/** Opens `spec` for the tests of the enclosing `describe`, emptying its tables before each; returns a getter. */
function useSubject(spec: RoleSubjectSpec): () => RoleSubject {
  let subject: RoleSubject | undefined
  beforeAll(async () => {
    subject = await spec.open()
  })
  afterAll(async () => {
    await subject?.close()
  })
  beforeEach(async () => {
    await subject!.store.clear()
  })
  return () => subject!
}

/**
 * The app: `user.fields.role`, an email provider, and an OIDC provider whose `profile()` makes
 * people of the IT department admins (and says nothing of the others' role). The logger keeps
 * errors and warnings.
 */
function appConfig(adapter: Adapter, strategy: "jwt" | "database") {
  const mail = recordingEmail()
  const errors: string[] = []
  const warnings: string[] = []
  const profile: NonNullable<OIDCConfig["profile"]> = (p) => ({
    id: String(p.sub),
    name: typeof p.name === "string" ? p.name : null,
    email: typeof p.email === "string" ? p.email : null,
    ...(p.department === "it" ? { role: "admin" } : {}),
  })
  const config: AuthConfig = {
    secret,
    trustHost: true,
    // Auth.js's adapter, exactly as its package made it.
    adapter,
    session: { strategy },
    user: { fields },
    logger: {
      error: (error: Error) => void errors.push(`${error.name}: ${error.message}`),
      warn: (code: string) => void warnings.push(code),
      debug: () => {},
    },
    providers: [mail.provider, oidc(idp, { profile })],
  }
  return { config, sent: mail.sent, errors, warnings }
}

/** Signs `email` in by email link in `jar`; expects the redirect home. */
async function emailSignIn(app: ReturnType<typeof appConfig>, jar: CookieJar, email: string) {
  const asked = await requestLink(app.config, jar, email)
  expect(asked.status).toBe(302)
  expect(asked.headers.get("location")).toMatch(/\/auth\/verify-request/)
  const done = await followLink(app.config, jar, lastLink(app.sent))
  expect(done.status).toBe(302)
  expect(done.headers.get("location")).toBe(home)
}

/** Signs the IdP's `account` in through OIDC in `jar`; expects the redirect home. */
async function idpSignIn(app: ReturnType<typeof appConfig>, jar: CookieJar, account: string) {
  const callback = await oidcSignIn(app.config, jar, "dev", as(account))
  expect(callback.status).toBe(302)
  expect(callback.headers.get("location")).toBe(home)
}

/** The users table's rows by address, with every column, read with plain SQL. */
async function rowsByEmail(subject: RoleSubject): Promise<Map<string, Record<string, unknown>>> {
  const rows = await subject.place.query(`SELECT * FROM ${subject.place.quote(subject.usersTable)}`)
  return new Map(rows.map((row) => [String(row.email), row]))
}

async function roleOf(subject: RoleSubject, email: string): Promise<unknown> {
  const row = (await rowsByEmail(subject)).get(email)
  expect(row, `a user row for ${email}`).toBeDefined()
  return row!.role
}

async function sessionUser(app: ReturnType<typeof appConfig>, jar: CookieJar) {
  return (await session(app.config, jar))?.user
}

/** Kysely and Drizzle: the adapter inserts what it is given, so the column gets the app's value. */
describe.each([kyselyWithRole, drizzleWithRole])("$name", (spec) => {
  const subject = useSubject(spec)

  describe.each(["jwt", "database"] as const)("%s sessions", (strategy) => {
    it("OIDC: the role the app's profile() maps is stored in the row and carried by session.user; the returning account keeps it", async () => {
      const app = appConfig(subject().adapter, strategy)
      const jar = new CookieJar()
      await idpSignIn(app, jar, "alice")
      // "admin" is no default of the column nor of the declaration: Sesame passed the field.
      expect(await roleOf(subject(), "alice@example.com")).toBe("admin")
      expect(await sessionUser(app, jar)).toMatchObject({ email: "alice@example.com", role: "admin" })
      // Each user of the table has one row, with the account linked.
      const [alice, ...others] = await subject().store.users()
      expect(others).toEqual([])
      expect(await subject().store.accounts()).toEqual([expect.objectContaining({ userId: alice!.id, provider: "dev", providerAccountId: "alice" })])

      // Again, in another browser: the same user, read back through the adapter.
      const again = new CookieJar()
      await idpSignIn(app, again, "alice")
      expect(await sessionUser(app, again)).toMatchObject({ email: "alice@example.com", role: "admin" })
      expect((await subject().store.users()).map((u) => u.id)).toEqual([alice!.id])

      expect(app.warnings).toContain("user-fields-adapter-unaware")
      expect(app.errors).toEqual([])
    })

    it("OIDC: an account the profile() gives no role gets the declared default", async () => {
      const app = appConfig(subject().adapter, strategy)
      const jar = new CookieJar()
      await idpSignIn(app, jar, "bob")
      expect(await roleOf(subject(), "bob@example.com")).toBe("member")
      expect(await sessionUser(app, jar)).toMatchObject({ email: "bob@example.com", role: "member" })
      expect(app.warnings).toContain("user-fields-adapter-unaware")
      expect(app.errors).toEqual([])
    })

    it("email link: a new address is stored with the declared default, and session.user carries it", async () => {
      const app = appConfig(subject().adapter, strategy)
      const jar = new CookieJar()
      await emailSignIn(app, jar, "carol@example.com")
      expect(await roleOf(subject(), "carol@example.com")).toBe("member")
      expect(await sessionUser(app, jar)).toMatchObject({ email: "carol@example.com", role: "member" })
      // Both users side by side: the OIDC admin and the email member.
      await idpSignIn(app, new CookieJar(), "alice")
      const rows = await rowsByEmail(subject())
      expect([...rows.entries()].map(([email, row]) => [email, row.role]).sort()).toEqual([
        ["alice@example.com", "admin"],
        ["carol@example.com", "member"],
      ])
      expect(app.warnings).toContain("user-fields-adapter-unaware")
      expect(app.errors).toEqual([])
    })

    if (strategy === "database") {
      it("database sessions read the row as it is now: a change made with the app's own SQL shows at once", async () => {
        const app = appConfig(subject().adapter, strategy)
        const jar = new CookieJar()
        await emailSignIn(app, jar, "carol@example.com")
        expect(await sessionUser(app, jar)).toMatchObject({ role: "member" })
        await subject().place.query(`UPDATE ${subject().place.quote(subject().usersTable)} SET role = ? WHERE email = ?`, ["editor", "carol@example.com"])
        expect(await sessionUser(app, jar)).toMatchObject({ email: "carol@example.com", role: "editor" })
        expect(app.errors).toEqual([])
      })
    }
  })
})

/**
 * @auth/pg-adapter: `createUser` inserts name, email, emailVerified and image only, and returns
 * those; every read selects `*`.
 */
describe(pgAdapterWithRole.name, () => {
  const subject = useSubject(pgAdapterWithRole)

  describe.each(["jwt", "database"] as const)("%s sessions", (strategy) => {
    /**
     * The session's role: with database sessions, the row's (the adapter reads `*`). A JWT carries
     * what the adapter's user held at sign-in: at sign-up `createUser`'s answer, which has no role
     * (not the "admin" or "member" Sesame passed, which the row does not hold); later the row's.
     */
    async function expectSessionRole(app: ReturnType<typeof appConfig>, jar: CookieJar, email: string, signIn: "sign-up" | "returning") {
      const user = await sessionUser(app, jar)
      expect(user).toMatchObject({ email })
      if (strategy === "jwt" && signIn === "sign-up") expect(user).not.toHaveProperty("role")
      else expect(user?.role).toBe(databaseDefault)
    }

    it("OIDC: the sign-in works, the field is dropped and the row holds the database's default", async () => {
      const app = appConfig(subject().adapter, strategy)
      const jar = new CookieJar()
      await idpSignIn(app, jar, "alice")
      expect(await roleOf(subject(), "alice@example.com")).toBe(databaseDefault)
      await expectSessionRole(app, jar, "alice@example.com", "sign-up")
      // The returning account: the user the adapter finds (`select u.*`).
      const again = new CookieJar()
      await idpSignIn(app, again, "alice")
      await expectSessionRole(app, again, "alice@example.com", "returning")
      expect(await subject().store.users()).toHaveLength(1)
      expect(app.warnings).toContain("user-fields-adapter-unaware")
      expect(app.errors).toEqual([])
    })

    it("email link: the sign-up works and the row holds the database's default", async () => {
      const app = appConfig(subject().adapter, strategy)
      const jar = new CookieJar()
      await emailSignIn(app, jar, "carol@example.com")
      expect(await roleOf(subject(), "carol@example.com")).toBe(databaseDefault)
      await expectSessionRole(app, jar, "carol@example.com", "sign-up")
      // The same address again: the same user.
      const again = new CookieJar()
      await emailSignIn(app, again, "carol@example.com")
      await expectSessionRole(app, again, "carol@example.com", "returning")
      expect(await subject().store.users()).toHaveLength(1)
      expect(app.warnings).toContain("user-fields-adapter-unaware")
      expect(app.errors).toEqual([])
    })
  })
})

describe(pgAdapterWithoutRole.name, () => {
  const subject = useSubject(pgAdapterWithoutRole)

  describe.each(["jwt", "database"] as const)("%s sessions", (strategy) => {
    it("OIDC and email sign-ins work as without declared fields; the session has no role the store does not hold", async () => {
      const app = appConfig(subject().adapter, strategy)
      const byIdp = new CookieJar()
      await idpSignIn(app, byIdp, "alice")
      const byEmail = new CookieJar()
      await emailSignIn(app, byEmail, "carol@example.com")
      for (const [jar, email] of [
        [byIdp, "alice@example.com"],
        [byEmail, "carol@example.com"],
      ] as const) {
        const user = await sessionUser(app, jar)
        expect(user).toMatchObject({ email })
        expect(user).not.toHaveProperty("role")
      }
      const rows = await rowsByEmail(subject())
      expect([...rows.keys()].sort()).toEqual(["alice@example.com", "carol@example.com"])
      for (const row of rows.values()) expect(row).not.toHaveProperty("role")
      // Returning, in new browsers.
      const again = new CookieJar()
      await idpSignIn(app, again, "alice")
      expect(await sessionUser(app, again)).toMatchObject({ email: "alice@example.com" })
      expect(await subject().store.users()).toHaveLength(2)
      expect(app.warnings).toContain("user-fields-adapter-unaware")
      expect(app.errors).toEqual([])
    })
  })
})
