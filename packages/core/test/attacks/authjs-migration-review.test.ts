/**
 * A review, as an attacker, of the account-linking policy that replaced "reclaim" (set-aside,
 * the `sesame:unproven:<id>` mark) and of `migrateFrom: "authjs"` (Auth.js session cookies,
 * database sessions and email links carried over), issue 30.
 *
 * Each test performs one attack and asserts that it fails. Eight of them succeeded when the review
 * was made and were fixed with it: a guessable placeholder address, a mark lost with a failed
 * set-aside, two proofs at once, a proof right after the squatter's user was created, a JWT whose
 * app moved the address out of `email`, parallel first requests of a carried-over session, a
 * planted chunk beside Auth.js's cookie, and an Auth.js cookie that Sesame cannot delete signing
 * the browser back in after a sign-out.
 */
import { randomUUID } from "node:crypto"
import { requireRecentSignIn, type AuthConfig, type OIDCConfig } from "@sesame/core"
import { MemoryAdapter, type Adapter, type MemoryAdapterInstance } from "@sesame/core/adapters"
import { encode, getToken } from "@sesame/core/jwt"
import Passkey from "@sesame/core/providers/passkey"
import { SoftAuthenticator } from "@sesame/testing"
import { describe, expect, it, vi } from "vitest"
import { specOnlyAdapter } from "../adapters/spec-only.js"
import { confirmPage, followLink, interceptAdapter, lastLink, openLink, recordingEmail, requestLink } from "../email/helpers.js"
import { CookieJar, csrfToken, origin, request, secret, send, setAsideAddressOf } from "../helpers.js"
import { authjsCookieName, authjsLinkHash, authjsLinkToken, authjsToken } from "../migrate/authjs.js"
import { atProvider, callbackUrl, client, clientSecret, deliver, startIdp, startSignIn } from "../oauth/harness.js"
import { askOptions, authenticate, postResponse, quietLogger, register, session } from "../webauthn/harness.js"

const address = "alice@example.com"
// The placeholder as it was before the review (`unproven+<id>@sesame.invalid`): guessable, and so
// claimable by the squatter ahead of the owner's proof. It now carries a random part.
const placeholder = (id: string) => `unproven+${id}@sesame.invalid`

interface Target {
  config: AuthConfig
  /** The raw tables of the memory store behind the adapter. */
  tables: MemoryAdapterInstance["tables"]
  sent: ReturnType<typeof recordingEmail>["sent"]
}

/** Passkeys and email links on `adapter` (a memory store, or a view of one), as an app would have them. */
function passkeyApp(store: { adapter: Adapter; tables: MemoryAdapterInstance["tables"] }, overrides: Partial<AuthConfig> = {}): Target {
  const email = recordingEmail()
  const config: AuthConfig = {
    secret,
    trustHost: true,
    adapter: store.adapter,
    providers: [Passkey(), email.provider],
    experimental: { enableWebAuthn: true },
    logger: quietLogger().logger,
    migrateFrom: "authjs",
    ...overrides,
  }
  return { config, tables: store.tables, sent: email.sent }
}

const memory = () => {
  const adapter = MemoryAdapter()
  return { adapter, tables: adapter.tables }
}

/** The memory adapter with real transactions: everything written in one is undone when it throws (as the SQL adapters do). */
function transactional() {
  const store = MemoryAdapter()
  const restore = (saved: Record<string, Map<unknown, unknown>>) => {
    for (const [name, table] of Object.entries(store.tables) as [string, Map<unknown, unknown>][]) {
      table.clear()
      for (const [key, value] of saved[name]!) table.set(key, value)
    }
  }
  const adapter: Adapter = {
    ...store,
    async transaction(fn) {
      const saved = Object.fromEntries(Object.entries(store.tables).map(([name, table]) => [name, structuredClone(table)]))
      try {
        return await fn(adapter)
      } catch (error) {
        restore(saved)
        throw error
      }
    },
  }
  return { adapter, tables: store.tables }
}

/**
 * `store` seen through a proxy that holds the first `parties` calls of `method` whose first
 * argument passes `when` until all of them have arrived (or a second has passed): two requests
 * made to race, deterministically, through `Auth()` or the Node.js handler alike.
 */
function meetAt<A extends object>(store: A, method: string, when: (arg: never) => boolean, parties = 2): A {
  const waiting: (() => void)[] = []
  let left = parties
  return new Proxy(store, {
    get(target, name, receiver) {
      const value = Reflect.get(target, name, receiver) as (...args: unknown[]) => unknown
      if (name !== method || typeof value !== "function") return value
      return async (...args: unknown[]) => {
        if (left > 0 && when(args[0] as never)) {
          left--
          await new Promise<void>((go) => {
            waiting.push(go)
            if (waiting.length === parties) for (const release of waiting) release()
            setTimeout(go, 1000)
          })
        }
        return value.apply(target, args)
      }
    },
  })
}

const userWith = (target: Target, email: string) => [...target.tables.users.values()].find((user) => user.email === email)
const emailOf = async (target: Target, jar: CookieJar) => ((await session(target.config, jar))?.user?.email as string | undefined) ?? null

/** A squatter's passkey sign-up with the victim's address: an unproven user, marked. */
async function squat(target: Target, email = address) {
  const key = new SoftAuthenticator()
  const jar = new CookieJar()
  await register(target.config, jar, key, email)
  return { key, jar, user: userWith(target, email)! }
}

/** The owner proves the address by email link; returns where the flow ended. */
async function prove(target: Target, jar: CookieJar): Promise<string> {
  await requestLink(target.config, jar, address)
  return (await followLink(target.config, jar, lastLink(target.sent))).headers.get("location")!
}

describe("the unproven mark (a verification-token row sesame:unproven:<id>)", () => {
  it("can be neither used as a sign-in link nor consumed through the email callback, Sesame's hash or Auth.js's", async () => {
    const target = passkeyApp(memory())
    const { user } = await squat(target)
    const mark = `sesame:unproven:${user.id}`
    const jar = new CookieJar()
    for (const [email, token] of [
      [mark, `unproven:${user.id}`],
      [mark, user.id],
      [address, `unproven:${user.id}`],
    ] as const) {
      const page = await openLink(target.config, jar, `${origin}/auth/callback/email?${new URLSearchParams({ email, token })}`)
      const done = await confirmPage(target.config, jar, page)
      expect(new URL(done.headers.get("location")!).searchParams.get("error"), email).toBe("Verification")
    }
    expect(await session(target.config, jar)).toBeNull()
    expect([...target.tables.verificationTokens.values()].map((row) => row.identifier)).toContain(mark)
    // Nor can anyone have a link "sent" to the mark's identifier (which would store a row under it).
    const asked = await requestLink(target.config, new CookieJar(), mark)
    expect(new URL(asked.headers.get("location")!).searchParams.get("error")).toBe("EmailSignin")
    expect(target.sent).toHaveLength(0)
    // The mark still does its work: the owner's proof sets the squatter aside.
    expect(await prove(target, new CookieJar())).toBe(`${origin}/`)
    expect(target.tables.users.get(user.id)?.email).toMatch(setAsideAddressOf(user.id))
  })
})

describe("set-aside", () => {
  // The squatter knows his own user's id (apps commonly expose `session.user.id`; Auth.js's pg
  // adapter hands out SERIAL ids). He signs up a second time with the placeholder the set-aside
  // will need, so that `updateUser` fails on the unique address after the mark was taken.
  it("a squatter holding the old, guessable placeholder address cannot make the owner's proof merge the owner into his user (adapter without transactions, as Auth.js's)", async () => {
    const target = passkeyApp(specOnlyAdapter())
    const { key, user } = await squat(target)
    await register(target.config, new CookieJar(), new SoftAuthenticator(), placeholder(user.id))
    const first = await prove(target, new CookieJar())
    const owner = new CookieJar()
    const second = await prove(target, owner)
    const attacker = new CookieJar()
    await authenticate(target.config, attacker, key)
    // Before the fix, the first proof failed (error=Configuration) after taking the mark; the second
    // found an unverified user without a mark and verified it, squatter's passkey and all.
    expect(userWith(target, address)?.id).not.toBe(user.id)
    expect(await emailOf(target, attacker)).not.toBe(address)
    expect({ first, second }).toEqual({ first: `${origin}/`, second: `${origin}/` })
  })

  it("with transactions (Sesame's SQL adapters) the same squat does not lock the owner out of their address", async () => {
    const target = passkeyApp(transactional())
    const { user } = await squat(target)
    await register(target.config, new CookieJar(), new SoftAuthenticator(), placeholder(user.id))
    const owner = new CookieJar()
    const where = [await prove(target, owner), await prove(target, owner)]
    expect(where).toEqual([`${origin}/`, `${origin}/`])
    expect(await emailOf(target, owner)).toBe(address)
  })

  it("of two proofs at once (two email links confirmed together), the second does not sign the owner into the squatter's set-aside user", async () => {
    const store = MemoryAdapter()
    const markTaken = ({ identifier }: { identifier: string }) => identifier.startsWith("sesame:unproven:")
    const target = passkeyApp({ adapter: meetAt(store, "useVerificationToken", markTaken), tables: store.tables })
    const { user } = await squat(target)
    const a = new CookieJar()
    const b = new CookieJar()
    await requestLink(target.config, a, address)
    const pageA = await openLink(target.config, a, lastLink(target.sent))
    await requestLink(target.config, b, address)
    const pageB = await openLink(target.config, b, lastLink(target.sent))
    await Promise.all([confirmPage(target.config, a, pageA), confirmPage(target.config, b, pageB)])
    // Both owner browsers are in the owner's user, or (the second, while the first is still making
    // it) refused with a link to follow again; never in the one the squatter's passkey reaches.
    expect(await emailOf(target, a)).toBe(address)
    expect([address, null]).toContain(await emailOf(target, b))
    expect(target.tables.users.get(user.id)?.emailVerified ?? null).toBeNull()
    expect(target.tables.users.get(user.id)?.email).toMatch(setAsideAddressOf(user.id))
  })

  it("a proof that lands right after the squatter's createUser (no transactions) does not hand the owner the squatter's user", async () => {
    const store = MemoryAdapter()
    let hold: { reached: () => void; release: Promise<void> } | undefined
    const adapter = interceptAdapter(store, async (method) => {
      // Held once the squatter's user exists (its mark is written before it: `createUnprovenUser`).
      if (method !== "linkAccount" || !hold) return
      const held = hold
      hold = undefined
      held.reached()
      await held.release
    })
    const target = passkeyApp({ adapter, tables: store.tables })
    const owner = new CookieJar()
    await requestLink(target.config, owner, address)
    const page = await openLink(target.config, owner, lastLink(target.sent))
    const key = new SoftAuthenticator()
    const squatter = new CookieJar()
    const asked = await askOptions(target.config, squatter, { action: "register", email: address })
    let release!: () => void
    const reached = new Promise<void>((resolve) => {
      hold = { reached: resolve, release: new Promise<void>((go) => (release = go)) }
    })
    const signUp = postResponse(target.config, squatter, "register", key.register(asked.options as never, { origin }))
    // The squatter's user exists, his passkey not yet linked (or a second passed: a fixed order may never hold here).
    await Promise.race([reached, new Promise((go) => setTimeout(go, 1000))])
    await confirmPage(target.config, owner, page)
    release()
    await signUp
    const ownerId = userWith(target, address)?.id
    expect([...store.tables.authenticators.values()].map((a) => a.userId)).not.toContain(ownerId)
  })

  it("a lying provider trusted with allowDangerousEmailAccountLinking does not enter the unproven user: it is set aside", async () => {
    const idp = await startIdp({ clients: [client("loose")], accounts: [{ id: "mallory", email: address, name: "Not Alice", email_verified: false }] })
    try {
      const loose: OIDCConfig = {
        id: "loose", name: "loose", type: "oidc", issuer: idp.issuer, clientId: "loose", clientSecret,
        checks: ["pkce", "nonce"], allowDangerousEmailAccountLinking: true, isEmailVerified: () => true,
      }
      const target = passkeyApp(memory())
      target.config.providers = [...target.config.providers!, loose]
      const { user, key } = await squat(target)
      const jar = new CookieJar()
      const start = await startSignIn(target.config, jar, "loose", { query: { login_hint: "mallory" } })
      await deliver(target.config, jar, await atProvider(start.headers.get("location")!, callbackUrl("loose")))
      expect(userWith(target, address)?.id).not.toBe(user.id)
      const passkeyHolder = new CookieJar()
      await authenticate(target.config, passkeyHolder, key)
      expect(await emailOf(target, passkeyHolder)).toMatch(setAsideAddressOf(user.id))
    } finally {
      await idp.close()
    }
  })

  it("a placeholder address tells nothing: asking a link for it answers as for any address", async () => {
    const target = passkeyApp(memory())
    const { user } = await squat(target)
    await prove(target, new CookieJar())
    const forAside = await requestLink(target.config, new CookieJar(), target.tables.users.get(user.id)!.email)
    const forNobody = await requestLink(target.config, new CookieJar(), placeholder(randomUUID()))
    expect(forAside.status).toBe(302)
    expect(forAside.headers.get("location")).toBe(forNobody.headers.get("location"))
  })
})

describe("JWT sessions of a set-aside squatter", () => {
  it("end at the session endpoint, and getToken({ adapter }) agrees (null after, the token before)", async () => {
    const store = memory()
    const target = passkeyApp(store, { session: { strategy: "jwt" } })
    const { jar } = await squat(target)
    const read = () => getToken({ req: request("/", { jar }), secret, adapter: store.adapter })
    expect(await read()).toMatchObject({ email: address, email_unverified: address })
    await prove(target, new CookieJar())
    expect(await read()).toBeNull()
    expect(await session(target.config, jar)).toBeNull()
  })

  it("end even when the app's jwt callback keeps the address under another claim than `email`", async () => {
    const target = passkeyApp(memory(), {
      session: { strategy: "jwt" },
      callbacks: {
        // Legal app code: the address kept as `contact`, shown by the session callback.
        jwt: ({ token }) => {
          const { email, ...rest } = token
          return email ? { ...rest, contact: email } : token
        },
        session: ({ session, token }) => ({ ...session, user: { ...session.user, email: (token?.contact as string) ?? null } }),
      },
    })
    const { jar } = await squat(target)
    expect(await emailOf(target, jar)).toBe(address)
    await prove(target, new CookieJar())
    expect(await emailOf(target, jar)).not.toBe(address)
  })
})

const day = 86_400_000

/** Ada as Auth.js stored her, with a database session (the raw token in the row). */
async function authjsDatabase() {
  const store = MemoryAdapter()
  const user = await store.createUser({ id: randomUUID(), name: "Ada", email: "ada@example.com", emailVerified: null })
  const sessionToken = randomUUID()
  await store.createSession({ sessionToken, userId: user.id, expires: new Date(Date.now() + 20 * day) })
  const email = recordingEmail()
  const config: AuthConfig = { secret, trustHost: true, adapter: store, providers: [email.provider], logger: quietLogger().logger, migrateFrom: "authjs" }
  return { store, config, sessionToken, sent: email.sent }
}

describe("Auth.js database sessions", () => {
  it("a stored hash, in every dress a cookie header allows, is never looked up nor a session; nor is a carried-over session's hash", async () => {
    const { store, config, sessionToken, sent } = await authjsDatabase()
    await send(config, "/auth/session", { cookie: `authjs.session-token=${sessionToken}` })
    const fresh = new CookieJar()
    await requestLink(config, fresh, "grace@example.com")
    await followLink(config, fresh, lastLink(sent))
    const hashes = [...store.tables.sessions.keys()]
    expect(hashes).toHaveLength(2)
    const lookups = vi.spyOn(store, "getSessionAndUser")
    for (const hash of hashes) {
      const mixed = [...hash].map((c, i) => (i % 2 ? c.toUpperCase() : c)).join("")
      const percent = [...hash].map((c) => `%${c.charCodeAt(0).toString(16)}`).join("")
      for (const dressed of [hash, hash.toUpperCase(), mixed, percent, `"${hash}"`, ` ${hash} `]) {
        const res = await send(config, "/auth/session", { cookie: `authjs.session-token=${dressed}` })
        expect(res.status).toBe(200)
        expect(await res.json(), dressed).toBeNull()
      }
    }
    const looked = lookups.mock.calls.map(([value]) => value.toLowerCase())
    for (const hash of hashes) expect(looked).not.toContain(hash)
    expect(store.tables.sessions.size).toBe(2)
  })

  it("odd cookie values are no session and never a server error", async () => {
    const { config } = await authjsDatabase()
    for (const value of ["ü", "x".repeat(600), "%zz", "a b", "..", "\\u0000", "abc;"]) {
      const res = await send(config, "/auth/session", { cookie: `authjs.session-token=${value}` })
      expect(res.status, value).toBe(200)
      expect(await res.json(), value).toBeNull()
    }
  })

  it("a page's parallel first requests all find the one session carried over", async () => {
    const { store, config, sessionToken } = await authjsDatabase()
    const cookie = `authjs.session-token=${sessionToken}`
    const racing = { ...config, adapter: meetAt(store, "createSession", () => true) }
    const answers = await Promise.all([1, 2].map(() => send(racing, "/auth/session", { cookie })))
    expect(answers.map((res) => res.status)).toEqual([200, 200])
    const bodies = await Promise.all(answers.map((res) => res.json()))
    // Today: one answers the session, the other null (createSession conflicts, logged as an error).
    expect(bodies.map((body) => body?.user?.email ?? null)).toEqual(["ada@example.com", "ada@example.com"])
    expect(store.tables.sessions.size).toBe(1)
  })

  it("a carried-over session is not made recent by a start cookie from another, fresh session of the same user", async () => {
    const { adapter, tables } = specOnlyAdapter()
    const user = await adapter.createUser({ id: randomUUID(), name: "Ada", email: "ada@example.com", emailVerified: new Date() })
    const sessionToken = randomUUID()
    await adapter.createSession({ sessionToken, userId: user.id, expires: new Date(Date.now() + 20 * day) })
    const email = recordingEmail()
    const config: AuthConfig = { secret, trustHost: true, adapter, providers: [email.provider], logger: quietLogger().logger, migrateFrom: "authjs", session: { strategy: "database" } }
    const fresh = new CookieJar()
    await requestLink(config, fresh, "ada@example.com")
    await followLink(config, fresh, lastLink(email.sent))
    expect(fresh.get("sesame.session-start")).toBeDefined()
    const carried = new CookieJar()
    await send(config, "/auth/session", { cookie: `authjs.session-token=${sessionToken}`, jar: carried })
    carried.cookies.set("sesame.session-start", fresh.cookies.get("sesame.session-start")!)
    expect(await requireRecentSignIn(request("/settings", { jar: carried }), config)).toMatchObject({ recent: false })
    expect(tables.sessions.size).toBe(2)
  })
})

describe("Auth.js JWT session cookies", () => {
  const config = (): AuthConfig => ({ secret, trustHost: true, providers: [recordingEmail().provider], adapter: MemoryAdapter(), session: { strategy: "jwt" }, logger: quietLogger().logger, migrateFrom: "authjs" })
  const alice = { sub: "1", name: "Alice", email: address }
  const mallory = { sub: "666", name: "Mallory", email: "mallory@example.com" }

  it("a Sesame token in Auth.js's cookie, or one Auth.js sealed for another cookie name, is not read", async () => {
    const app = config()
    const sesameToken = await encode({ token: alice, secret, salt: "sesame.session-token" })
    const otherSalt = await authjsToken(alice, { secret, salt: "authjs.csrf-token" })
    for (const value of [sesameToken, otherSalt]) {
      const res = await send(app, "/auth/session", { cookie: `${authjsCookieName()}=${value}` })
      expect(await res.json()).toBeNull()
    }
    const junkHeader = "eyJhbGciOiJkaXIiLCJlbmMiOiJBMTI4R0NNIn0..a.b.c"
    const res = await send(app, "/auth/session", { cookie: `${authjsCookieName()}=${junkHeader}` })
    expect(res.status).toBe(200)
  })

  // A sibling subdomain (or, on http, the network) can add a cookie but not replace the browser's
  // host-only one; the carry-over refuses a name sent twice for that reason. A chunk is another name.
  it("a planted chunk `authjs.session-token.0` beside the browser's own `authjs.session-token` does not sign the victim in as the planter", async () => {
    const app = config()
    const victims = await authjsToken(alice, { secret })
    const planted = await authjsToken(mallory, { secret })
    const res = await send(app, "/auth/session", { cookie: `authjs.session-token=${victims}; authjs.session-token.0=${planted}` })
    expect((await res.json())?.user?.email ?? null).not.toBe(mallory.email)
  })
})

describe("sign-out after a carry-over", () => {
  // An Auth.js app that shared its session across subdomains set the cookie with `Domain=`;
  // Sesame's host-only deletion does not remove that cookie, so the browser keeps sending it.
  it("an Auth.js JWT cookie the browser keeps sending does not sign it back in after sign-out", async () => {
    const app: AuthConfig = { secret, trustHost: true, providers: [recordingEmail().provider], adapter: MemoryAdapter(), session: { strategy: "jwt" }, logger: quietLogger().logger, migrateFrom: "authjs" }
    const authjs = await authjsToken({ sub: "1", name: "Alice", email: address }, { secret })
    const jar = new CookieJar()
    const keep = () => jar.cookies.set(authjsCookieName(), authjs)
    keep()
    expect(await emailOf({ config: app } as Target, jar)).toBe(address)
    keep()
    const out = await send(app, "/auth/signout", { jar, form: { csrfToken: await csrfToken(app, jar) } })
    expect(out.status).toBe(302)
    keep()
    expect(await session(app, jar)).toBeNull()
  })
})

describe("Auth.js email links", () => {
  it("are bound to their address, and never stand in for Sesame's one-time values of another kind", async () => {
    const email = recordingEmail()
    const store = MemoryAdapter()
    const config: AuthConfig = { secret, trustHost: true, adapter: store, providers: [email.provider], logger: quietLogger().logger, migrateFrom: "authjs" }
    const token = authjsLinkToken()
    await store.createVerificationToken({ identifier: "ada@example.com", token: authjsLinkHash(token, secret), expires: new Date(Date.now() + 3_600_000) })
    // Auth.js's link for Ada, sent with another address.
    const jar = new CookieJar()
    const page = await openLink(config, jar, `${origin}/auth/callback/email?${new URLSearchParams({ token, email: address })}`)
    const refused = await confirmPage(config, jar, page)
    expect(new URL(refused.headers.get("location")!).searchParams.get("error")).toBe("Verification")
    expect(store.tables.verificationTokens.size).toBe(1)
    // A Sesame link's token for Alice is not an Auth.js token for Ada, nor the reverse.
    await requestLink(config, new CookieJar(), address)
    const sesameToken = new URL(lastLink(email.sent)).searchParams.get("token")!
    for (const [t, e] of [[sesameToken, "ada@example.com"], [token, address]] as const) {
      const p = await openLink(config, jar, `${origin}/auth/callback/email?${new URLSearchParams({ token: t, email: e })}`)
      expect(new URL((await confirmPage(config, jar, p)).headers.get("location")!).searchParams.get("error")).toBe("Verification")
    }
    expect(store.tables.verificationTokens.size).toBe(2)
  })

  it("one stored under an address Auth.js did not fold as Sesame does (full-width) never enters the folded address's user", async () => {
    const store = MemoryAdapter()
    const config: AuthConfig = { secret, trustHost: true, adapter: store, providers: [recordingEmail().provider], logger: quietLogger().logger, migrateFrom: "authjs" }
    const alice = await store.createUser({ id: randomUUID(), name: "Alice", email: address, emailVerified: new Date() })
    const lookalike = "ａｌｉｃｅ@example.com" // Auth.js lower-cases and trims, nothing more
    const token = authjsLinkToken()
    await store.createVerificationToken({ identifier: lookalike, token: authjsLinkHash(token, secret), expires: new Date(Date.now() + 3_600_000) })
    const jar = new CookieJar()
    await followLink(config, jar, `${origin}/auth/callback/email?${new URLSearchParams({ token, email: lookalike })}`)
    const signedIn = await session(config, jar)
    expect(signedIn?.user?.email ?? null).not.toBe(address)
    expect(store.tables.sessions.size === 0 || [...store.tables.sessions.values()].every((row) => row.userId !== alice.id)).toBe(true)
  })
})
