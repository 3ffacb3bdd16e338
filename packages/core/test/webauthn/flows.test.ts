/**
 * Passkey sign-up, sign-in and adding a passkey, at the HTTP level, with a software authenticator:
 * what is stored, which session starts, which callbacks and events run, with both strategies.
 */
import { decode } from "@sesame/core/jwt"
import { SoftAuthenticator } from "@sesame/testing"
import { describe, expect, it, vi } from "vitest"
import { CookieJar, origin, secret, send } from "../helpers.js"
import { askOptions, authenticate, expectSignedIn, postResponse, register, session, setup, signOut } from "./harness.js"

const email = "ada@example.com"

describe.each(["database", "jwt"] as const)("with %s sessions", (strategy) => {
  it("registers a passkey for a new email: creates the user, the webauthn account and the authenticator, and signs in", async () => {
    const events = { createUser: vi.fn(), linkAccount: vi.fn(), signIn: vi.fn() }
    const { config, adapter } = setup({ session: { strategy }, events })
    const jar = new CookieJar()
    const key = new SoftAuthenticator()
    const { response, data, options } = await register(config, jar, key, email)
    await expectSignedIn(config, jar, response, email)

    expect(options).toMatchObject({
      rp: { id: "localhost", name: "localhost:3000" },
      user: { name: email, displayName: email },
      attestation: "none",
      excludeCredentials: [],
      authenticatorSelection: { residentKey: "required", requireResidentKey: true, userVerification: "required" },
      timeout: 300_000,
    })
    const [user] = [...adapter.tables.users.values()]
    expect(user).toMatchObject({ email, name: null, emailVerified: null })
    const credentialID = Buffer.from(data.id, "base64url").toString("base64")
    expect([...adapter.tables.accounts.values()]).toEqual([{ provider: "passkey", type: "webauthn", providerAccountId: credentialID, userId: user!.id }])
    const stored = adapter.tables.authenticators.get(credentialID)!
    expect(stored).toMatchObject({
      credentialID,
      providerAccountId: credentialID,
      userId: user!.id,
      counter: 0,
      credentialDeviceType: "singleDevice",
      credentialBackedUp: false,
      transports: "internal",
      name: null,
    })
    expect(stored.createdAt).toBeInstanceOf(Date)
    // The stored key is the COSE key the authenticator made, in standard base64.
    expect(stored.credentialPublicKey).toMatch(/^[A-Za-z0-9+/]+=*$/)
    expect(jar.get("sesame.challenge")).toBeUndefined()

    expect(events.createUser).toHaveBeenCalledWith({ user })
    expect(events.linkAccount).toHaveBeenCalledWith(expect.objectContaining({ user, account: expect.objectContaining({ type: "webauthn" }) }))
    expect(events.signIn).toHaveBeenCalledWith(expect.objectContaining({ user, isNewUser: true, account: expect.objectContaining({ provider: "passkey", type: "webauthn" }) }))
    if (strategy === "jwt") {
      const token = await decode({ token: jar.get("sesame.session-token"), secret, salt: "sesame.session-token" })
      expect(token?.sub).toBe(user!.id)
    }
  })

  it("signs a returning user in with a discoverable passkey, storing the new counter", async () => {
    const signInCallback = vi.fn(() => true)
    const { config, adapter } = setup({ session: { strategy }, callbacks: { signIn: signInCallback } })
    const key = new SoftAuthenticator()
    const first = new CookieJar()
    const { data } = await register(config, first, key, email)
    await signOut(config, first)

    const jar = new CookieJar()
    const { response, options } = await authenticate(config, jar, key)
    await expectSignedIn(config, jar, response, email)
    expect(options).toMatchObject({ rpId: "localhost", userVerification: "required", timeout: 300_000 })
    expect(options.allowCredentials).toEqual([])
    const credentialID = Buffer.from(data.id, "base64url").toString("base64")
    expect(adapter.tables.authenticators.get(credentialID)!.counter).toBe(1)
    expect(key.credentials[0]!.counter).toBe(1)
    const [user] = [...adapter.tables.users.values()]
    expect(signInCallback).toHaveBeenLastCalledWith(expect.objectContaining({ user, account: { provider: "passkey", type: "webauthn", providerAccountId: credentialID } }))

    await authenticate(config, jar, key)
    expect(adapter.tables.authenticators.get(credentialID)!.counter).toBe(2)
    expect(adapter.tables.users.size).toBe(1)
  })

  it("with an email, lists that user's passkeys in allowCredentials, and accepts a form post (and a null user handle)", async () => {
    const { config } = setup({ session: { strategy } })
    const key = new SoftAuthenticator()
    const { data } = await register(config, new CookieJar(), key, email)
    const jar = new CookieJar()
    const asked = await askOptions(config, jar, { email: " Ada@Example.com " })
    expect(asked.action).toBe("authenticate")
    expect(asked.options.allowCredentials).toEqual([{ id: data.id, type: "public-key", transports: ["internal"] }])
    // As some clients send it: a null user handle for a response that has none.
    const signed = key.authenticate(asked.options, { origin })
    const response = await postResponse(config, jar, "authenticate", { ...signed, response: { ...signed.response, userHandle: null } }, { form: true, callbackUrl: "/welcome" })
    await expectSignedIn(config, jar, response, email, `${origin}/welcome`)
  })

  it("a signed-in user adds a second passkey: linked to them, the first one excluded from registration", async () => {
    const { config, adapter } = setup({ session: { strategy } })
    const jar = new CookieJar()
    const phone = new SoftAuthenticator()
    const laptop = new SoftAuthenticator()
    const first = await register(config, jar, phone, email)
    const second = await register(config, jar, laptop)
    expect(second.options.excludeCredentials).toEqual([{ id: first.data.id, type: "public-key", transports: ["internal"] }])
    expect(second.options.user).toMatchObject({ name: email })
    expect(second.response.status).toBe(302)
    expect(adapter.tables.users.size).toBe(1)
    const [user] = [...adapter.tables.users.values()]
    expect([...adapter.tables.authenticators.values()].map((a) => a.userId)).toEqual([user!.id, user!.id])
    expect([...adapter.tables.accounts.values()].map((a) => a.userId)).toEqual([user!.id, user!.id])

    await signOut(config, jar)
    await expectSignedIn(config, jar, (await authenticate(config, jar, laptop)).response, email)
  })
})

describe("redirects", () => {
  it("sends a new user to pages.newUser, and honours a redirect from the signIn callback", async () => {
    const { config } = setup({ pages: { newUser: "/welcome" } })
    const jar = new CookieJar()
    const key = new SoftAuthenticator()
    const { response } = await register(config, jar, key, email)
    expect(response.headers.get("location")).toBe(`${origin}/welcome?callbackUrl=${encodeURIComponent(`${origin}/`)}`)

    const redirecting = setup({ callbacks: { signIn: () => "/not-yet" } })
    const blocked = new CookieJar()
    const refused = await register(redirecting.config, blocked, new SoftAuthenticator(), email)
    expect(refused.response.headers.get("location")).toBe(`${origin}/not-yet`)
    expect(redirecting.adapter.tables.users.size).toBe(0)
    expect(await session(redirecting.config, blocked)).toBeNull()
  })

  it("answers with 200 {url} to a client that asks for X-Auth-Return-Redirect", async () => {
    const { config } = setup()
    const jar = new CookieJar()
    const key = new SoftAuthenticator()
    const asked = await askOptions(config, jar, { action: "register", email })
    const response = await send(config, "/auth/callback/passkey", {
      jar,
      json: { action: "register", data: key.register(asked.options, { origin }), callbackUrl: `${origin}/home` },
      headers: { "x-auth-return-redirect": "1" },
    })
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({ url: `${origin}/home` })
    expect((await session(config, jar))?.user?.email).toBe(email)
  })
})
