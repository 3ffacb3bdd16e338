/**
 * The migration of issue 30, end to end: an Auth.js v5 app (`@auth/core` 0.41.3 itself, with
 * `@auth/pg-adapter` 1.11.3 on PostgreSQL, an email provider and an OpenID Connect provider at a
 * real identity provider) fills its database and its users' browsers; then the same database, the
 * same kind of adapter, the same secret and base path and the same providers (in Sesame's form)
 * run under Sesame's `Auth()` with `migrateFrom: "authjs"`.
 *
 * The people: A signs in by email link only, B by OIDC only, C by both (an email link, then OIDC
 * while signed in: Auth.js links the account). Each holds a JWT session and a database session
 * (two Auth.js configurations, one per strategy), each in a browser (cookie jar) of its own, and A
 * has one more email link from Auth.js, not yet followed. Under Sesame: every one of the six
 * sessions is still signed in (re-issued as Sesame's cookies, the database rows re-keyed to the
 * SHA-256 of the new cookie), A's pending link signs A in once, each person signs in again by every
 * method used before as the same user, B's first email link keeps B's OIDC account, and a new
 * person D signs up by both (the README's account-linking table: a new provider account for an
 * existing address is `OAuthAccountNotLinked` unless its owner is signed in, then it is linked).
 * Without `migrateFrom` the Auth.js cookies are no session.
 *
 * Every step is a browser's request (CSRF token, POST sign-in, the IdP's redirects, the callback);
 * what each wrote is read with the raw driver (store.ts), never through the adapter. The tests of
 * this file are one story, in order: each starts from where the one before left the database.
 */
import { createHash } from "node:crypto"
import { readFileSync } from "node:fs"
import { Auth as Authjs, type AuthConfig as AuthjsConfig } from "@auth/core"
import { decode as authjsDecode } from "@auth/core/jwt"
import AuthjsEmail from "@auth/core/providers/email"
import PostgresAdapter from "@auth/pg-adapter"
import type { AuthConfig } from "@sesame/core"
import { decode } from "@sesame/core/jwt"
import type { DevIdp } from "@sesame/dev-idp"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { CookieJar, home, origin, request, secret, type RequestOptions } from "../../core/test/helpers.js"
import { confirmPage, followLink, lastLink, openLink, recordingEmail, requestLink } from "../../core/test/email/helpers.js"
import { atProvider, callbackUrl, client, clientSecret, expectRejected, session, signIn as sesameOidc, startIdp } from "../../core/test/oauth/harness.js"
import { postgresPlace, type PostgresPlace } from "./places.js"
import { rawStore, type RawStore } from "./store.js"

type Strategy = "jwt" | "database"
type Person = "A" | "B" | "C" | "D" | "E"

const strategies = ["jwt", "database"] as const
const basePath = "/auth"
/** Each person's address; `login` is their account at the identity provider (A has none). */
const people = {
  A: { email: "ann@example.com", login: undefined },
  B: { email: "bob@example.com", login: "bob" },
  C: { email: "carol@example.com", login: "carol" },
  D: { email: "dave@example.com", login: "dave" },
  E: { email: "eve@example.com", login: "eve" },
} as const
const idpAccounts = [
  { id: "bob", email: people.B.email, name: "Bob Builder" },
  { id: "carol", email: people.C.email, name: "Carol Danvers" },
  { id: "dave", email: people.D.email, name: "Dave Lister" },
  { id: "eve", email: people.E.email, name: "Eve Moneypenny" },
]
const authjsCookie = "authjs.session-token"
const sesameCookie = "sesame.session-token"
const sha256 = (value: string) => createHash("sha256").update(value).digest("hex")

let place: PostgresPlace
let store: RawStore
let idp: DevIdp

// Auth.js's side -------------------------------------------------------------------------------

/** The links Auth.js's email provider was asked to send, in order. */
const authjsLinks: string[] = []
const authjsErrors: string[] = []
const authjs = {} as Record<Strategy, AuthjsConfig>

function authjsConfig(strategy: Strategy, adapter: AuthjsConfig["adapter"]): AuthjsConfig {
  return {
    secret,
    basePath,
    trustHost: true,
    adapter,
    session: { strategy },
    logger: { error: (error) => void authjsErrors.push(`${error.name}: ${error.message}`), warn: () => {}, debug: () => {} },
    providers: [
      // Auth.js's email provider (id "email"); only the sending is the test's.
      AuthjsEmail({
        server: "smtp://127.0.0.1:1",
        async sendVerificationRequest({ url }) {
          authjsLinks.push(url)
        },
      }),
      { id: "dev", name: "Dev IdP", type: "oidc", issuer: idp.issuer, clientId: "dev", clientSecret, checks: ["pkce", "nonce"] },
    ],
  }
}

/** A browser's request to Auth.js's `Auth()`; the answer's cookies go to the jar. */
async function authjsSend(config: AuthjsConfig, path: string, options: RequestOptions = {}): Promise<Response> {
  const response = await Authjs(request(path, options), config)
  options.jar?.apply(response)
  return response
}

async function authjsCsrf(config: AuthjsConfig, jar: CookieJar): Promise<string> {
  const answer = await authjsSend(config, `${basePath}/csrf`, { jar })
  expect(answer.status).toBe(200)
  return ((await answer.json()) as { csrfToken: string }).csrfToken
}

/** Asks Auth.js for an email link for `email`; returns the link it sent. */
async function authjsRequestLink(config: AuthjsConfig, jar: CookieJar, email: string): Promise<string> {
  const before = authjsLinks.length
  const asked = await authjsSend(config, `${basePath}/signin/email`, { jar, form: { csrfToken: await authjsCsrf(config, jar), email } })
  expect(asked.status).toBe(302)
  expect(asked.headers.get("location")).toMatch(/\/auth\/verify-request\?/)
  expect(authjsLinks).toHaveLength(before + 1)
  return authjsLinks.at(-1)!
}

/** An answer of Auth.js that ends a sign-in well: a redirect home, no error. */
function expectSignedInRedirect(answer: Response): void {
  expect(answer.status).toBe(302)
  const location = answer.headers.get("location")!
  expect(location).not.toMatch(/error=/)
  expect(new URL(location).origin).toBe(origin)
}

/** Signs `email` in under Auth.js by email link, in `jar` (Auth.js's link signs in on GET). */
async function authjsEmailSignIn(config: AuthjsConfig, jar: CookieJar, email: string): Promise<void> {
  const link = await authjsRequestLink(config, jar, email)
  expectSignedInRedirect(await authjsSend(config, link, { jar }))
}

/** Signs the IdP's `login` in under Auth.js through provider `dev`, in `jar`: start, the IdP, the callback. */
async function authjsOidcSignIn(config: AuthjsConfig, jar: CookieJar, login: string): Promise<void> {
  const start = await authjsSend(config, `${basePath}/signin/dev?login_hint=${login}`, { jar, form: { csrfToken: await authjsCsrf(config, jar) } })
  expect(start.status).toBe(302)
  const answer = await atProvider(start.headers.get("location")!, callbackUrl("dev"))
  expect(answer.kind).toBe("redirect")
  expectSignedInRedirect(await authjsSend(config, (answer as { url: string }).url, { jar }))
}

/** The session Auth.js reports for `jar`. */
async function authjsSession(config: AuthjsConfig, jar: CookieJar): Promise<{ user?: { email?: string | null } } | null> {
  return (await authjsSend(config, `${basePath}/session`, { jar })).json() as Promise<{ user?: { email?: string | null } } | null>
}

/** The user id behind Auth.js's session cookie in `jar`: the JWT's `sub`, or the stored row's `userId`. */
async function authjsUserId(strategy: Strategy, jar: CookieJar): Promise<string | undefined> {
  const token = jar.get(authjsCookie)
  if (!token) return undefined
  if (strategy === "jwt") return (await authjsDecode({ token, secret, salt: authjsCookie }))?.sub ?? undefined
  return (await store.sessions()).find((row) => row.sessionToken === token)?.userId
}

// Sesame's side --------------------------------------------------------------------------------

const mail = recordingEmail()
const sesameErrors: Error[] = []
const sesame = {} as Record<Strategy, AuthConfig>

function sesameConfig(strategy: Strategy, adapter: AuthConfig["adapter"], migrate = true): AuthConfig {
  return {
    secret,
    basePath,
    trustHost: true,
    adapter,
    session: { strategy },
    ...(migrate ? { migrateFrom: "authjs" as const } : {}),
    logger: { error: (error: Error) => void sesameErrors.push(error), warn: () => {}, debug: () => {} },
    providers: [mail.provider, { id: "dev", name: "Dev IdP", type: "oidc", issuer: idp.issuer, clientId: "dev", clientSecret, checks: ["pkce", "nonce"] }],
  }
}

/** The user id behind Sesame's session cookie in `jar`: the JWT's `sub`, or the row stored under the cookie's SHA-256. */
async function sesameUserId(strategy: Strategy, jar: CookieJar): Promise<string | undefined> {
  const token = jar.get(sesameCookie)
  if (!token) return undefined
  if (strategy === "jwt") return (await decode({ token, secret, salt: sesameCookie }))?.sub ?? undefined
  const rows = await store.sessions()
  // Sesame keeps the hash only: the cookie itself is in no row.
  expect(rows.some((row) => row.sessionToken === token)).toBe(false)
  return rows.find((row) => row.sessionToken === sha256(token))?.userId
}

/** Signs `email` in under Sesame by email link in `jar`: ask, open the link, confirm. */
async function sesameEmailSignIn(strategy: Strategy, jar: CookieJar, email: string): Promise<void> {
  const asked = await requestLink(sesame[strategy], jar, email)
  expect(asked.status).toBe(302)
  expect(asked.headers.get("location")).toMatch(/\/auth\/verify-request/)
  const done = await followLink(sesame[strategy], jar, lastLink(mail.sent))
  expect(done.status).toBe(302)
  expect(done.headers.get("location")).toBe(home)
}

async function sesameOidcSignIn(strategy: Strategy, jar: CookieJar, login: string): Promise<Response> {
  return sesameOidc(sesame[strategy], jar, "dev", { query: { login_hint: login } })
}

/** Asserts that `jar` is signed in under Sesame as `person`: the session's answer and the user id behind the cookie. */
async function expectSignedIn(strategy: Strategy, jar: CookieJar, person: Person): Promise<void> {
  const answer = await session(sesame[strategy], jar)
  expect(answer?.user, `${person}'s ${strategy} session`).toMatchObject({ email: people[person].email })
  expect(await sesameUserId(strategy, jar), `${person}'s ${strategy} session`).toBe(ids[person])
}

// The story ------------------------------------------------------------------------------------

/** Each person's user id, as Auth.js made it (D's and E's, as Sesame made them). */
const ids = {} as Record<Person, string>
/** The six browsers Auth.js signed in. */
const browsers: { person: Person; strategy: Strategy; jar: CookieJar; authjsToken: string }[] = []
/** Every browser that must be signed in at the end, and as whom. */
const signedIn: { person: Person; strategy: Strategy; jar: CookieJar }[] = []
let pendingLink: string

async function userByEmail(email: string) {
  return (await store.users()).find((user) => user.email === email)
}

beforeAll(async () => {
  ;[place, idp] = await Promise.all([postgresPlace("migration"), startIdp({ clients: [client("dev")], accounts: idpAccounts })])
  await place.query(readFileSync(new URL("./schemas/pg-adapter.sql", import.meta.url), "utf8"))
  store = rawStore(place, { users: "users", accounts: "accounts", sessions: "sessions", verificationTokens: "verification_token" }, (date) => date)
  // One adapter for Auth.js's app, and another of the same kind (a new pool on the same tables) for Sesame's.
  const authjsAdapter = PostgresAdapter(place.pool())
  const sesameAdapter = PostgresAdapter(place.pool())
  for (const strategy of strategies) {
    authjs[strategy] = authjsConfig(strategy, authjsAdapter)
    sesame[strategy] = sesameConfig(strategy, sesameAdapter)
  }
})
afterAll(async () => {
  await Promise.all([place?.close(), idp?.close()])
})

describe("an Auth.js v5 app on @auth/pg-adapter, switched to Sesame with migrateFrom: \"authjs\"", () => {
  it("under @auth/core 0.41.3: A signs in by email link, B by OIDC, C by both (linked while signed in), each with a JWT and a database session; one more link for A waits", async () => {
    for (const strategy of strategies) {
      const config = authjs[strategy]
      const a = new CookieJar()
      await authjsEmailSignIn(config, a, people.A.email)
      const b = new CookieJar()
      await authjsOidcSignIn(config, b, "bob")
      const c = new CookieJar()
      if (strategy === "jwt") {
        // C's first visit: an email link, then the IdP while signed in, which Auth.js links.
        await authjsEmailSignIn(config, c, people.C.email)
        const before = await authjsUserId(strategy, c)
        await authjsOidcSignIn(config, c, "carol")
        expect(await authjsUserId(strategy, c)).toBe(before)
      } else {
        // Then C comes back through the IdP alone: the linked account.
        await authjsOidcSignIn(config, c, "carol")
      }
      for (const [person, jar] of [["A", a], ["B", b], ["C", c]] as const) {
        expect((await authjsSession(config, jar))?.user, `${person} under Auth.js (${strategy})`).toMatchObject({ email: people[person].email })
        browsers.push({ person, strategy, jar, authjsToken: jar.get(authjsCookie)! })
      }
    }
    // The one more link Auth.js sends A, not followed before the switch.
    pendingLink = await authjsRequestLink(authjs.database, new CookieJar(), people.A.email)
    expect(authjsErrors).toEqual([])

    // What Auth.js left, read with the raw driver.
    const users = await store.users()
    expect(users.map((user) => user.email).sort()).toEqual([people.A.email, people.B.email, people.C.email])
    for (const person of ["A", "B", "C"] as const) ids[person] = users.find((user) => user.email === people[person].email)!.id
    expect(users.find((user) => user.id === ids.A)!.emailVerified).toBeInstanceOf(Date)
    expect(users.find((user) => user.id === ids.C)!.emailVerified).toBeInstanceOf(Date)
    // Auth.js stores every OAuth user unverified, even when the IdP says email_verified.
    expect(users.find((user) => user.id === ids.B)).toMatchObject({ name: "Bob Builder", emailVerified: null })

    const accounts = await store.accounts()
    expect(accounts.map(({ userId, type, provider, providerAccountId }) => ({ userId, type, provider, providerAccountId })).sort((x, y) => x.userId.localeCompare(y.userId))).toEqual(
      [
        { userId: ids.B, type: "oidc", provider: "dev", providerAccountId: "bob" },
        { userId: ids.C, type: "oidc", provider: "dev", providerAccountId: "carol" },
      ].sort((x, y) => x.userId.localeCompare(y.userId)),
    )

    // The database sessions: one row each, holding the raw token of the browser's cookie.
    const sessions = await store.sessions()
    expect(sessions).toHaveLength(3)
    for (const { person, strategy, jar, authjsToken } of browsers) {
      expect(authjsToken, `${person}'s ${strategy} cookie`).toBeTruthy()
      expect(await authjsUserId(strategy, jar), `${person}'s ${strategy} session`).toBe(ids[person])
      if (strategy === "database") expect(authjsToken).toMatch(/^[0-9a-f-]{36}$/)
      else expect(sessions.some((row) => row.sessionToken === authjsToken)).toBe(false)
    }

    // The pending link: one record, under Auth.js's hash of the link's token and the secret.
    const token = new URL(pendingLink).searchParams.get("token")!
    const records = await store.verificationTokens()
    expect(records).toEqual([{ identifier: people.A.email, token: sha256(`${token}${secret}`), expires: expect.any(Date) }])
    expect(records[0]!.expires.getTime()).toBeGreaterThan(Date.now())
  })

  it("without migrateFrom, Sesame reads none of the Auth.js cookies, and leaves their rows alone", async () => {
    expect(browsers).toHaveLength(6)
    const before = await store.sessions()
    for (const { strategy, jar, person } of browsers) {
      // A copy of the browser: the real one still has to cross over below.
      const copy = new CookieJar()
      for (const [name, value] of jar.cookies) copy.cookies.set(name, value)
      expect(await session(sesameConfig(strategy, sesame[strategy].adapter, false), copy), `${person}'s ${strategy} session`).toBeNull()
    }
    expect(await store.sessions()).toEqual(before)
  })

  it("all six sessions are still signed in: re-issued as Sesame's cookies, the database ones re-keyed to the SHA-256 of the new cookie", async () => {
    for (const { person, strategy, jar, authjsToken } of browsers) {
      await expectSignedIn(strategy, jar, person)
      expect(jar.get(authjsCookie), "Auth.js's cookie deleted").toBeUndefined()
      const cookie = jar.get(sesameCookie)!
      expect(cookie).not.toBe(authjsToken)
      if (strategy === "database") {
        const rows = await store.sessions()
        expect(rows.some((row) => row.sessionToken === authjsToken), "the Auth.js row is gone").toBe(false)
        const row = rows.find((r) => r.sessionToken === sha256(cookie))
        expect(row).toMatchObject({ userId: ids[person] })
        expect(row!.expires.getTime()).toBeGreaterThan(Date.now())
      } else {
        expect(await decode({ token: cookie, secret, salt: sesameCookie })).toMatchObject({ sub: ids[person], email: people[person].email })
      }
      // Read again: the same session, through Sesame's cookie alone.
      await expectSignedIn(strategy, jar, person)
      signedIn.push({ person, strategy, jar })
    }
    // Re-keyed, not copied: still one row per database session.
    expect(await store.sessions()).toHaveLength(3)
    expect(sesameErrors).toEqual([])
  })

  it("the email link Auth.js sent before the switch signs A in, once", async () => {
    const jar = new CookieJar()
    const done = await followLink(sesame.database, jar, pendingLink)
    expect(done.status).toBe(302)
    expect(done.headers.get("location")).toBe(home)
    await expectSignedIn("database", jar, "A")
    signedIn.push({ person: "A", strategy: "database", jar })
    expect(await store.verificationTokens()).toEqual([])

    // Used: a second browser following it gets no session.
    const again = new CookieJar()
    const page = await openLink(sesame.database, again, pendingLink)
    const answer = page.status === 200 ? await confirmPage(sesame.database, again, page) : page
    const location = answer.headers.get("location") ?? ""
    expect(new URL(location, origin).searchParams.get("error")).toBe("Verification")
    expect(again.get(sesameCookie)).toBeUndefined()
    expect(await session(sesame.database, again)).toBeNull()
    expect((await store.users()).map((user) => user.id).sort()).toEqual([ids.A, ids.B, ids.C].sort())
  })

  describe.each(strategies)("%s sessions: each signs in again by every method used before, as the same user", (strategy) => {
    it("A by email link", async () => {
      const jar = new CookieJar()
      await sesameEmailSignIn(strategy, jar, people.A.email)
      await expectSignedIn(strategy, jar, "A")
      signedIn.push({ person: "A", strategy, jar })
    })

    it("B through the IdP", async () => {
      const jar = new CookieJar()
      expect((await sesameOidcSignIn(strategy, jar, "bob")).headers.get("location")).toBe(home)
      await expectSignedIn(strategy, jar, "B")
      signedIn.push({ person: "B", strategy, jar })
    })

    it("C by email link and through the IdP", async () => {
      const byEmail = new CookieJar()
      await sesameEmailSignIn(strategy, byEmail, people.C.email)
      await expectSignedIn(strategy, byEmail, "C")
      const byIdp = new CookieJar()
      expect((await sesameOidcSignIn(strategy, byIdp, "carol")).headers.get("location")).toBe(home)
      await expectSignedIn(strategy, byIdp, "C")
      signedIn.push({ person: "C", strategy, jar: byEmail }, { person: "C", strategy, jar: byIdp })
    })

    it("and nobody was made anew: the same users, the same accounts", async () => {
      expect((await store.users()).map((user) => user.id).sort()).toEqual([ids.A, ids.B, ids.C].sort())
      expect((await store.accounts()).map((account) => `${account.provider}:${account.providerAccountId}:${account.userId}`).sort()).toEqual(
        [`dev:bob:${ids.B}`, `dev:carol:${ids.C}`].sort(),
      )
    })
  })

  it("B signs in by email link: the same user, now verified, B's OIDC account kept, and B's OIDC sign-in still works", async () => {
    expect((await userByEmail(people.B.email))!.emailVerified).toBeNull()
    const byEmail = new CookieJar()
    await sesameEmailSignIn("database", byEmail, people.B.email)
    await expectSignedIn("database", byEmail, "B")
    const b = (await userByEmail(people.B.email))!
    expect(b.id).toBe(ids.B)
    expect(b.emailVerified).toBeInstanceOf(Date)
    expect((await store.accounts()).filter((account) => account.userId === ids.B)).toEqual([
      { userId: ids.B, type: "oidc", provider: "dev", providerAccountId: "bob", access_token: expect.any(String) },
    ])
    signedIn.push({ person: "B", strategy: "database", jar: byEmail })

    for (const strategy of strategies) {
      const byIdp = new CookieJar()
      const callback = await sesameOidcSignIn(strategy, byIdp, "bob")
      expect(callback.headers.get("location")).toBe(home)
      await expectSignedIn(strategy, byIdp, "B")
      signedIn.push({ person: "B", strategy, jar: byIdp })
    }
  })

  it("a new user D signs up by email link; D's IdP account is OAuthAccountNotLinked while D is signed out, and linked to D while signed in", async () => {
    const byEmail = new CookieJar()
    await sesameEmailSignIn("jwt", byEmail, people.D.email)
    const d = (await userByEmail(people.D.email))!
    expect(d.emailVerified).toBeInstanceOf(Date)
    expect([ids.A, ids.B, ids.C]).not.toContain(d.id)
    ids.D = d.id
    await expectSignedIn("jwt", byEmail, "D")

    // README, account linking: "any | a new provider account (vouching or not), nobody signed in |
    // OAuthAccountNotLinked; nothing changes".
    const users = await store.users()
    const accounts = await store.accounts()
    for (const strategy of strategies) {
      const stranger = new CookieJar()
      await expectRejected(sesame[strategy], stranger, await sesameOidcSignIn(strategy, stranger, "dave"), "OAuthAccountNotLinked")
    }
    expect(await store.users()).toEqual(users)
    expect(await store.accounts()).toEqual(accounts)

    // "(signed in) | a new provider account or passkey | linked to the signed-in user" (with a
    // database session: the next test).
    const linked = await sesameOidcSignIn("jwt", byEmail, "dave")
    expect(linked.headers.get("location")).toBe(home)
    await expectSignedIn("jwt", byEmail, "D")
    expect((await store.accounts()).filter((account) => account.userId === ids.D)).toEqual([
      { userId: ids.D, type: "oidc", provider: "dev", providerAccountId: "dave", access_token: expect.any(String) },
    ])
    expect(await store.users()).toEqual(users)
    signedIn.push({ person: "D", strategy: "jwt", jar: byEmail })

    // D now has both ways in, under either strategy.
    for (const strategy of strategies) {
      const byIdp = new CookieJar()
      expect((await sesameOidcSignIn(strategy, byIdp, "dave")).headers.get("location")).toBe(home)
      await expectSignedIn(strategy, byIdp, "D")
      const again = new CookieJar()
      await sesameEmailSignIn(strategy, again, people.D.email)
      await expectSignedIn(strategy, again, "D")
      signedIn.push({ person: "D", strategy, jar: byIdp }, { person: "D", strategy, jar: again })
    }
    expect((await store.users()).map((user) => user.id).sort()).toEqual([ids.A, ids.B, ids.C, ids.D].sort())

    // The refusals, and nothing else, were logged.
    expect(sesameErrors.map((error) => error.name).filter((name) => name !== "OAuthAccountNotLinked" && name !== "Verification")).toEqual([])
  })

  // @auth/pg-adapter's ids are numbers (SERIAL): Sesame's checked adapter turns them into strings,
  // or the recheck after linking (a stored id against the signed-in one) would sign E out.
  it("with a database session too: E, signed in by email link, links a new IdP account and stays signed in", async () => {
    const jar = new CookieJar()
    await sesameEmailSignIn("database", jar, people.E.email)
    ids.E = (await userByEmail(people.E.email))!.id
    await expectSignedIn("database", jar, "E")

    const linked = await sesameOidcSignIn("database", jar, "eve")
    expect(linked.headers.get("location")).toBe(home)
    await expectSignedIn("database", jar, "E")
    expect((await store.accounts()).filter((account) => account.userId === ids.E)).toEqual([
      { userId: ids.E, type: "oidc", provider: "dev", providerAccountId: "eve", access_token: expect.any(String) },
    ])
    signedIn.push({ person: "E", strategy: "database", jar })
  })

  it("nobody's earlier session was signed out by any of this", async () => {
    // The six carried over, A's pending link, and every sign-in since (E's, once Sesame's core links it).
    expect(signedIn.filter((entry) => entry.person !== "E")).toHaveLength(6 + 1 + 8 + 3 + 5)
    for (const { person, strategy, jar } of signedIn) await expectSignedIn(strategy, jar, person)
    // Every database session is a Sesame row (a hash), one per browser signed in with that strategy.
    const rows = await store.sessions()
    expect(rows).toHaveLength(signedIn.filter((entry) => entry.strategy === "database").length)
    for (const row of rows) expect(row.sessionToken).toMatch(/^[0-9a-f]{64}$/)
  })
})
