/**
 * The second factor across first factors and the rest of the library: an OpenID Connect sign-in
 * (asked by default; a provider may trust the IdP), a passkey with and without user verification,
 * a browser already signed in as the user, an address proven while a squatter held it who had turned a
 * second factor on, a rotated secret, and a password change that forgets remembered devices.
 */
import type { AuthConfig } from "@sesame/core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { DevIdp } from "@sesame/dev-idp"
import type { VerifiedIdentity } from "../../src/account/identity.js"
import { createContext } from "../../src/http/context.js"
import { fromRequest } from "../../src/http/incoming.js"
import { parseCookieHeader } from "../../src/http/cookies.js"
import { resolveConfig } from "../../src/config/resolve.js"
import { secondFactorGate } from "../../src/two-factor/gate.js"
import { openTotpKey, sealTotpKey } from "../../src/two-factor/secret.js"
import { newTotpKey } from "../../src/two-factor/totp.js"
import { CookieJar, origin, secret, send } from "../helpers.js"
import { oidc, signIn as oidcSignIn, startIdp, withAdapter } from "../oauth/harness.js"
import { ada, app, challengeUrl, enrol, firstFactor, hasSession, post, session, signInWithPassword, submitCode } from "./harness.js"
import { storeTwoFactor, storedTwoFactor } from "../../src/two-factor/storage.js"

describe("OpenID Connect", () => {
  let idp: DevIdp
  beforeAll(async () => {
    idp = await startIdp()
  })
  afterAll(() => idp?.close())

  async function aliceWithAuthenticator(overrides: Parameters<typeof oidc>[1] = {}) {
    const { adapter, config } = withAdapter({ providers: [oidc(idp, overrides)] })
    const first = new CookieJar()
    expect((await oidcSignIn(config, first)).headers.get("location")).toBe(`${origin}/`)
    const user = (await adapter.getUserByEmail("alice@example.com"))!
    await storeTwoFactor(adapter, { userId: user.id, method: "totp", secret: await sealTotpKey([secret], newTotpKey()), enabledAt: new Date(), devicesRevokedAt: null })
    return config
  }

  it("asks by default: the IdP's sign-in leads to the challenge, without a session", async () => {
    const config = await aliceWithAuthenticator()
    const jar = new CookieJar()
    const callback = await oidcSignIn(config, jar)
    expect(callback.headers.get("location")).toBe(challengeUrl)
    expect(jar.get("sesame.session-token")).toBeUndefined()
  })

  it("a provider that trusts its IdP's own second factor (a function of the profile) signs in at once", async () => {
    const config = await aliceWithAuthenticator({ secondFactor: ({ profile }) => profile?.email !== "alice@example.com" })
    const jar = new CookieJar()
    expect((await oidcSignIn(config, jar)).headers.get("location")).toBe(`${origin}/`)
    expect((await send(config, "/auth/session", { jar }).then((r) => r.json())) as unknown).toMatchObject({ user: { email: "alice@example.com" } })
  })
})

describe("the gate", () => {
  const resolved = () => {
    const a = app()
    const resolution = resolveConfig(a.config)
    if (!resolution.ok) throw resolution.error
    return { a, config: resolution.config }
  }
  const contextFor = (config: ReturnType<typeof resolved>["config"], cookie = "") =>
    createContext({
      config,
      incoming: fromRequest(new Request(`${origin}/auth/callback/passkey`, { headers: { cookie } })),
      method: "POST",
      head: false,
      action: "callback",
      providerId: "passkey",
      query: {},
      body: {},
      cookies: parseCookieHeader(cookie),
    })

  it("a passkey with user verification is two factors: not asked; without it, asked", async () => {
    const { a, config } = resolved()
    const user = await ada(a)
    await storeTwoFactor(a.adapter, { userId: user.id, method: "totp", secret: "x", enabledAt: new Date(), devicesRevokedAt: null })
    const passkey = (userVerified: boolean) =>
      ({ kind: "passkey", provider: { type: "webauthn", config: {} }, user, providerAccountId: "cred", userVerified }) as unknown as VerifiedIdentity
    const account = { provider: "passkey", type: "webauthn" as const, providerAccountId: "cred" }
    expect(await secondFactorGate(contextFor(config), passkey(true), { user, account })).toEqual({ factors: ["webauthn"] })
    expect(await secondFactorGate(contextFor(config), passkey(false), { user, account })).toMatchObject({ ask: { userId: user.id, method: "totp" } })
  })
})

describe("around the sign-in", () => {
  it("a browser already signed in as the user is asked again: a first factor alone neither refreshes an old session nor links to it", async () => {
    const a = app()
    await ada(a)
    const { jar } = await enrol(a)
    expect((await signInWithPassword(a.config, jar)).location).toBe(challengeUrl)
  })

  it("an owner who proves an address that a squatter registered never meets the squatter's second factor", async () => {
    const { recordingEmail } = await import("../email/helpers.js")
    const { provider, sent } = recordingEmail({ code: true })
    const a = app()
    a.config.providers = [...a.config.providers, provider]
    // The squatter's unconfirmed account for the victim's address, with an authenticator app.
    const squatter = await a.adapter.createUser({ id: crypto.randomUUID(), email: "victim@example.com", name: "Squatter", emailVerified: null })
    // Marked as a sign-up through Sesame leaves it: made without proof of the address (account/unproven.ts).
    await a.adapter.createVerificationToken({ identifier: `sesame:unproven:${squatter.id}`, token: `unproven:${squatter.id}`, expires: new Date(Date.now() + 3_600_000) })
    await storeTwoFactor(a.adapter, { userId: squatter.id, method: "totp", secret: await sealTotpKey([secret], newTotpKey()), enabledAt: new Date(), devicesRevokedAt: null })
    // The owner signs in with a code sent to the address: no challenge; the second factor stays with
    // the squatter's user, set aside, and the owner's new user has none.
    const jar = new CookieJar()
    const { csrfToken } = await import("../helpers.js")
    await send(a.config, "/auth/signin/email", { jar, form: { csrfToken: await csrfToken(a.config, jar), email: "victim@example.com" } })
    const done = await post(a.config, "/auth/callback/email", { code: sent.at(-1)!.code! }, jar)
    expect(done.location).toBe(`${origin}/`)
    expect(hasSession(jar)).toBe(true)
    const owner = (await a.adapter.getUserByEmail("victim@example.com"))!
    expect(owner.id).not.toBe(squatter.id)
    expect(await storedTwoFactor(a.adapter, owner.id)).toBeNull()
    expect((await a.adapter.getUser(squatter.id))!.email).toMatch(/@sesame\.invalid$/)
  })

  it("after a secret rotation the old TOTP secret still opens, and its first use seals it again with the newest secret", async () => {
    const a = app()
    const user = await ada(a)
    const { authenticator, codes } = await enrol(a)
    const rotated: AuthConfig = { ...a.config, secret: ["a-newer-secret-0123456789-abcdefghijklmnopqrstuv", secret] }
    const jar = new CookieJar()
    await signInWithPassword(rotated, jar)
    expect((await submitCode(rotated, jar, { code: authenticator.code(1) })).location).toBe(`${origin}/`)
    const stored = (await storedTwoFactor(a.adapter, user.id))!
    expect(await openTotpKey(["a-newer-secret-0123456789-abcdefghijklmnopqrstuv"], stored.secret!)).toMatchObject({ rotated: false })
    // Recovery codes made under the old secret still work.
    const other = new CookieJar()
    await signInWithPassword(rotated, other)
    expect((await submitCode(rotated, other, { recoveryCode: codes[0]! })).location).toBe(`${origin}/`)
  })

  it("a password change forgets remembered devices", async () => {
    const { changePassword } = await import("@sesame/core")
    const a = app({ twoFactor: { rememberDevice: 3600 } })
    await ada(a)
    const { authenticator } = await enrol(a)
    const browser = await firstFactor(a)
    await submitCode(a.config, browser, { code: authenticator.code(1), remember: "1" })
    expect(await session(a.config, browser)).toMatchObject({ factors: ["password", "totp"] })
    const changed = await changePassword(new Request(`${origin}/`, { headers: { cookie: browser.header() } }), a.config, {
      currentPassword: "correct horse battery",
      newPassword: "a newer passphrase",
    })
    expect(changed).toMatchObject({ changed: true })
    browser.cookies.delete("sesame.session-token")
    expect((await signInWithPassword(a.config, browser, "ada@example.com", "a newer passphrase")).location).toBe(challengeUrl)
  })
})
