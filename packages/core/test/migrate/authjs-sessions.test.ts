/**
 * `migrateFrom: "authjs"` (issue 30, "sessions survive the switch"): Auth.js v5's JWT session
 * cookies and database sessions are carried over to Sesame's on their first read, and email links
 * Auth.js sent before the switch still work once; with the option off, none of it is read. Beside
 * the legitimate flows, the attack the option opens: a stored Sesame hash sent as Auth.js's cookie.
 */
import { createHash, randomUUID } from "node:crypto"
import { describe, expect, it, vi } from "vitest"
import { requireRecentSignIn, type AuthConfig } from "@sesame/core"
import { MemoryAdapter, type MemoryAdapterInstance } from "@sesame/core/adapters"
import type { Adapter } from "@sesame/core/adapters"
import { decode } from "@sesame/core/jwt"
import { outage } from "@sesame/testing"
import { aliceCredentials, CookieJar, frozenClock, jwtConfig, origin, recordingLogger, request, secret, send, signInAlice, users } from "../helpers.js"
import { emailConfig, followLink, lastLink, recordingEmail, requestLink, sessionOf } from "../email/helpers.js"
import { authjsCookieName, authjsCookies, authjsLinkHash, authjsLinkToken, authjsToken } from "./authjs.js"

const day = 86_400_000
const oldSecret = "the-authjs-apps-secret-0123456789-abcdefghijkl"
const sha256 = (value: string) => createHash("sha256").update(value).digest("hex")

/** A browser holding only Auth.js's session cookie (chunked when long). */
function authjsBrowser(value: string, name = authjsCookieName()): CookieJar {
  const jar = new CookieJar()
  for (const [cookie, chunk] of authjsCookies(value, name)) jar.cookies.set(cookie, chunk)
  return jar
}

function cookieNames(jar: CookieJar): string[] {
  return [...jar.cookies.keys()].sort()
}

/** The `Set-Cookie` lines of `res` that delete a cookie. */
function deleted(res: Response): string[] {
  return res.headers
    .getSetCookie()
    .filter((line) => line.includes("Max-Age=0"))
    .map((line) => line.slice(0, line.indexOf("=")))
    .sort()
}

/** The claims of the Sesame session cookie in `jar` (chunks joined). */
async function sesameClaims(jar: CookieJar, secrets: string | string[] = secret, name = "sesame.session-token") {
  let value = jar.get(name)
  if (value === undefined) value = [0, 1, 2, 3].map((i) => jar.get(`${name}.${i}`) ?? "").join("")
  return decode({ token: value, secret: secrets, salt: name })
}

const alice = { sub: users.alice.id, name: users.alice.name, email: users.alice.email, picture: null }

describe("Auth.js JWT sessions, with migrateFrom: \"authjs\"", () => {
  const config = (overrides: Partial<AuthConfig> = {}) => jwtConfig({ migrateFrom: "authjs", ...overrides })

  it("are read on their first request and re-issued as Sesame's: Sesame's cookie set, Auth.js's deleted, claims kept", async () => {
    const app = config()
    const jar = authjsBrowser(await authjsToken({ ...alice, role: "admin", tenant: { id: 7 } }, { secret }))
    const res = await send(app, "/auth/session", { jar })
    expect(await res.json()).toMatchObject({ user: { name: "Alice", email: users.alice.email, image: null } })
    expect(deleted(res)).toEqual(["authjs.session-token"])
    expect(cookieNames(jar)).toEqual(["sesame.authjs-carried", "sesame.session-token"])
    const claims = await sesameClaims(jar)
    expect(claims).toMatchObject({ ...alice, role: "admin", tenant: { id: 7 } })
    expect(claims!.exp! - claims!.iat!).toBe(30 * 86_400)

    // The next request carries Sesame's cookie only, and reads it as any Sesame session.
    const next = await send(app, "/auth/session", { jar })
    expect(await next.json()).toMatchObject({ user: { email: users.alice.email } })
    expect(next.headers.getSetCookie()).toEqual([])
  })

  it("do not say when the user signed in: an auth_time in the Auth.js token is dropped, and the session is not recent", async () => {
    const app = config()
    const jar = authjsBrowser(await authjsToken({ ...alice, auth_time: Math.floor(Date.now() / 1000), factors: ["webauthn"] }, { secret }))
    await send(app, "/auth/session", { jar })
    const claims = await sesameClaims(jar)
    expect(claims).not.toHaveProperty("auth_time")
    expect(claims).not.toHaveProperty("factors")
    const recent = await requireRecentSignIn(request("/settings", { jar }), app)
    expect(recent).toMatchObject({ recent: false, reason: "SignInTooOld" })
  })

  it("are read from every chunk, and every chunk is deleted", async () => {
    const app = config()
    const jar = authjsBrowser(await authjsToken({ ...alice, blob: "x".repeat(6000) }, { secret }))
    expect(cookieNames(jar)).toEqual(["authjs.session-token.0", "authjs.session-token.1", "authjs.session-token.2"])
    const res = await send(app, "/auth/session", { jar })
    expect(await res.json()).toMatchObject({ user: { email: users.alice.email } })
    expect(deleted(res)).toEqual(["authjs.session-token.0", "authjs.session-token.1", "authjs.session-token.2"])
    expect(cookieNames(jar).filter((name) => name !== "sesame.authjs-carried").every((name) => name.startsWith("sesame.session-token."))).toBe(true)
    expect((await sesameClaims(jar))!.blob).toBe("x".repeat(6000))
  })

  it("on https are read from __Secure-authjs.session-token (its name is the key's salt), not from the unprefixed name", async () => {
    const app = config()
    const secureName = authjsCookieName(true)
    const jar = authjsBrowser(await authjsToken(alice, { secret, salt: secureName }), secureName)
    const res = await send(app, "https://localhost:3000/auth/session", { jar })
    expect(await res.json()).toMatchObject({ user: { email: users.alice.email } })
    expect(deleted(res)).toEqual([secureName])
    expect(cookieNames(jar)).toEqual(["__Secure-sesame.authjs-carried", "__Secure-sesame.session-token"])
    expect(await sesameClaims(jar, secret, "__Secure-sesame.session-token")).toMatchObject(alice)

    const plain = authjsBrowser(await authjsToken(alice, { secret }))
    const refused = await send(app, "https://localhost:3000/auth/session", { jar: plain })
    expect(await refused.json()).toBeNull()
    expect(refused.headers.getSetCookie()).toEqual([])
  })

  it("are no session when expired: the cookie is deleted and nothing is issued", async () => {
    const jar = authjsBrowser(await authjsToken(alice, { secret, issuedAt: Date.now() - 31 * day }))
    const res = await send(config(), "/auth/session", { jar })
    expect(await res.json()).toBeNull()
    expect(deleted(res)).toEqual(["authjs.session-token"])
    expect(cookieNames(jar)).toEqual([])
  })

  it("are no session under another secret (or altered): the cookie is deleted", async () => {
    const jar = authjsBrowser(await authjsToken(alice, { secret: "someone-elses-secret-0123456789-abcdefghijk" }))
    const res = await send(config(), "/auth/session", { jar })
    expect(await res.json()).toBeNull()
    expect(deleted(res)).toEqual(["authjs.session-token"])
    expect(cookieNames(jar)).toEqual([])

    const token = await authjsToken(alice, { secret })
    const altered = authjsBrowser(`${token.slice(0, -4)}${token.endsWith("AAAA") ? "BBBB" : "AAAA"}`)
    expect(await (await send(config(), "/auth/session", { jar: altered })).json()).toBeNull()
  })

  it("are read under each secret of a rotation list, and re-issued under the newest", async () => {
    const app = config({ secret: [secret, oldSecret] })
    const jar = authjsBrowser(await authjsToken(alice, { secret: oldSecret }))
    expect(await (await send(app, "/auth/session", { jar })).json()).toMatchObject({ user: { email: users.alice.email } })
    expect(await sesameClaims(jar, secret)).toMatchObject(alice)
  })

  it("lose to Sesame's own cookie when both are sent: Auth.js's is only deleted", async () => {
    const app = config()
    const jar = new CookieJar()
    await signInAlice(app, jar)
    const bob = { sub: "2", name: "Bob", email: "bob@example.com", picture: null }
    for (const [name, value] of authjsCookies(await authjsToken(bob, { secret }))) jar.cookies.set(name, value)
    const res = await send(app, "/auth/session", { jar })
    expect(await res.json()).toMatchObject({ user: { email: users.alice.email } })
    expect(deleted(res)).toEqual(["authjs.session-token"])
  })

  it("are not carried over when the request carries the cookie twice (one planted beside the browser's)", async () => {
    const token = await authjsToken(alice, { secret })
    const res = await send(config(), "/auth/session", { cookie: `authjs.session-token=${token}; authjs.session-token=${token}` })
    expect(await res.json()).toBeNull()
    expect(res.headers.getSetCookie().some((line) => line.startsWith("sesame.session-token="))).toBe(false)
  })

  it("are not carried over with session.absoluteMaxAge: their start is unknown, so past any absolute end", async () => {
    const jar = authjsBrowser(await authjsToken(alice, { secret }))
    const res = await send(config({ session: { absoluteMaxAge: 7 * 86_400 } }), "/auth/session", { jar })
    expect(await res.json()).toBeNull()
    expect(cookieNames(jar)).toEqual([])
  })

  it("are ignored with the option off (the default): no session, and Auth.js's cookie is left alone", async () => {
    const jar = authjsBrowser(await authjsToken(alice, { secret }))
    const res = await send(jwtConfig(), "/auth/session", { jar })
    expect(await res.json()).toBeNull()
    expect(res.headers.getSetCookie()).toEqual([])
    expect(cookieNames(jar)).toEqual(["authjs.session-token"])
  })
})

describe("the option", () => {
  it('logs the warning migrate-from-authjs once when on, nothing when off; any other value is a configuration error', async () => {
    const { lines, logger } = recordingLogger()
    await send(jwtConfig({ migrateFrom: "authjs", logger }), "/auth/session")
    expect(lines.filter((line) => line === "migrate-from-authjs")).toHaveLength(1)
    const off = recordingLogger()
    await send(jwtConfig({ logger: off.logger }), "/auth/session")
    expect(off.lines).not.toContain("migrate-from-authjs")
    const wrong = recordingLogger()
    const res = await send(jwtConfig({ migrateFrom: "nextauth" as "authjs", logger: wrong.logger }), "/auth/session")
    expect(res.status).toBe(500)
    expect(wrong.lines.join("\n")).toContain('`migrateFrom` must be "authjs"')
  })
})

/** A user as Auth.js stored them, and a database session of theirs as Auth.js stored it (the raw token). */
async function authjsDatabase(adapter: MemoryAdapterInstance, { expiresIn = 20 * day } = {}) {
  const user = await adapter.createUser({ id: randomUUID(), name: "Ada", email: "ada@example.com", emailVerified: null })
  const sessionToken = randomUUID()
  const expires = new Date(Date.now() + expiresIn)
  await adapter.createSession({ sessionToken, userId: user.id, expires })
  return { user, sessionToken, expires }
}

function dbConfig(adapter: Adapter, overrides: Partial<AuthConfig> = {}): AuthConfig {
  return { secret, trustHost: true, adapter, providers: [aliceCredentials({ createUser: true })], migrateFrom: "authjs", ...overrides }
}

describe("Auth.js database sessions, with migrateFrom: \"authjs\"", () => {
  frozenClock("2026-12-01T09:00:00Z")

  it("are found by the raw token and re-keyed: the old row deleted, the new one stored as the hash, until the same expiry", async () => {
    const adapter = MemoryAdapter()
    // Extended by Auth.js an hour ago (its maxAge is 30 days): not due again for a day.
    const { user, sessionToken, expires } = await authjsDatabase(adapter, { expiresIn: 30 * day - 3_600_000 })
    const app = dbConfig(adapter)
    const jar = authjsBrowser(sessionToken)
    const res = await send(app, "/auth/session", { jar })
    expect(await res.json()).toEqual({ user: { name: "Ada", email: "ada@example.com", image: null }, expires: expires.toISOString() })
    expect(deleted(res)).toEqual(["authjs.session-token"])
    expect(cookieNames(jar)).toEqual(["sesame.authjs-carried", "sesame.session-token"])
    const token = jar.get("sesame.session-token")!
    expect(adapter.tables.sessions.has(sessionToken)).toBe(false)
    const rows = [...adapter.tables.sessions.values()]
    expect(rows).toHaveLength(1)
    expect(rows[0]).toMatchObject({ sessionToken: sha256(token), userId: user.id, expires, createdAt: null })

    // The next request carries Sesame's cookie only.
    const next = await send(app, "/auth/session", { jar })
    expect(await next.json()).toMatchObject({ user: { email: "ada@example.com" } })
    expect(cookieNames(jar)).toEqual(["sesame.authjs-carried", "sesame.session-token"])
    // Signed in, but not recently: when Ada signed in is not known.
    expect(await requireRecentSignIn(request("/settings", { jar }), app)).toMatchObject({ recent: false, reason: "SignInTooOld" })
  })

  it("are kept while the database is down (503, both cookies left as they are), and carried over once it is back", async () => {
    const adapter = MemoryAdapter()
    const { sessionToken } = await authjsDatabase(adapter)
    const storage = outage(adapter)
    const app = dbConfig(storage.adapter, { logger: recordingLogger().logger })
    const jar = authjsBrowser(sessionToken)
    storage.down()
    const during = await send(app, "/auth/session", { jar })
    expect(during.status).toBe(503)
    expect(during.headers.getSetCookie()).toEqual([])
    expect(cookieNames(jar)).toEqual(["authjs.session-token"])
    storage.up()
    const after = await send(app, "/auth/session", { jar })
    expect(await after.json()).toMatchObject({ user: { email: "ada@example.com" } })
    expect(cookieNames(jar)).toEqual(["sesame.authjs-carried", "sesame.session-token"])
  })

  it("are extended by the rule Auth.js and Sesame share when due: updateAge after their last extension", async () => {
    const adapter = MemoryAdapter()
    const { sessionToken } = await authjsDatabase(adapter, { expiresIn: 20 * day })
    const jar = authjsBrowser(sessionToken)
    const res = await send(dbConfig(adapter), "/auth/session", { jar })
    expect((await res.json()).expires).toBe(new Date(Date.now() + 30 * day).toISOString())
    expect([...adapter.tables.sessions.values()][0]!.expires).toEqual(new Date(Date.now() + 30 * day))
  })

  it("survive an answer whose cookies are lost (a server component): the next request finds the same session", async () => {
    const adapter = MemoryAdapter()
    const { sessionToken } = await authjsDatabase(adapter)
    const app = dbConfig(adapter)
    const cookie = `authjs.session-token=${sessionToken}`
    const first = await send(app, "/auth/session", { cookie })
    const second = await send(app, "/auth/session", { cookie })
    expect(await second.json()).toMatchObject({ user: { email: "ada@example.com" } })
    const issued = (res: Response) => res.headers.getSetCookie().find((line) => line.startsWith("sesame.session-token="))?.split(";")[0]
    expect(issued(second)).toBe(issued(first))
    expect(adapter.tables.sessions.size).toBe(1)
  })

  it("end with sign-out: Auth.js's cookie, kept somewhere, is no session afterwards", async () => {
    const adapter = MemoryAdapter()
    const { sessionToken } = await authjsDatabase(adapter)
    const app = dbConfig(adapter)
    const jar = authjsBrowser(sessionToken)
    await send(app, "/auth/session", { jar })
    const { csrfToken } = (await (await send(app, "/auth/csrf", { jar })).json()) as { csrfToken: string }
    await send(app, "/auth/signout", { jar, form: { csrfToken } })
    expect(adapter.tables.sessions.size).toBe(0)
    expect(await (await send(app, "/auth/session", { jar: authjsBrowser(sessionToken) })).json()).toBeNull()
  })

  it("are no session once expired: the row and the cookie are deleted, nothing is issued", async () => {
    const adapter = MemoryAdapter()
    const { sessionToken } = await authjsDatabase(adapter, { expiresIn: -60_000 })
    const jar = authjsBrowser(sessionToken)
    const res = await send(dbConfig(adapter), "/auth/session", { jar })
    expect(await res.json()).toBeNull()
    expect(deleted(res)).toEqual(["authjs.session-token"])
    expect(cookieNames(jar)).toEqual([])
    expect(adapter.tables.sessions.size).toBe(0)
  })

  it("work with an adapter that has only the spec's operations", async () => {
    const memory = MemoryAdapter()
    const { sessionToken } = await authjsDatabase(memory)
    const { createUser, getUser, getUserByEmail, getUserByAccount, linkAccount, createSession, getSessionAndUser, updateSession, deleteSession } = memory
    const specOnly: Adapter = { createUser, getUser, getUserByEmail, getUserByAccount, linkAccount, createSession, getSessionAndUser, updateSession, deleteSession }
    const { logger } = recordingLogger()
    const app = dbConfig(specOnly, { providers: [aliceCredentials()], logger })
    const jar = authjsBrowser(sessionToken)
    expect(await (await send(app, "/auth/session", { jar })).json()).toMatchObject({ user: { email: "ada@example.com" } })
    expect(await (await send(app, "/auth/session", { jar })).json()).toMatchObject({ user: { email: "ada@example.com" } })
    expect(memory.tables.sessions.has(sessionToken)).toBe(false)
  })

  it("are ignored with the option off: no session, the row and the cookie are left alone", async () => {
    const adapter = MemoryAdapter()
    const { sessionToken } = await authjsDatabase(adapter)
    const jar = authjsBrowser(sessionToken)
    const res = await send(dbConfig(adapter, { migrateFrom: undefined }), "/auth/session", { jar })
    expect(await res.json()).toBeNull()
    expect(res.headers.getSetCookie()).toEqual([])
    expect(adapter.tables.sessions.has(sessionToken)).toBe(true)
  })
})

describe("attack: a stored Sesame hash sent as Auth.js's cookie", () => {
  // Someone read the sessions table (a backup, a log): every Sesame row's `sessionToken` is the
  // SHA-256 hex of a live cookie. A raw lookup of that value would find the row itself.
  async function victim() {
    const adapter = MemoryAdapter()
    await authjsDatabase(adapter)
    const app = dbConfig(adapter)
    await signInAlice(app, new CookieJar())
    const stored = [...adapter.tables.sessions.values()].find((row) => /^[0-9a-f]{64}$/.test(row.sessionToken))!
    return { adapter, app, stored }
  }

  it("is refused: no session, no lookup, and the victim's row untouched", async () => {
    const { adapter, app, stored } = await victim()
    const lookups = vi.spyOn(adapter, "getSessionAndUser")
    const deletions = vi.spyOn(adapter, "deleteSession")
    const jar = authjsBrowser(stored.sessionToken)
    const res = await send(app, "/auth/session", { jar })
    expect(await res.json()).toBeNull()
    expect(res.headers.getSetCookie().some((line) => line.startsWith("sesame.session-token="))).toBe(false)
    expect(lookups).not.toHaveBeenCalledWith(stored.sessionToken)
    expect(deletions).not.toHaveBeenCalled()
    expect(adapter.tables.sessions.get(stored.sessionToken)).toEqual(stored)
  })

  it("is refused dressed up for a lenient database collation: upper case, trailing spaces, surrounding quotes", async () => {
    const { adapter, app, stored } = await victim()
    const hash = stored.sessionToken
    // A collation that folds case, pads spaces or ignores characters would match these to the row;
    // the memory adapter does not, so a lenient one is played by a lookup that normalises.
    const lenient = vi.spyOn(adapter, "getSessionAndUser").mockImplementation(async (value) => {
      const row = adapter.tables.sessions.get(value.trim().replace(/[^0-9a-f]/gi, "").toLowerCase())
      const user = row && adapter.tables.users.get(row.userId)
      return row && user ? { session: structuredClone(row), user: structuredClone(user) } : null
    })
    for (const dressed of [hash.toUpperCase(), `${hash}%20%20`, `"${hash}"`, `${hash}-`, `{${hash}}`]) {
      const res = await send(app, "/auth/session", { cookie: `authjs.session-token=${dressed}` })
      expect(await res.json(), dressed).toBeNull()
    }
    // The forms of a stored hash are never looked up; the others are, and the row found is refused
    // for not holding exactly the value sent.
    const looked = lenient.mock.calls.map(([value]) => value)
    for (const never of [hash, hash.toUpperCase(), `${hash}  `]) expect(looked).not.toContain(never)
    expect(looked).toContain(`${hash}-`)
    expect(adapter.tables.sessions.get(hash)).toEqual(stored)
  })

  it("beside it, a legitimate Auth.js token of the same database is carried over", async () => {
    const adapter = MemoryAdapter()
    const { sessionToken } = await authjsDatabase(adapter)
    const app = dbConfig(adapter)
    await signInAlice(app, new CookieJar())
    expect(await (await send(app, "/auth/session", { jar: authjsBrowser(sessionToken) })).json()).toMatchObject({ user: { email: "ada@example.com" } })
  })
})

describe("email links Auth.js sent before the switch, with migrateFrom: \"authjs\"", () => {
  const email = "ada@example.com"

  /** The record Auth.js stored and the link it mailed. */
  async function authjsLink(adapter: MemoryAdapterInstance, hashSecret: string | string[] = secret, expiresIn = 3_600_000) {
    const token = authjsLinkToken()
    await adapter.createVerificationToken({ identifier: email, token: authjsLinkHash(token, hashSecret), expires: new Date(Date.now() + expiresIn) })
    const query = new URLSearchParams({ callbackUrl: `${origin}/dashboard`, token, email })
    return `${origin}/auth/callback/email?${query}`
  }

  function setup(overrides: Partial<AuthConfig> = {}) {
    const { provider } = recordingEmail()
    return emailConfig([provider], { migrateFrom: "authjs", ...overrides })
  }

  it("work once: the link signs in as Sesame's own do, and its second use is refused", async () => {
    const { config, adapter } = setup()
    const link = await authjsLink(adapter)
    const jar = new CookieJar()
    const res = await followLink(config, jar, link)
    expect(res.status).toBe(302)
    expect(res.headers.get("location")).toBe(`${origin}/dashboard`)
    expect(await sessionOf(config, jar)).toMatchObject({ user: { email } })
    expect(adapter.tables.verificationTokens.size).toBe(0)

    const again = await followLink(config, new CookieJar(), link)
    expect(new URL(again.headers.get("location")!).searchParams.get("error")).toBe("Verification")
  })

  it("are refused once expired", async () => {
    const { config, adapter } = setup()
    const link = await authjsLink(adapter, secret, -60_000)
    const res = await followLink(config, new CookieJar(), link)
    expect(new URL(res.headers.get("location")!).searchParams.get("error")).toBe("Verification")
  })

  it("work under a rotated secret, and when the Auth.js app hashed with a secret array (comma-joined)", async () => {
    const rotated = setup({ secret: [secret, oldSecret] })
    const underOld = await authjsLink(rotated.adapter, oldSecret)
    expect((await followLink(rotated.config, new CookieJar(), underOld)).headers.get("location")).toBe(`${origin}/dashboard`)
    const underArray = await authjsLink(rotated.adapter, [secret, oldSecret])
    expect((await followLink(rotated.config, new CookieJar(), underArray)).headers.get("location")).toBe(`${origin}/dashboard`)
  })

  it("are refused with the option off, and the record is left alone", async () => {
    const { config, adapter } = setup({ migrateFrom: undefined })
    const link = await authjsLink(adapter)
    const res = await followLink(config, new CookieJar(), link)
    expect(new URL(res.headers.get("location")!).searchParams.get("error")).toBe("Verification")
    expect(adapter.tables.verificationTokens.size).toBe(1)
  })

  it("leave Sesame's own links as they were: a Sesame link works once with the option on", async () => {
    const { provider, sent } = recordingEmail()
    const { config } = emailConfig([provider], { migrateFrom: "authjs" })
    const jar = new CookieJar()
    await requestLink(config, jar, email)
    const link = lastLink(sent)
    expect((await followLink(config, jar, link)).headers.get("location")).toBe(`${origin}/`)
    const again = await followLink(config, new CookieJar(), link)
    expect(new URL(again.headers.get("location")!).searchParams.get("error")).toBe("Verification")
  })
})
