/**
 * `GET webauthn-options/:provider`: which ceremony for whom, the 400s, and the relying party.
 */
import Passkey from "@sesame/core/providers/passkey"
import WebAuthn from "@sesame/core/providers/webauthn"
import { SoftAuthenticator } from "@sesame/testing"
import { describe, expect, it, vi } from "vitest"
import { CookieJar, origin, send } from "../helpers.js"
import { askOptions, challengeCookie, expectSignedIn, expectVerificationFailed, postResponse, register, setup, signOut } from "./harness.js"

const email = "ada@example.com"

async function withAda() {
  const s = setup()
  const jar = new CookieJar()
  const key = new SoftAuthenticator()
  const { data } = await register(s.config, jar, key, email)
  return { ...s, jar, key, credentialId: data.id }
}

describe("the ceremony", () => {
  it("signed out: authenticate by default, with the user's passkeys for a known email, or register for a new one", async () => {
    const { config, credentialId } = await withAda()
    const cases: [Record<string, string>, "authenticate" | "register", number][] = [
      [{}, "authenticate", 0],
      [{ action: "authenticate" }, "authenticate", 0],
      [{ action: "authenticate", email: "new@example.com" }, "authenticate", 0],
      [{ action: "authenticate", email }, "authenticate", 1],
      [{ email }, "authenticate", 1],
      [{ email: "new@example.com" }, "register", 0],
      [{ action: "register", email: "new@example.com" }, "register", 0],
    ]
    for (const [query, action, allowed] of cases) {
      const asked = await askOptions(config, new CookieJar(), query)
      expect([query, asked.status, asked.action]).toEqual([query, 200, action])
      if (action === "authenticate") expect(asked.options.allowCredentials?.map((c) => c.id)).toEqual(allowed ? [credentialId] : [])
      else expect(asked.options.user.name).toBe("new@example.com")
    }
  })

  it("signed in: register adds to the user (whatever the email), authenticate lists their passkeys", async () => {
    const { config, jar, credentialId } = await withAda()
    const registering = await askOptions(config, jar, { action: "register", email: "other@example.com" })
    expect(registering.action).toBe("register")
    expect(registering.options.user.name).toBe(email)
    expect(registering.options.excludeCredentials?.map((c) => c.id)).toEqual([credentialId])
    const authenticating = await askOptions(config, jar, { action: "authenticate" })
    expect(authenticating.options.allowCredentials?.map((c) => c.id)).toEqual([credentialId])
  })

  it("answers clear 400s, with no challenge cookie", async () => {
    const { config, jar } = await withAda()
    const signedOut = new CookieJar()
    const cases: [CookieJar, string, { error: string; message: RegExp }][] = [
      [signedOut, "action=login", { error: "Invalid action", message: /must be "authenticate" or "register"/ }],
      [signedOut, "action=", { error: "Invalid action", message: /must be "authenticate" or "register"/ }],
      [signedOut, "action=register", { error: "Invalid request", message: /needs an `email`, or a signed-in user/ }],
      [signedOut, `action=register&email=${email}`, { error: "Invalid request", message: /already has an account/ }],
      [signedOut, "email=not-an-address", { error: "Invalid request", message: /not an email address/ }],
      [signedOut, `email=${"a".repeat(250)}@example.com`, { error: "Invalid request", message: /not an email address/ }],
      [jar, "", { error: "Invalid request", message: /must say whether to `register` a passkey or `authenticate`/ }],
    ]
    for (const [who, query, expected] of cases) {
      const response = await send(config, `/auth/webauthn-options/passkey?${query}`, { jar: who })
      expect([query, response.status]).toEqual([query, 400])
      expect(response.headers.get("cache-control")).toBe("private, no-cache, no-store")
      expect(response.headers.getSetCookie().some((c) => c.startsWith(challengeCookie))).toBe(false)
      const body = (await response.json()) as { error: string; message: string }
      expect(body.error).toBe(expected.error)
      expect(body.message).toMatch(expected.message)
    }
  })

  it("404 for an unknown provider, 400 for one that is not WebAuthn or a POST; never a 500", async () => {
    const { config } = setup({ providers: [Passkey(), { id: "password", name: "Password", type: "credentials", credentials: {}, authorize: () => null }] })
    expect((await send(config, "/auth/webauthn-options/nobody")).status).toBe(404)
    expect((await send(config, "/auth/webauthn-options")).status).toBe(404)
    expect((await send(config, "/auth/webauthn-options/password")).status).toBe(400)
    expect((await send(config, "/auth/webauthn-options/passkey", { form: { action: "authenticate" } })).status).toBe(400)
    const getCallback = await send(config, "/auth/callback/passkey")
    expect(getCallback.status).toBe(400)
  })

  it("is not cached, and the options carry the provider's settings", async () => {
    const { config } = setup({ providers: [WebAuthn({ timeout: 30_000 })] })
    const { response, options } = await askOptions(config, new CookieJar(), { email: "new@example.com" }, "webauthn")
    expect(response.headers.get("cache-control")).toBe("private, no-cache, no-store")
    expect(options).toMatchObject({
      timeout: 30_000,
      authenticatorSelection: { residentKey: "preferred", requireResidentKey: false, userVerification: "preferred" },
    })
    expect(options.challenge).toMatch(/^[A-Za-z0-9_-]{43}$/)
  })
})

describe("the relying party", () => {
  it("comes from the request's origin, or from AUTH_URL, or from trusted forwarded headers", async () => {
    const { config } = setup()
    const fromRequest = await send(config, "http://app.example:8080/auth/webauthn-options/passkey?email=new@example.com")
    expect(((await fromRequest.json()) as { options: { rp: unknown } }).options.rp).toEqual({ id: "app.example", name: "app.example:8080" })
    const forwarded = await send(config, "/auth/webauthn-options/passkey?email=new@example.com", {
      headers: { "x-forwarded-host": "login.example.com", "x-forwarded-proto": "https" },
    })
    expect(((await forwarded.json()) as { options: { rp: unknown } }).options.rp).toEqual({ id: "login.example.com", name: "login.example.com" })
    vi.stubEnv("AUTH_URL", "https://auth.example.org/auth")
    try {
      const pinned = setup({ trustHost: false })
      const response = await send(pinned.config, "/auth/webauthn-options/passkey?email=new@example.com")
      expect(((await response.json()) as { options: { rp: unknown } }).options.rp).toEqual({ id: "auth.example.org", name: "auth.example.org" })
    } finally {
      vi.unstubAllEnvs()
    }
  })

  it("can be overridden: the RP ID goes in the options, and responses must come from the configured origin", async () => {
    const s = setup({ providers: [Passkey({ relayingParty: { id: "example.com", name: "Example", origin: ["https://www.example.com", "https://example.com"] } })] })
    const jar = new CookieJar()
    const asked = await askOptions(s.config, jar, { email })
    expect(asked.options.rp).toEqual({ id: "example.com", name: "Example" })
    const key = new SoftAuthenticator()
    const registered = await postResponse(s.config, jar, "register", key.register(asked.options, { origin: "https://www.example.com" }))
    await expectSignedIn(s.config, jar, registered, email)
    await signOut(s.config, jar)

    const again = await askOptions(s.config, jar, { action: "authenticate" })
    expect(again.options.rpId).toBe("example.com")
    const fromRequestOrigin = await postResponse(s.config, jar, "authenticate", key.authenticate(again.options, { origin }))
    await expectVerificationFailed(s, jar, fromRequestOrigin, /Unexpected authentication response origin "http:\/\/localhost:3000", expected one of/)
  })
})
