/**
 * The sign-in time of a database session on an adapter that does not store it (only the spec's
 * operations, as every Auth.js adapter): a sealed cookie bound to the session
 * (`session/start-cookie.ts`). Without it, a user who has just signed in could never add a passkey
 * or change a password there. The attacks: a fresh start cookie carried to an old session, a forged
 * one, none at all; each must leave the old session not recent.
 */
import { requireRecentSignIn, type AuthConfig } from "@sesame/core"
import { describe, expect, it } from "vitest"
import { followLink, lastLink, recordingEmail, requestLink } from "../email/helpers.js"
import { specOnlyAdapter } from "../adapters/spec-only.js"
import { CookieJar, csrfToken, frozenClock, request, secret, send } from "../helpers.js"

const startCookie = "sesame.session-start"
const advance = frozenClock("2026-12-01T10:00:00Z")

/** Database sessions on an adapter with only the spec's operations. */
function app() {
  const { adapter } = specOnlyAdapter()
  const email = recordingEmail()
  const config: AuthConfig = { secret, trustHost: true, adapter, session: { strategy: "database" }, providers: [email.provider], logger: { error: () => {}, warn: () => {}, debug: () => {} } }
  return { config, sent: email.sent }
}

async function signIn(target: ReturnType<typeof app>, address: string): Promise<CookieJar> {
  const jar = new CookieJar()
  await requestLink(target.config, jar, address)
  await followLink(target.config, jar, lastLink(target.sent))
  return jar
}

const recent = (config: AuthConfig, cookie: string) => requireRecentSignIn(request("/settings", { cookie }), config)

describe("a database session's start, with an adapter that does not store it", () => {
  it("a fresh sign-in is recent, an old one is not; signing out deletes the cookie", async () => {
    const target = app()
    const jar = await signIn(target, "ada@example.com")
    expect(jar.get(startCookie)).toBeDefined()
    expect(await recent(target.config, jar.header())).toEqual({ recent: true })
    advance(60 * 60 * 1000)
    expect(await recent(target.config, jar.header())).toMatchObject({ recent: false, reason: "SignInTooOld" })
    const out = await send(target.config, "/auth/signout", { jar, form: { csrfToken: await csrfToken(target.config, jar) } })
    expect(out.headers.getSetCookie().some((c) => c.startsWith(`${startCookie}=;`))).toBe(true)
  })

  it("another session's fresh start cookie does not make an old session recent", async () => {
    const target = app()
    const victim = await signIn(target, "ada@example.com")
    advance(60 * 60 * 1000)
    const attacker = await signIn(target, "mallory@example.com")
    const transplanted = `sesame.session-token=${victim.get("sesame.session-token")}; ${startCookie}=${attacker.get(startCookie)}`
    expect(await recent(target.config, transplanted)).toMatchObject({ recent: false, reason: "SignInTooOld" })
  })

  it("a forged start cookie, or none, leaves the start unknown: never recent, and never an error", async () => {
    const target = app()
    const jar = await signIn(target, "ada@example.com")
    const session = `sesame.session-token=${jar.get("sesame.session-token")}`
    expect(await recent(target.config, session)).toMatchObject({ recent: false, reason: "SignInTooOld" })
    for (const forged of ["x", "eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2Q0JDLUhTNTEyIn0..a.b.c", jar.get("sesame.session-token")!]) {
      expect(await recent(target.config, `${session}; ${startCookie}=${forged}`)).toMatchObject({ recent: false, reason: "SignInTooOld" })
    }
  })
})

