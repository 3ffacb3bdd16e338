/**
 * An adapter written to the spec's contract and nothing more: the memory adapter behind a wrapper
 * that exposes only the spec's 19 operations (no `transaction`, no session management, no
 * `listAccountsByUserId`, no `deleteAuthenticator`...). Auth.js's published adapters are of this
 * kind (packages/authjs-compat runs them on real databases). Every provider kind (oauth, oidc,
 * email, credentials, webauthn), alone and all together, with both session strategies, through
 * `Auth()`: every built-in page and GET endpoint answers its status (never 500), each kind signs
 * in and out, a session ends when it expires, and the account-linking rules hold
 * (`OAuthAccountNotLinked`, `allowDangerousEmailAccountLinking` only when the provider vouches).
 */
import type { AuthConfig, OAuth2Config } from "@sesame/core"
import Credentials from "@sesame/core/providers/credentials"
import Passkey from "@sesame/core/providers/passkey"
import type { DevIdp } from "@sesame/dev-idp"
import { SoftAuthenticator } from "@sesame/testing"
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest"
import { CookieJar, csrfToken, home, secret, send } from "../helpers.js"
import { followLink, lastLink, recordingEmail, requestLink } from "../email/helpers.js"
import { client, clientSecret, expectRejected, oidc, quietLogger, session, signIn as providerSignIn, startIdp } from "../oauth/harness.js"
import { authenticate, register } from "../webauthn/harness.js"
import { specMethods, specOnlyAdapter } from "./spec-only.js"

const idpAccounts = [
  { id: "alice", email: "alice@example.com", name: "Alice Liddell" },
  { id: "bob", email: "bob@example.com", name: "Bob Builder" },
  { id: "unsure-bob", email: "bob@example.com", name: "Not Bob", email_verified: false },
]
const as = (id: string) => ({ query: { login_hint: id } })
const sessionCookie = "sesame.session-token"
const strategies = ["jwt", "database"] as const
type Strategy = (typeof strategies)[number]

let idp: DevIdp
beforeAll(async () => {
  idp = await startIdp({ clients: [client("dev"), client("plain"), client("trusted")], accounts: idpAccounts })
})
afterAll(() => idp.close())

/**
 * The dev IdP as an `oauth` provider: plain OAuth 2 (no nonce, the profile from the userinfo
 * endpoint), its endpoints discovered from the issuer. The openid scope is asked for because the
 * IdP's userinfo endpoint wants it; the ID token that comes with it is checked against the issuer.
 */
function plainOAuth(overrides: Partial<OAuth2Config> = {}): OAuth2Config {
  return {
    id: "plain",
    name: "Plain OAuth",
    type: "oauth",
    clientId: "plain",
    clientSecret,
    issuer: idp.issuer,
    authorization: { params: { scope: "openid email profile" } },
    profile: (profile) => ({ id: String(profile.sub), name: String(profile.name), email: String(profile.email) }),
    ...overrides,
  }
}

const kinds = ["oauth", "oidc", "email", "credentials", "webauthn"] as const
type Kind = (typeof kinds)[number]

/** A configuration with a spec-only adapter and the providers of `kinds`, and how each kind signs someone in. */
function setup(strategy: Strategy, with_: readonly Kind[]) {
  const { adapter, tables } = specOnlyAdapter()
  const mail = recordingEmail()
  const { errors: logged, logger } = quietLogger()
  const providers: AuthConfig["providers"] = []
  if (with_.includes("email")) providers.push(mail.provider)
  if (with_.includes("oauth")) providers.push(plainOAuth())
  if (with_.includes("oidc")) providers.push(oidc(idp))
  if (with_.includes("credentials")) {
    providers.push(
      Credentials({
        credentials: { email: { label: "Email" }, password: { label: "Password", type: "password" } },
        createUser: true,
        authorize: async (fields) => (fields.password === "open sesame" ? { id: "carol-1", name: "Carol", email: String(fields.email) } : null),
      }),
    )
  }
  if (with_.includes("webauthn")) providers.push(Passkey())
  const config: AuthConfig = {
    secret,
    trustHost: true,
    adapter,
    session: { strategy },
    logger,
    providers,
    ...(with_.includes("webauthn") ? { experimental: { enableWebAuthn: true } } : {}),
  }
  /** What the logger received as errors (flows expected to fail are checked by their answers instead). */
  const errors = () => logged.map((error) => `${error.name}: ${error.message}`)

  /** Signs `email` in with `kind` in `jar`; returns the final answer of the flow. */
  async function signIn(kind: Kind, jar: CookieJar, who: "alice" | "bob" = "alice"): Promise<Response> {
    const email = `${who}@example.com`
    switch (kind) {
      case "oauth":
        return providerSignIn(config, jar, "plain", as(who))
      case "oidc":
        return providerSignIn(config, jar, "dev", as(who))
      case "email": {
        expect((await requestLink(config, jar, email)).status).toBe(302)
        return followLink(config, jar, lastLink(mail.sent))
      }
      case "credentials":
        return send(config, "/auth/callback/credentials", { jar, form: { csrfToken: await csrfToken(config, jar), email, password: "open sesame" } })
      case "webauthn":
        return (await register(config, jar, new SoftAuthenticator(), email)).response
    }
  }
  return { config, tables, errors, signIn, sent: mail.sent }
}

async function signOut(config: AuthConfig, jar: CookieJar): Promise<Response> {
  return send(config, "/auth/signout", { jar, form: { csrfToken: await csrfToken(config, jar) } })
}

it("the wrapper exposes exactly the spec's 19 operations", () => {
  const { adapter } = specOnlyAdapter()
  expect(Object.keys(adapter).sort()).toEqual([...specMethods].sort())
  expect(specMethods).toHaveLength(19)
})

describe.each(strategies)("%s sessions, spec-only adapter", (strategy) => {
  const sets: { label: string; with_: readonly Kind[] }[] = [...kinds.map((kind) => ({ label: kind, with_: [kind] })), { label: "all kinds together", with_: kinds }]
  describe.each(sets)("$label", ({ with_ }) => {

    it("every built-in page and GET endpoint answers its status, never 500", async () => {
      const { config, errors } = setup(strategy, with_)
      const jar = new CookieJar()
      const expected: Record<string, number> = {
        providers: 200,
        csrf: 200,
        session: 200,
        signin: 200,
        signout: 200,
        error: 200,
        "error?error=Verification": 403,
        "error?error=AccessDenied": 403,
        "verify-request": 200,
      }
      if (with_.includes("webauthn")) expected["webauthn-options/passkey"] = 200
      const got: Record<string, number> = {}
      for (const path of Object.keys(expected)) got[path] = (await send(config, `/auth/${path}`, { jar })).status
      expect(got).toEqual(expected)
      expect(await (await send(config, "/auth/session", { jar })).json()).toBeNull()
      expect(errors()).toEqual([])
    })

    // Each kind signs in and out; with all kinds together, each of them in turn.
    it.each(with_.map((kind) => [kind]))("%s: signs in, the session reads back, sign-out ends it", async (kind) => {
      const { config, tables, errors, signIn } = setup(strategy, with_)
      const jar = new CookieJar()
      const answer = await signIn(kind, jar)
      expect(answer.status).toBe(302)
      expect(answer.headers.get("location")).toBe(home)
      expect((await session(config, jar))?.user).toMatchObject({ email: "alice@example.com" })
      if (kind !== "credentials" || strategy === "database") {
        expect([...tables.users.values()].map((u) => u.email)).toEqual(["alice@example.com"])
      }
      expect(tables.sessions.size).toBe(strategy === "database" ? 1 : 0)

      const out = await signOut(config, jar)
      expect(out.status).toBe(302)
      expect(jar.get(sessionCookie)).toBeUndefined()
      expect(await session(config, jar)).toBeNull()
      expect(tables.sessions.size).toBe(0)
      expect(errors()).toEqual([])
    })

    it("an expired session is no session", async () => {
      const { config, tables, errors, signIn } = setup(strategy, with_)
      const jar = new CookieJar()
      await signIn(with_[0]!, jar)
      expect(await session(config, jar)).not.toBeNull()
      if (strategy === "database") {
        const [key, stored] = [...tables.sessions][0]!
        tables.sessions.set(key, { ...stored, expires: new Date(Date.now() - 60_000) })
        expect(await session(config, jar)).toBeNull()
        expect(jar.get(sessionCookie)).toBeUndefined()
        expect(tables.sessions.size).toBe(0)
      } else {
        vi.useFakeTimers({ toFake: ["Date"] })
        try {
          vi.setSystemTime(Date.now() + 31 * 24 * 3600 * 1000)
          expect(await session(config, jar)).toBeNull()
        } finally {
          vi.useRealTimers()
        }
      }
      expect(errors()).toEqual([])
    })
  })

  describe("email links", () => {
    it("a new address becomes a verified user; the same address signs in again as that user", async () => {
      const { config, tables, errors, signIn } = setup(strategy, ["email"])
      expect((await signIn("email", new CookieJar())).headers.get("location")).toBe(home)
      const [user, ...others] = [...tables.users.values()]
      expect(others).toEqual([])
      expect(user).toMatchObject({ email: "alice@example.com", emailVerified: expect.any(Date) })
      expect(tables.verificationTokens.size).toBe(0)
      const jar = new CookieJar()
      await signIn("email", jar)
      expect((await session(config, jar))?.user).toMatchObject({ email: "alice@example.com" })
      expect([...tables.users.keys()]).toEqual([user!.id])
      expect(errors()).toEqual([])
    })
  })

  describe("passkeys", () => {
    it("a user signed in by email link adds a passkey, signs out and signs in with it", async () => {
      const { config, tables, errors, signIn } = setup(strategy, ["email", "webauthn"])
      const jar = new CookieJar()
      await signIn("email", jar)
      const [alice] = [...tables.users.values()]
      const key = new SoftAuthenticator()
      const added = await register(config, jar, key)
      expect(added.response.status).toBe(302)
      expect([...tables.authenticators.values()]).toEqual([expect.objectContaining({ userId: alice!.id, counter: 0 })])
      await signOut(config, jar)
      expect(await session(config, jar)).toBeNull()
      const back = await authenticate(config, jar, key)
      expect(back.response.headers.get("location")).toBe(home)
      expect((await session(config, jar))?.user).toMatchObject({ email: "alice@example.com" })
      expect([...tables.authenticators.values()][0]!.counter).toBeGreaterThan(0)
      expect(errors()).toEqual([])
    })
  })

  describe.each(["oauth", "oidc"] as const)("%s accounts and email-link users", (kind) => {
    const providerId = kind === "oauth" ? "plain" : "dev"

    function linkingSetup(allowDangerousEmailAccountLinking: boolean) {
      const base = setup(strategy, ["email"])
      const provider = kind === "oauth" ? plainOAuth({ allowDangerousEmailAccountLinking }) : oidc(idp, { allowDangerousEmailAccountLinking })
      const config: AuthConfig = { ...base.config, providers: [...base.config.providers, provider] }
      return { ...base, config }
    }

    async function bobByEmail(config: AuthConfig, sent: Parameters<typeof lastLink>[0]) {
      const jar = new CookieJar()
      expect((await requestLink(config, jar, "bob@example.com")).status).toBe(302)
      expect((await followLink(config, jar, lastLink(sent))).headers.get("location")).toBe(home)
    }

    it("a new account makes a verified user with the account linked; the returning account signs the same user in", async () => {
      const { config, tables, errors } = linkingSetup(false)
      const jar = new CookieJar()
      expect((await providerSignIn(config, jar, providerId, as("alice"))).headers.get("location")).toBe(home)
      const [user, ...others] = [...tables.users.values()]
      expect(others).toEqual([])
      expect(user).toMatchObject({ email: "alice@example.com", emailVerified: expect.any(Date) })
      expect([...tables.accounts.values()]).toEqual([expect.objectContaining({ provider: providerId, type: kind, providerAccountId: "alice", userId: user!.id })])
      const again = new CookieJar()
      await providerSignIn(config, again, providerId, as("alice"))
      expect((await session(config, again))?.user).toMatchObject({ email: "alice@example.com" })
      expect(tables.users.size).toBe(1)
      expect(tables.accounts.size).toBe(1)
      expect(errors()).toEqual([])
    })

    it("OAuthAccountNotLinked: the address belongs to a user who signed up by email link; nothing changes", async () => {
      const { config, tables, sent, errors } = linkingSetup(false)
      await bobByEmail(config, sent)
      const before = structuredClone([...tables.users.values()])
      const jar = new CookieJar()
      await expectRejected(config, jar, await providerSignIn(config, jar, providerId, as("bob")), "OAuthAccountNotLinked")
      expect(tables.accounts.size).toBe(0)
      expect([...tables.users.values()]).toEqual(before)
      expect(errors().filter((line) => !line.startsWith("OAuthAccountNotLinked: "))).toEqual([])
    })

    it("allowDangerousEmailAccountLinking links the account to that user when the provider vouches for the address", async () => {
      const { config, tables, sent, errors } = linkingSetup(true)
      await bobByEmail(config, sent)
      const [bob] = [...tables.users.values()]
      const jar = new CookieJar()
      expect((await providerSignIn(config, jar, providerId, as("bob"))).headers.get("location")).toBe(home)
      expect((await session(config, jar))?.user).toMatchObject({ email: "bob@example.com" })
      expect([...tables.users.keys()]).toEqual([bob!.id])
      expect([...tables.accounts.values()]).toEqual([expect.objectContaining({ provider: providerId, providerAccountId: "bob", userId: bob!.id })])
      // The email link still signs Bob in.
      await bobByEmail(config, sent)
      expect(tables.users.size).toBe(1)
      expect(errors()).toEqual([])
    })

    it("allowDangerousEmailAccountLinking does not link an address the provider does not vouch for", async () => {
      const { config, tables, sent, errors } = linkingSetup(true)
      await bobByEmail(config, sent)
      const before = structuredClone([...tables.users.values()])
      const jar = new CookieJar()
      await expectRejected(config, jar, await providerSignIn(config, jar, providerId, as("unsure-bob")), "OAuthAccountNotLinked")
      expect(tables.accounts.size).toBe(0)
      expect([...tables.users.values()]).toEqual(before)
      expect(errors().filter((line) => !line.startsWith("OAuthAccountNotLinked: "))).toEqual([])
    })
  })
})
