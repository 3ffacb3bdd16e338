/**
 * The sign-in decision for OAuth accounts, with an adapter: new users, returning users, linking,
 * and the email rule, with database and JWT sessions.
 */
import type { DevIdp } from "@sesame/dev-idp"
import type { AuthConfig } from "@sesame/core"
import { decode } from "@sesame/core/jwt"
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest"
import { CookieJar, origin, secret } from "../helpers.js"
import { client, expectRejected, oidc, quietLogger, session, signIn, startIdp, withAdapter } from "./harness.js"
import { accountSubject } from "../../src/account/subject.js"

let idp: DevIdp

beforeAll(async () => {
  idp = await startIdp({ clients: [client("dev"), client("other")] })
})
afterAll(() => idp.close())

function providers() {
  return [oidc(idp), oidc(idp, { id: "other", name: "Other IdP", clientId: "other" })]
}

const asBob = { query: { login_hint: "bob" } }

describe.each(["database", "jwt"] as const)("with an adapter and %s sessions", (strategy) => {
  function setup(overrides: Partial<AuthConfig> = {}) {
    return withAdapter({ session: { strategy }, providers: providers(), ...overrides })
  }

  it("first sign-in creates the user and links the account, with createUser, linkAccount and signIn (isNewUser) events", async () => {
    const events = { createUser: vi.fn(), linkAccount: vi.fn(), signIn: vi.fn() }
    const { adapter, config } = setup({ events })
    const jar = new CookieJar()
    const callback = await signIn(config, jar)
    expect(callback.headers.get("location")).toBe(`${origin}/`)

    const [user] = [...adapter.tables.users.values()]
    // The dev IdP asserts email_verified, so the user starts verified.
    expect(user).toMatchObject({ email: "alice@example.com", name: "Alice Liddell", emailVerified: expect.any(Date) })
    expect(user!.id).not.toBe("alice")
    const [account] = [...adapter.tables.accounts.values()]
    expect(account).toMatchObject({ provider: "dev", type: "oidc", providerAccountId: "alice", userId: user!.id, token_type: "bearer", scope: "openid profile email" })
    expect(Object.keys(account!).sort()).toEqual(
      ["access_token", "expires_at", "id_token", "provider", "providerAccountId", "refresh_token", "scope", "token_type", "type", "userId"].sort(),
    )
    expect(account!.expires_at).toBeGreaterThan(Date.now() / 1000 + 3500)

    expect(events.createUser).toHaveBeenCalledWith({ user })
    expect(events.linkAccount).toHaveBeenCalledWith(expect.objectContaining({ user, account }))
    expect(events.signIn).toHaveBeenCalledWith(
      expect.objectContaining({
        user,
        isNewUser: true,
        account: expect.objectContaining({ provider: "dev", providerAccountId: "alice", access_token: expect.any(String), expires_in: 3600 }),
        profile: expect.objectContaining({ sub: "alice", email: "alice@example.com" }),
      }),
    )
    expect(await session(config, jar)).toMatchObject({ user: { name: "Alice Liddell", email: "alice@example.com" } })
    if (strategy === "database") {
      expect(adapter.tables.sessions.size).toBe(1)
      expect([...adapter.tables.sessions.values()][0]!.userId).toBe(user!.id)
    } else {
      const token = await decode({ token: jar.get("sesame.session-token"), secret, salt: "sesame.session-token" })
      expect(token?.sub).toBe(user!.id)
    }
  })

  it("a returning user is found by the account: no new user, fresh tokens stored, isNewUser false", async () => {
    const events = { createUser: vi.fn(), signIn: vi.fn() }
    const signInCallback = vi.fn(() => true)
    const { adapter, config } = setup({ events, callbacks: { signIn: signInCallback } })
    await signIn(config, new CookieJar())
    const firstToken = [...adapter.tables.accounts.values()][0]!.access_token
    const jar = new CookieJar()
    await signIn(config, jar)
    expect(adapter.tables.users.size).toBe(1)
    expect(adapter.tables.accounts.size).toBe(1)
    expect(events.createUser).toHaveBeenCalledTimes(1)
    expect(events.signIn).toHaveBeenLastCalledWith(expect.objectContaining({ isNewUser: false }))
    expect([...adapter.tables.accounts.values()][0]!.access_token).not.toBe(firstToken)
    // The signIn callback sees the stored user of a returning account.
    const stored = [...adapter.tables.users.values()][0]
    expect(signInCallback).toHaveBeenLastCalledWith(expect.objectContaining({ user: stored }))
    expect(await session(config, jar)).toMatchObject({ user: { email: "alice@example.com" } })
  })

  it("a signed-in user who signs in with a second provider gets that account linked", async () => {
    const linkAccount = vi.fn()
    const { adapter, config } = setup({ events: { linkAccount } })
    const jar = new CookieJar()
    await signIn(config, jar, "dev")
    // Another provider, and another identity there: it still joins the signed-in user.
    await signIn(config, jar, "other", asBob)
    expect(adapter.tables.users.size).toBe(1)
    const [user] = [...adapter.tables.users.values()]
    const accounts = [...adapter.tables.accounts.values()]
    expect(accounts.map((a) => [a.provider, a.providerAccountId, a.userId])).toEqual([
      ["dev", "alice", user!.id],
      ["other", "bob", user!.id],
    ])
    expect(linkAccount).toHaveBeenLastCalledWith(expect.objectContaining({ user: expect.objectContaining({ id: user!.id }), account: expect.objectContaining({ provider: "other" }) }))
    expect(await session(config, jar)).toMatchObject({ user: { email: "alice@example.com" } })
  })

  it("an email that already belongs to a user is OAuthAccountNotLinked, and nothing is linked", async () => {
    const { logger } = quietLogger()
    const { adapter, config } = setup({ logger })
    await signIn(config, new CookieJar(), "dev")
    const jar = new CookieJar()
    await expectRejected(config, jar, await signIn(config, jar, "other"), "OAuthAccountNotLinked")
    expect(adapter.tables.accounts.size).toBe(1)
    expect(adapter.tables.users.size).toBe(1)
  })

  it("allowDangerousEmailAccountLinking links it to the user with that email", async () => {
    const linkAccount = vi.fn()
    const dangerous = [oidc(idp), oidc(idp, { id: "other", clientId: "other", allowDangerousEmailAccountLinking: true })]
    const { adapter, config } = setup({ providers: dangerous, events: { linkAccount } })
    await signIn(config, new CookieJar(), "dev")
    const jar = new CookieJar()
    await signIn(config, jar, "other")
    const [user] = [...adapter.tables.users.values()]
    expect(adapter.tables.users.size).toBe(1)
    expect([...adapter.tables.accounts.values()].map((a) => a.userId)).toEqual([user!.id, user!.id])
    expect(linkAccount).toHaveBeenCalledTimes(2)
    expect(await session(config, jar)).toMatchObject({ user: { email: "alice@example.com" } })
  })

  it("an account linked to another user, while someone is signed in, is OAuthAccountNotLinked", async () => {
    const { logger } = quietLogger()
    const { adapter, config } = setup({ logger })
    await signIn(config, new CookieJar(), "dev", asBob)
    const jar = new CookieJar()
    await signIn(config, jar, "dev")
    const before = jar.get("sesame.session-token")
    const callback = await signIn(config, jar, "dev", asBob)
    expect(new URL(callback.headers.get("location")!).searchParams.get("error")).toBe("OAuthAccountNotLinked")
    // Alice stays signed in as herself; Bob's account stays Bob's.
    expect(jar.get("sesame.session-token")).toBe(before)
    expect(await session(config, jar)).toMatchObject({ user: { email: "alice@example.com" } })
    const bob = [...adapter.tables.users.values()].find((u) => u.email === "bob@example.com")!
    expect(adapter.tables.accounts.get(`dev\u0000bob`)?.userId).toBe(bob.id)
  })

  it("sends first-time users to pages.newUser, with the callback URL", async () => {
    const { config } = setup({ pages: { newUser: "/welcome" } })
    const jar = new CookieJar()
    const first = await signIn(config, jar, "dev", { fields: { callbackUrl: "/app" } })
    expect(first.headers.get("location")).toBe(`${origin}/welcome?callbackUrl=${encodeURIComponent(`${origin}/app`)}`)
    const second = await signIn(config, new CookieJar(), "dev", { fields: { callbackUrl: "/app" } })
    expect(second.headers.get("location")).toBe(`${origin}/app`)
  })

  it("a signIn callback that refuses ends with AccessDenied, and creates nothing", async () => {
    const { logger } = quietLogger()
    const { adapter, config } = setup({ logger, callbacks: { signIn: ({ profile }) => profile?.email !== "alice@example.com" } })
    const jar = new CookieJar()
    const callback = await signIn(config, jar)
    expect(callback.headers.get("location")).toBe(`${origin}/auth/error?error=AccessDenied`)
    expect(adapter.tables.users.size).toBe(0)
    expect(await session(config, jar)).toBeNull()
  })
})

describe("jwt callback on OAuth sign-in", () => {
  it("gets trigger signUp (and isNewUser) for a new user, signIn afterwards, with the account and profile", async () => {
    const jwt = vi.fn(({ token }) => token)
    const { config } = withAdapter({ session: { strategy: "jwt" }, providers: providers(), callbacks: { jwt } })
    await signIn(config, new CookieJar())
    expect(jwt).toHaveBeenCalledWith(
      expect.objectContaining({
        trigger: "signUp",
        isNewUser: true,
        account: expect.objectContaining({ provider: "dev", access_token: expect.any(String), id_token: expect.any(String) }),
        profile: expect.objectContaining({ sub: "alice" }),
      }),
    )
    await signIn(config, new CookieJar())
    expect(jwt).toHaveBeenLastCalledWith(expect.objectContaining({ trigger: "signIn", isNewUser: false }))
  })

  it("without an adapter: trigger signIn, and sub is derived from the provider and its account id", async () => {
    const jwt = vi.fn(({ token }) => token)
    const config: AuthConfig = { secret, trustHost: true, providers: providers(), callbacks: { jwt } }
    await signIn(config, new CookieJar(), "other", asBob)
    expect(jwt).toHaveBeenCalledWith(expect.objectContaining({ trigger: "signIn", token: expect.objectContaining({ sub: await accountSubject("other", "bob"), email: "bob@example.com" }) }))
  })
})
