/**
 * Threat: replaying a passkey ceremony. The challenge travels in a sealed cookie that the callback
 * deletes, but deleting a cookie only asks the browser to forget it: someone who captured the
 * cookie and the signed response (a proxy log, a shared machine) could post them again while the
 * sealed value lives, and synced passkeys keep no signature counter to catch it. So the server
 * remembers each challenge it issued (as a keyed hash, through the adapter) and the callback
 * consumes it atomically: a challenge serves one response, once, whoever sends it. Challenges and
 * other one-time values never reach the logs.
 */
import type { AuthConfig } from "@sesame/core"
import { SoftAuthenticator, type CreationOptionsJSON, type RequestOptionsJSON } from "@sesame/testing"
import { describe, expect, it, vi } from "vitest"
import { CookieJar, home, origin, recordingLogger } from "../helpers.js"
import { askOptions, challengeCookie, expectSignedIn, expectVerificationFailed, postResponse, register, session, setup, type Setup } from "../webauthn/harness.js"

const email = "ada@example.com"

/** A copy of `jar` as it is now: what someone who captured the browser's cookies holds. */
function capture(jar: CookieJar): CookieJar {
  const copy = new CookieJar()
  for (const [name, value] of jar.cookies) copy.cookies.set(name, value)
  return copy
}

/** A registered synced passkey (no signature counter, so only the challenge can stop a replay). */
async function registered(s: Setup): Promise<SoftAuthenticator> {
  const key = new SoftAuthenticator({ counter: false })
  const jar = new CookieJar()
  await expectSignedIn(s.config, jar, (await register(s.config, jar, key, email)).response, email)
  return key
}

/** Options for a sign-in, the browser's signed response, and the browser's cookies at that point. */
async function signedAssertion(config: AuthConfig, key: SoftAuthenticator) {
  const jar = new CookieJar()
  const asked = await askOptions<RequestOptionsJSON>(config, jar, { action: "authenticate" })
  expect(asked.status).toBe(200)
  return { jar, data: key.authenticate(asked.options, { origin }) }
}

function sessions(s: Setup): number {
  return s.adapter.tables.sessions.size
}

describe("a passkey response is accepted once", () => {
  it("a completed sign-in replayed with the same challenge cookie and response is refused, with no session", async () => {
    const s = setup()
    const key = await registered(s)
    const { jar, data } = await signedAssertion(s.config, key)
    const attacker = capture(jar)
    await expectSignedIn(s.config, jar, await postResponse(s.config, jar, "authenticate", data), email)
    const before = sessions(s)

    const replay = await postResponse(s.config, attacker, "authenticate", data)
    await expectVerificationFailed(s, attacker, replay, /challenge was already used/)
    expect(replay.headers.getSetCookie().some((c) => c.startsWith("sesame.session-token=") && !c.includes("Max-Age=0"))).toBe(false)
    expect(sessions(s)).toBe(before)
  })

  it("with JWT sessions too", async () => {
    const s = setup({ session: { strategy: "jwt" } })
    const key = await registered(s)
    const { jar, data } = await signedAssertion(s.config, key)
    const attacker = capture(jar)
    await expectSignedIn(s.config, jar, await postResponse(s.config, jar, "authenticate", data), email)
    const replay = await postResponse(s.config, attacker, "authenticate", data)
    await expectVerificationFailed(s, attacker, replay, /challenge was already used/)
  })

  it("a completed registration replayed is refused: no second user, account or authenticator", async () => {
    const s = setup()
    const jar = new CookieJar()
    const asked = await askOptions<CreationOptionsJSON>(s.config, jar, { action: "register", email })
    const data = new SoftAuthenticator({ counter: false }).register(asked.options, { origin })
    const attacker = capture(jar)
    await expectSignedIn(s.config, jar, await postResponse(s.config, jar, "register", data), email)
    const counts = () => [s.adapter.tables.users.size, s.adapter.tables.accounts.size, s.adapter.tables.authenticators.size, sessions(s)]
    const before = counts()

    const replay = await postResponse(s.config, attacker, "register", data)
    await expectVerificationFailed(s, attacker, replay, /challenge was already used/)
    expect(counts()).toEqual(before)
  })

  it("a fresh challenge does not let a credential be registered twice (the check behind the challenge)", async () => {
    const s = setup()
    const jar = new CookieJar()
    const asked = await askOptions<CreationOptionsJSON>(s.config, jar, { action: "register", email })
    const data = new SoftAuthenticator().register(asked.options, { origin })
    // The credential is already stored for someone (an authenticator that reuses its credential id).
    const owner = await s.adapter.createUser({ id: "owner", email: "owner@example.com", emailVerified: new Date() })
    const credentialID = Buffer.from(data.id, "base64url").toString("base64")
    await s.adapter.createAuthenticator({
      credentialID,
      userId: owner.id,
      providerAccountId: credentialID,
      credentialPublicKey: "AA==",
      counter: 0,
      credentialDeviceType: "singleDevice",
      credentialBackedUp: false,
    })
    await expectVerificationFailed(s, jar, await postResponse(s.config, jar, "register", data), /already registered/)
    expect(s.adapter.tables.users.size).toBe(1)
  })

  it("two concurrent callbacks with one challenge: exactly one signs in", async () => {
    const s = setup()
    const key = await registered(s)
    const { jar, data } = await signedAssertion(s.config, key)
    const twins = [capture(jar), capture(jar)]
    const before = sessions(s)
    const responses = await Promise.all(twins.map((j) => postResponse(s.config, j, "authenticate", data)))
    const won = responses.filter((r) => r.headers.get("location") === home)
    expect(won).toHaveLength(1)
    expect(sessions(s)).toBe(before + 1)
    const loser = twins[responses.findIndex((r) => r.headers.get("location") !== home)]!
    expect(new URL(responses.find((r) => r !== won[0])!.headers.get("location")!).searchParams.get("error")).toBe("WebAuthnVerificationError")
    expect(loser.get("sesame.session-token")).toBeUndefined()
    expect(await session(s.config, loser)).toBeNull()
  })

  it("a challenge made under a previous secret is still accepted after rotation", async () => {
    const old = setup()
    const key = await registered(old)
    const { jar, data } = await signedAssertion(old.config, key)
    const rotated: AuthConfig = { ...old.config, secret: ["rotated-secret-0123456789-abcdefghijklmnop", old.config.secret as string] }
    await expectSignedIn(rotated, jar, await postResponse(rotated, jar, "authenticate", data), email)
  })

  it("stores only a keyed hash of the challenge, under an identifier naming the provider, until the cookie expires", async () => {
    const s = setup()
    const jar = new CookieJar()
    vi.useFakeTimers({ toFake: ["Date"] })
    const issued = Date.parse("2030-01-01T00:00:00Z")
    vi.setSystemTime(issued)
    const asked = await askOptions<RequestOptionsJSON>(s.config, jar, { action: "authenticate" }).finally(() => vi.useRealTimers())
    const stored = [...s.adapter.tables.verificationTokens.values()]
    expect(stored).toHaveLength(1)
    expect(stored[0]!.identifier).toBe("webauthn-challenge:passkey")
    expect(stored[0]!.token).toMatch(/^[0-9a-f]{64}$/)
    expect(JSON.stringify(stored)).not.toContain(asked.options.challenge)
    // The ceremony's timeout (5 minutes) plus the minute of grace the sealed cookie has.
    expect(stored[0]!.expires.getTime()).toBe(issued + 360_000)
  })
})

describe("logs", () => {
  it("never contain a challenge, the challenge cookie, the stored hash or the session token, with debug on", async () => {
    const { lines, logger } = recordingLogger()
    const s = setup({ debug: true, logger })
    const key = new SoftAuthenticator()
    const secrets: string[] = []

    const jar = new CookieJar()
    const creation = await askOptions<CreationOptionsJSON>(s.config, jar, { action: "register", email })
    secrets.push(creation.options.challenge, jar.get(challengeCookie)!, ...[...s.adapter.tables.verificationTokens.values()].map((t) => t.token))
    await expectSignedIn(s.config, jar, await postResponse(s.config, jar, "register", key.register(creation.options, { origin })), email)
    secrets.push(jar.get("sesame.session-token")!)

    const jar2 = new CookieJar()
    const request = await askOptions<RequestOptionsJSON>(s.config, jar2, { action: "authenticate" })
    secrets.push(request.options.challenge, jar2.get(challengeCookie)!, ...[...s.adapter.tables.verificationTokens.values()].map((t) => t.token))
    const data = key.authenticate(request.options, { origin })
    const attacker = capture(jar2)
    await expectSignedIn(s.config, jar2, await postResponse(s.config, jar2, "authenticate", data), email)
    secrets.push(jar2.get("sesame.session-token")!)
    // A refused replay logs its error; that must not quote anything either.
    await postResponse(s.config, attacker, "authenticate", data)

    expect(lines.length).toBeGreaterThan(0)
    expect(lines.some((l) => l.includes("WebAuthnVerificationError"))).toBe(true)
    for (const value of secrets) {
      expect(value.length).toBeGreaterThan(20)
      for (const line of lines) expect(line).not.toContain(value)
    }
  })
})
