/**
 * Every way a passkey response must fail: each ends on the sign-in page with
 * `WebAuthnVerificationError`, no session, and a logged reason that names the check that caught it
 * (so that a test cannot pass because some other check failed first).
 */
import type { Adapter } from "@sesame/core/adapters"
import { SoftAuthenticator } from "@sesame/testing"
import { describe, expect, it } from "vitest"
import { CookieJar, origin, secret, send } from "../helpers.js"
import {
  askOptions,
  authenticate,
  challengeCookie,
  expectRejected,
  expectVerificationFailed,
  postResponse,
  register,
  session,
  setup,
  signOut,
  type Setup,
} from "./harness.js"

const email = "ada@example.com"

/** A setup with one registered passkey (for ada), signed out. */
async function registered(options: Parameters<typeof setup>[0] = {}, key = new SoftAuthenticator()): Promise<Setup & { key: SoftAuthenticator }> {
  const s = setup(options)
  const jar = new CookieJar()
  await register(s.config, jar, key, email)
  await signOut(s.config, jar)
  return { ...s, key }
}

/** Flips one bit in the middle of a base64url value. */
function tamper(value: string): string {
  const bytes = Buffer.from(value, "base64url")
  bytes[Math.floor(bytes.length / 2)]! ^= 0x01
  return bytes.toString("base64url")
}

describe("authentication", () => {
  it("refuses a counter that does not go up, and keeps the stored counter", async () => {
    const s = await registered()
    await authenticate(s.config, new CookieJar(), s.key)
    await authenticate(s.config, new CookieJar(), s.key)
    const stored = () => [...s.adapter.tables.authenticators.values()][0]!.counter
    expect(stored()).toBe(2)
    const jar = new CookieJar()
    const asked = await askOptions(s.config, jar, { action: "authenticate" })
    const response = await postResponse(s.config, jar, "authenticate", s.key.authenticate(asked.options, { origin, counter: 1 }))
    await expectVerificationFailed(s, jar, response, /counter value 1 was lower than expected 2/)
    expect(stored()).toBe(2)
  })

  it("accepts a passkey whose counter stays at 0 (a synced passkey keeps none)", async () => {
    const s = await registered({}, new SoftAuthenticator({ counter: false }))
    for (let i = 0; i < 2; i++) {
      const jar = new CookieJar()
      expect((await authenticate(s.config, jar, s.key)).response.headers.get("location")).toBe(`${origin}/`)
      expect((await session(s.config, jar))?.user?.email).toBe(email)
    }
  })

  it("refuses an unknown credential", async () => {
    const s = await registered()
    const stranger = new SoftAuthenticator()
    stranger.register({ challenge: "AAAA", rp: { id: "localhost", name: "x" }, user: { id: "dXNlcg", name: email, displayName: email } }, { origin })
    const jar = new CookieJar()
    const asked = await askOptions(s.config, jar, { action: "authenticate" })
    const response = await postResponse(s.config, jar, "authenticate", stranger.authenticate(asked.options, { origin }))
    await expectVerificationFailed(s, jar, response, /not registered/)
  })

  it("refuses a response from another origin", async () => {
    const s = await registered()
    const jar = new CookieJar()
    const asked = await askOptions(s.config, jar, { action: "authenticate" })
    const response = await postResponse(s.config, jar, "authenticate", s.key.authenticate(asked.options, { origin: "https://evil.example" }))
    await expectVerificationFailed(s, jar, response, /Unexpected authentication response origin "https:\/\/evil.example"/)
  })

  it("refuses a response signed for another RP ID", async () => {
    const s = await registered()
    const jar = new CookieJar()
    const asked = await askOptions(s.config, jar, { action: "authenticate" })
    const response = await postResponse(s.config, jar, "authenticate", s.key.authenticate(asked.options, { origin, rpId: "evil.example" }))
    await expectVerificationFailed(s, jar, response, /Unexpected RP ID hash/)
  })

  it("refuses a tampered signature, a tampered client data, and a response without user verification", async () => {
    const s = await registered()
    const cases: [string, (data: ReturnType<SoftAuthenticator["authenticate"]>) => unknown, RegExp][] = [
      ["signature", (d) => ({ ...d, response: { ...d.response, signature: tamper(d.response.signature) } }), /signature did not verify/],
      [
        "client data",
        (d) => ({ ...d, response: { ...d.response, clientDataJSON: Buffer.from(Buffer.from(d.response.clientDataJSON, "base64url").toString().replace("false", "true ")).toString("base64url") } }),
        /signature did not verify/,
      ],
    ]
    for (const [, change, why] of cases) {
      const jar = new CookieJar()
      const asked = await askOptions(s.config, jar, { action: "authenticate" })
      const response = await postResponse(s.config, jar, "authenticate", change(s.key.authenticate(asked.options, { origin })))
      await expectVerificationFailed(s, jar, response, why)
    }
    const jar = new CookieJar()
    const asked = await askOptions(s.config, jar, { action: "authenticate" })
    const response = await postResponse(s.config, jar, "authenticate", s.key.authenticate(asked.options, { origin, userVerified: false }))
    await expectVerificationFailed(s, jar, response, /User verification required, but user could not be verified/)
  })

  it("a challenge serves once: the callback clears the cookie, so a replayed response fails", async () => {
    const s = await registered()
    const jar = new CookieJar()
    const { response, data } = await authenticate(s.config, jar, s.key)
    expect(response.headers.getSetCookie().find((c) => c.startsWith(`${challengeCookie}=`))).toMatch(/^sesame\.challenge=; .*Max-Age=0/)
    await signOut(s.config, jar)
    const replay = await postResponse(s.config, jar, "authenticate", data)
    await expectVerificationFailed(s, jar, replay, /challenge cookie is missing/)
  })

  it("a replayed response with its old challenge cookie fails: the challenge was used", async () => {
    const s = await registered()
    const jar = new CookieJar()
    const asked = await askOptions(s.config, jar, { action: "authenticate" })
    const cookie = jar.header()
    const data = s.key.authenticate(asked.options, { origin })
    expect((await postResponse(s.config, jar, "authenticate", data)).headers.get("location")).toBe(`${origin}/`)
    const attacker = new CookieJar()
    const replay = await send(s.config, "/auth/callback/passkey", { cookie, json: { action: "authenticate", data } })
    await expectVerificationFailed(s, attacker, replay, /challenge was already used/)
  })

  it("a response made for one challenge fails against another", async () => {
    const s = await registered()
    const jar = new CookieJar()
    const first = await askOptions(s.config, jar, { action: "authenticate" })
    const data = s.key.authenticate(first.options, { origin })
    await askOptions(s.config, jar, { action: "authenticate" })
    const response = await postResponse(s.config, jar, "authenticate", data)
    await expectVerificationFailed(s, jar, response, /Unexpected authentication response challenge/)
  })

  it("a passkey of another user, while someone is signed in, is AccountNotLinked", async () => {
    const s = await registered()
    const grace = new SoftAuthenticator()
    const jar = new CookieJar()
    await register(s.config, jar, grace, "grace@example.com")
    const asked = await askOptions(s.config, jar, { action: "authenticate" })
    const data = s.key.authenticate(asked.options, { origin, credentialId: s.key.credentials[0]!.id })
    const response = await postResponse(s.config, jar, "authenticate", data)
    expect(new URL(response.headers.get("location")!).searchParams.get("error")).toBe("AccountNotLinked")
    expect((await session(s.config, jar))?.user?.email).toBe("grace@example.com")
  })
})

describe("the challenge cookie", () => {
  it("missing, altered, made with another secret or for another provider: refused", async () => {
    const s = await registered({ providers: [(await import("@sesame/core/providers/passkey")).default(), (await import("@sesame/core/providers/webauthn")).default({ enableConditionalUI: false })] })
    const variants: [string, (jar: CookieJar) => Promise<void>, RegExp][] = [
      ["missing", async (jar) => void jar.cookies.delete(challengeCookie), /challenge cookie is missing/],
      ["altered", async (jar) => void jar.cookies.set(challengeCookie, tamper(jar.cookies.get(challengeCookie)!)), /could not be read/],
      [
        "another secret",
        async (jar) => {
          const other = setup({ secret: `${secret}-other` })
          await askOptions(other.config, jar, { action: "authenticate" })
        },
        /could not be read/,
      ],
      ["another provider", async (jar) => void (await askOptions(s.config, jar, { action: "authenticate" }, "webauthn")), /made for another provider/],
    ]
    for (const [, change, why] of variants) {
      const jar = new CookieJar()
      const asked = await askOptions(s.config, jar, { action: "authenticate" })
      const data = s.key.authenticate(asked.options, { origin })
      await change(jar)
      const response = await postResponse(s.config, jar, "authenticate", data)
      await expectVerificationFailed(s, jar, response, why)
    }
  })

  it("is sealed, HttpOnly, SameSite=Lax, 15 minutes, and its sealed value expires with the ceremony", async () => {
    const { config } = setup({ providers: [(await import("@sesame/core/providers/passkey")).default({ timeout: 60_000 })] })
    const jar = new CookieJar()
    const { response, options } = await askOptions(config, jar, { action: "authenticate" })
    const cookie = response.headers.getSetCookie().find((c) => c.startsWith(`${challengeCookie}=`))!
    expect(cookie).toMatch(/; Path=\/; Max-Age=900; Expires=.*; HttpOnly; SameSite=Lax$/)
    const value = jar.get(challengeCookie)!
    expect(value.split(".")).toHaveLength(5)
    expect(value).not.toContain(options.challenge)
    const { decode } = await import("@sesame/core/jwt")
    const sealed = await decode({ token: value, secret, salt: challengeCookie })
    expect(sealed).toMatchObject({ provider: "passkey", action: "authenticate", challenge: options.challenge })
    expect(sealed!.exp! - sealed!.iat!).toBe(120)
  })
})

describe("the posted action", () => {
  it("must be the ceremony the challenge was made for, and one of authenticate or register", async () => {
    const s = await registered()
    for (const [action, why] of [
      ["register", /made to authenticate, not to register/],
      ["login", /must be "authenticate" or "register"/],
      [undefined, /must be "authenticate" or "register"/],
    ] as const) {
      const jar = new CookieJar()
      const asked = await askOptions(s.config, jar, { action: "authenticate" })
      const data = s.key.authenticate(asked.options, { origin })
      const response = await send(s.config, "/auth/callback/passkey", { jar, json: action === undefined ? { data } : { action, data } })
      await expectVerificationFailed(s, jar, response, why)
    }
  })

  it("malformed data is a verification failure, never a server error", async () => {
    const s = await registered()
    const bodies: unknown[] = ["not json", "[]", JSON.stringify({ id: "a", rawId: "a", type: "public-key" }), { id: "%%%", rawId: "a", type: "public-key", response: {} }, 42]
    for (const data of bodies) {
      const jar = new CookieJar()
      await askOptions(s.config, jar, { action: "authenticate" })
      const response = await send(s.config, "/auth/callback/passkey", { jar, form: { action: "authenticate", data: typeof data === "string" ? data : JSON.stringify(data) } })
      await expectVerificationFailed(s, jar, response, /malformed/)
    }
  })
})

describe("registration", () => {
  it("refuses a response from another origin or RP ID, or without user verification, and stores nothing", async () => {
    const s = setup()
    for (const [overrides, why] of [
      [{ origin: "https://evil.example" }, /Unexpected registration response origin/],
      [{ origin, rpId: "evil.example" }, /Unexpected RP ID hash/],
      [{ origin, userVerified: false }, /User verification was required, but user could not be verified/],
      [{ origin, type: "webauthn.get" }, /Unexpected registration response type/],
    ] as const) {
      const jar = new CookieJar()
      const asked = await askOptions(s.config, jar, { action: "register", email })
      const response = await postResponse(s.config, jar, "register", new SoftAuthenticator().register(asked.options, overrides))
      await expectVerificationFailed(s, jar, response, why)
    }
    expect(s.adapter.tables.users.size).toBe(0)
    expect(s.adapter.tables.authenticators.size).toBe(0)
  })

  it("a replayed registration, with its old cookie, is refused: the challenge was used", async () => {
    const s = setup()
    const jar = new CookieJar()
    const asked = await askOptions(s.config, jar, { action: "register", email })
    const cookie = jar.header()
    const data = new SoftAuthenticator().register(asked.options, { origin })
    expect((await postResponse(s.config, jar, "register", data)).status).toBe(302)
    const attacker = new CookieJar()
    await expectVerificationFailed(s, attacker, await send(s.config, "/auth/callback/passkey", { cookie, json: { action: "register", data } }), /challenge was already used/)
    expect(s.adapter.tables.authenticators.size).toBe(1)
  })

  it("for a signed-in user, fails when another user is signed in by the time it completes", async () => {
    const s = setup()
    const jar = new CookieJar()
    await register(s.config, jar, new SoftAuthenticator(), email)
    const asked = await askOptions(s.config, jar, { action: "register" })
    const data = new SoftAuthenticator().register(asked.options, { origin })
    const challenge = jar.cookies.get(challengeCookie)!
    const other = new CookieJar()
    await register(s.config, other, new SoftAuthenticator(), "grace@example.com")
    other.cookies.set(challengeCookie, challenge)
    const response = await postResponse(s.config, other, "register", data)
    expect(response.status).toBe(302)
    expect(new URL(response.headers.get("location")!).searchParams.get("error")).toBe("WebAuthnVerificationError")
    expect(s.errors.at(-1)?.message).toMatch(/signed-in user changed/)
    expect(s.adapter.tables.authenticators.size).toBe(2)
  })

  it("for a new email, fails when the address has an account by the time it completes (AccountNotLinked)", async () => {
    const s = setup()
    const jar = new CookieJar()
    const asked = await askOptions(s.config, jar, { action: "register", email })
    await register(s.config, new CookieJar(), new SoftAuthenticator(), email)
    const response = await postResponse(s.config, jar, "register", new SoftAuthenticator().register(asked.options, { origin }))
    await expectRejected(s.config, jar, response, "AccountNotLinked")
    expect(s.adapter.tables.users.size).toBe(1)
    expect(s.adapter.tables.authenticators.size).toBe(1)
    expect(s.adapter.tables.accounts.size).toBe(1)
  })

  it("a failing authenticator write is a server error, with no session and the authenticator inside the linking transaction", async () => {
    const s = setup()
    const order: string[] = []
    const failing: Adapter = {
      ...s.adapter,
      // A transaction that records what runs inside it (the SQLite adapter's test shows the rollback).
      transaction: async <T>(fn: (a: Adapter) => Promise<T>) => {
        order.push("begin")
        try {
          return await fn(failing)
        } finally {
          order.push("end")
        }
      },
      createUser: async (user: Parameters<typeof s.adapter.createUser>[0]) => (order.push("createUser"), s.adapter.createUser(user)),
      linkAccount: async (account: Parameters<typeof s.adapter.linkAccount>[0]) => (order.push("linkAccount"), s.adapter.linkAccount(account)),
      createAuthenticator: async () => {
        order.push("createAuthenticator")
        throw new Error("disk full")
      },
    }
    const config = { ...s.config, adapter: failing }
    const jar = new CookieJar()
    const asked = await askOptions(config, jar, { action: "register", email })
    const response = await postResponse(config, jar, "register", new SoftAuthenticator().register(asked.options, { origin }))
    expect(new URL(response.headers.get("location")!).searchParams.get("error")).toBe("Configuration")
    expect(await session(config, jar)).toBeNull()
    expect(order).toEqual(["begin", "createUser", "linkAccount", "createAuthenticator", "end"])
  })
})
