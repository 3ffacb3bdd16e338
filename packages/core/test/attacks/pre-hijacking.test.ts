/**
 * Account pre-hijacking: the attacker, signed out, attaches a sign-in method of his own to the
 * victim's email address before the victim ever signs up (a passkey registered for the victim's
 * address, or an account at a provider that does not check addresses), hoping the victim's later
 * sign-up lands in the same user and leaves his method in place. Or, failing that, that the victim
 * is locked out of their own address.
 *
 * Defence (`account/decide.ts`, `set-aside.ts`, `unproven.ts`): a user Sesame creates from an
 * unproven address stays unverified and carries a mark. When the owner proves the address by email
 * (a link, a code, a password-reset link), that user is set aside under a placeholder address with
 * everything attached to it, and the owner gets a new user of their own: the squatter's ways in
 * never reach the owner, and the owner never inherits the squatter's rows. A provider's word never
 * merges into an existing user (`OAuthAccountNotLinked`), vouched or not.
 * (Behaviour change, issue 30: the squatter's user used to be handed to the owner with its ways in
 * removed; now it is set aside, and a vouching provider no longer takes an address back.)
 */
import type { AuthConfig, OIDCConfig } from "@sesame/core"
import { MemoryAdapter, type MemoryAdapterInstance } from "@sesame/core/adapters"
import { decode, getToken } from "@sesame/core/jwt"
import Passkey from "@sesame/core/providers/passkey"
import type { DevIdp } from "@sesame/dev-idp"
import { SoftAuthenticator } from "@sesame/testing"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { recordingEmail, followLink, lastLink, requestLink } from "../email/helpers.js"
import { CookieJar, origin, recordingLogger, secret, send, setAsideAddressOf } from "../helpers.js"
import { atProvider, callbackUrl, client, clientSecret, deliver, quietLogger, session, startIdp, startSignIn } from "../oauth/harness.js"
import { authenticate, postResponse, register } from "../webauthn/harness.js"
import { storePassword, storedPassword } from "../../src/password/storage.js"

const victim = "alice@example.com"

let idp: DevIdp

beforeAll(async () => {
  // "dev" vouches for its addresses; "loose" (a second client of the same IdP, whose accounts the
  // attacker controls) hands out addresses it never checked.
  idp = await startIdp({
    clients: [client("dev"), client("loose")],
    accounts: [
      { id: "alice", email: victim, name: "Alice Liddell", email_verified: true },
      { id: "mallory", email: victim, name: "Alice (not really)", email_verified: false },
      { id: "bob", email: "bob@example.com", name: "Bob Builder", email_verified: true },
    ],
  })
})
afterAll(() => idp.close())

function oidcProvider(id: "dev" | "loose", overrides: Partial<OIDCConfig> = {}): OIDCConfig {
  return { id, name: id, type: "oidc", issuer: idp.issuer, clientId: id, clientSecret, checks: ["pkce", "nonce"], ...overrides }
}

interface App {
  config: AuthConfig
  adapter: MemoryAdapterInstance
  sent: ReturnType<typeof recordingEmail>["sent"]
  errors: Error[]
}

/**
 * The app under attack: passkeys, email links and both IdP clients, or the OIDC providers
 * `oidc` returns (beside email links).
 */
function app(strategy: "database" | "jwt" = "database", overrides: Partial<AuthConfig> = {}, oidc?: OIDCConfig[]): App {
  const adapter = MemoryAdapter()
  const email = recordingEmail()
  const { errors, logger } = quietLogger()
  const config: AuthConfig = {
    secret,
    trustHost: true,
    adapter,
    session: { strategy },
    providers: oidc ? [email.provider, ...oidc] : [Passkey(), email.provider, oidcProvider("dev"), oidcProvider("loose")],
    experimental: { enableWebAuthn: true },
    logger,
    ...overrides,
  }
  return { config, adapter, sent: email.sent, errors }
}

/** Signs in at the dev IdP as `login` through provider `id`; returns the callback's response. */
async function viaIdp(config: AuthConfig, jar: CookieJar, id: "dev" | "loose", login: string): Promise<Response> {
  const start = await startSignIn(config, jar, id, { query: { login_hint: login } })
  const answer = await atProvider(start.headers.get("location")!, callbackUrl(id))
  return deliver(config, jar, answer)
}

async function signInByEmail(target: App, jar: CookieJar, address: string): Promise<Response> {
  await requestLink(target.config, jar, address)
  return followLink(target.config, jar, lastLink(target.sent))
}

function errorOf(response: Response): string | null {
  const location = response.headers.get("location")
  return location ? new URL(location).searchParams.get("error") : null
}

describe.each(["database", "jwt"] as const)("passkey squatting (%s sessions)", (strategy) => {
  it("the victim's emailed link sets the squatter aside: the attacker's passkey and session no longer reach the address", async () => {
    const target = app(strategy)
    const attacker = new CookieJar()
    const key = new SoftAuthenticator()
    const squat = await register(target.config, attacker, key, victim)
    expect(squat.response.status).toBe(302)
    const squatted = await target.adapter.getUserByEmail(victim)
    expect(squatted?.emailVerified).toBeNull()
    expect((await session(target.config, attacker))?.user?.email).toBe(victim)
    // A password the squatter got stored for the user (an app's own sign-up, say) is a way in too.
    await storePassword(target.adapter, { userId: squatted!.id, hash: "$argon2id$squatter", updatedAt: new Date() })

    const browser = new CookieJar()
    const confirmed = await signInByEmail(target, browser, victim)
    expect(confirmed.headers.get("location")).toBe(`${origin}/`)
    expect((await session(target.config, browser))?.user?.email).toBe(victim)

    // A new user of the owner's own, verified and with nothing attached; the squatter's user (and
    // whatever the app stored for it) stays the squatter's, under a placeholder address.
    const owner = (await target.adapter.getUserByEmail(victim))!
    expect(owner.id).not.toBe(squatted!.id)
    expect(owner.emailVerified).toBeInstanceOf(Date)
    expect(await target.adapter.listAuthenticatorsByUserId(owner.id)).toEqual([])
    expect(await target.adapter.listAccountsByUserId(owner.id)).toEqual([])
    expect(await storedPassword(target.adapter, owner.id)).toBeNull()
    const aside = (await target.adapter.getUser(squatted!.id))!
    expect(aside.email).toMatch(setAsideAddressOf(squatted!.id))
    expect(aside.emailVerified).toBeNull()

    // The attacker's session from the squat no longer names the victim's address (a JWT ends; a
    // database session shows the set-aside user), and his passkey reaches only his own user.
    expect((await session(target.config, attacker))?.user?.email ?? null).not.toBe(victim)
    if (strategy === "jwt") expect(await session(target.config, attacker)).toBeNull()
    const again = new CookieJar()
    await authenticate(target.config, again, key)
    expect((await session(target.config, again))?.user?.email).toBe(aside.email)
    // The victim's own session is untouched by all that.
    expect((await session(target.config, browser))?.user?.email).toBe(victim)
  })

  it("a provider vouching for the address never merges into the squatter's user: refused, nothing changed, and the owner's email link still works", async () => {
    const target = app(strategy)
    const attacker = new CookieJar()
    const key = new SoftAuthenticator()
    await register(target.config, attacker, key, victim)
    const squatted = (await target.adapter.getUserByEmail(victim))!

    const browser = new CookieJar()
    const done = await viaIdp(target.config, browser, "dev", "alice")
    expect(errorOf(done)).toBe("OAuthAccountNotLinked")
    expect(await session(target.config, browser)).toBeNull()
    expect(await target.adapter.getUserByAccount({ provider: "dev", providerAccountId: "alice" })).toBeNull()
    expect(await target.adapter.getUserByEmail(victim)).toEqual(squatted)

    // The owner proves the address by email, then links the provider while signed in.
    await signInByEmail(target, browser, victim)
    expect(errorOf(await viaIdp(target.config, browser, "dev", "alice"))).toBeNull()
    const owner = (await target.adapter.getUserByEmail(victim))!
    expect(owner.id).not.toBe(squatted.id)
    expect((await target.adapter.listAccountsByUserId(owner.id)).map((a) => a.provider)).toEqual(["dev"])
    const again = new CookieJar()
    await authenticate(target.config, again, key)
    expect((await session(target.config, again))?.user?.email).not.toBe(victim)
  })
})

describe("squatting through a provider that does not check addresses", () => {
  it("the attacker's provider account stays with the set-aside user when the owner follows an emailed link, and never reaches the owner", async () => {
    const target = app()
    const attacker = new CookieJar()
    const squat = await viaIdp(target.config, attacker, "loose", "mallory")
    expect(errorOf(squat)).toBeNull()
    const squatted = (await target.adapter.getUserByEmail(victim))!
    expect(squatted.emailVerified).toBeNull()

    const browser = new CookieJar()
    await signInByEmail(target, browser, victim)
    const owner = (await target.adapter.getUserByEmail(victim))!
    expect(owner.id).not.toBe(squatted.id)
    expect(await target.adapter.listAccountsByUserId(owner.id)).toEqual([])
    expect((await session(target.config, attacker))?.user?.email).not.toBe(victim)

    // Signing in again with his account reaches his own, set-aside user, never the owner's.
    const retry = new CookieJar()
    expect(errorOf(await viaIdp(target.config, retry, "loose", "mallory"))).toBeNull()
    expect((await session(target.config, retry))?.user?.email).toMatch(setAsideAddressOf(squatted.id))
  })

  it("an address the provider does not vouch for never takes over a verified user", async () => {
    const target = app()
    const owner = new CookieJar()
    await signInByEmail(target, owner, victim)
    const attacker = new CookieJar()
    const refused = await viaIdp(target.config, attacker, "loose", "mallory")
    expect(errorOf(refused)).toBe("OAuthAccountNotLinked")
    expect(await session(target.config, attacker)).toBeNull()
    expect((await session(target.config, owner))?.user?.email).toBe(victim)
  })
})

describe("the legitimate flows beside it", () => {
  it("a passkey sign-up for a new address works, and signs in again later", async () => {
    const target = app()
    const key = new SoftAuthenticator()
    const signup = await register(target.config, new CookieJar(), key, "new@example.com")
    expect(signup.response.headers.get("location")).toBe(`${origin}/`)
    const jar = new CookieJar()
    await authenticate(target.config, jar, key)
    expect((await session(target.config, jar))?.user?.email).toBe("new@example.com")
  })

  it("a returning verified user keeps the passkey they added while signed in", async () => {
    const target = app()
    const jar = new CookieJar()
    await signInByEmail(target, jar, victim)
    const key = new SoftAuthenticator()
    expect((await register(target.config, jar, key)).response.status).toBe(302)
    const later = new CookieJar()
    await signInByEmail(target, later, victim)
    const passkey = new CookieJar()
    await authenticate(target.config, passkey, key)
    expect((await session(target.config, passkey))?.user?.email).toBe(victim)
  })

  it("a user created through a provider that vouches for the address starts verified", async () => {
    const target = app()
    await viaIdp(target.config, new CookieJar(), "dev", "bob")
    expect((await target.adapter.getUserByEmail("bob@example.com"))?.emailVerified).toBeInstanceOf(Date)
  })
})

describe("allowDangerousEmailAccountLinking", () => {
  function linking() {
    return app("database", {}, [
      oidcProvider("dev", { allowDangerousEmailAccountLinking: true }),
      oidcProvider("loose", { allowDangerousEmailAccountLinking: true }),
    ])
  }

  it("does not link an address the provider does not vouch for", async () => {
    const target = linking()
    await viaIdp(target.config, new CookieJar(), "dev", "alice")
    const attacker = new CookieJar()
    expect(errorOf(await viaIdp(target.config, attacker, "loose", "mallory"))).toBe("OAuthAccountNotLinked")
    expect(await session(target.config, attacker)).toBeNull()
    const user = (await target.adapter.getUserByEmail(victim))!
    expect((await target.adapter.listAccountsByUserId(user.id)).map((a) => a.provider)).toEqual(["dev"])
  })

  it("links an address the provider vouches for (the option's purpose)", async () => {
    const target = linking()
    // The first sign-in is through the provider that does not check: an unproven user. The
    // second provider vouches for the address, so the first one's user is set aside and the owner
    // gets a new one with the vouching account (the squatter's account never joins it)...
    await viaIdp(target.config, new CookieJar(), "loose", "mallory")
    const squatted = (await target.adapter.getUserByEmail(victim))!
    await viaIdp(target.config, new CookieJar(), "dev", "alice")
    const user = (await target.adapter.getUserByEmail(victim))!
    expect(user.id).not.toBe(squatted.id)
    expect(user.emailVerified).toBeInstanceOf(Date)
    expect((await target.adapter.listAccountsByUserId(user.id)).map((a) => a.provider)).toEqual(["dev"])
    expect((await target.adapter.listAccountsByUserId(squatted.id)).map((a) => a.provider)).toEqual(["loose"])
    // ...and a verified user gets a second vouching provider's account linked.
    const second = app("database", {}, [
      oidcProvider("dev", { allowDangerousEmailAccountLinking: true }),
      oidcProvider("loose", { allowDangerousEmailAccountLinking: true, isEmailVerified: () => true }),
    ])
    await viaIdp(second.config, new CookieJar(), "dev", "alice")
    const jar = new CookieJar()
    expect(errorOf(await viaIdp(second.config, jar, "loose", "alice"))).toBeNull()
    const linked = (await second.adapter.getUserByEmail(victim))!
    expect((await second.adapter.listAccountsByUserId(linked.id)).map((a) => a.provider).sort()).toEqual(["dev", "loose"])
  })
})

describe('checks: ["none"]', () => {
  it("cannot link an account to a signed-in user (login CSRF into the victim's user), and is warned about", async () => {
    const warnings: string[] = []
    const { logger } = quietLogger()
    const target = app("database", { logger: { ...logger, warn: (code) => void warnings.push(code) } }, [oidcProvider("dev", { checks: ["none"] })])
    const victimBrowser = new CookieJar()
    await signInByEmail(target, victimBrowser, "carol@example.com")
    // The attacker got a code for his own account at the provider and has the victim's browser
    // deliver it: without checks, nothing ties the callback to this browser.
    const attackerBrowser = new CookieJar()
    const start = await startSignIn(target.config, attackerBrowser, "dev", { query: { login_hint: "bob" } })
    const answer = await atProvider(start.headers.get("location")!, callbackUrl("dev"))
    const forged = await deliver(target.config, victimBrowser, answer)
    expect(errorOf(forged)).toBe("OAuthAccountNotLinked")
    const carol = (await target.adapter.getUserByEmail("carol@example.com"))!
    expect(await target.adapter.listAccountsByUserId(carol.id)).toEqual([])
    expect(warnings).toContain("oauth-checks-none")
  })

  it("still signs a signed-out visitor in", async () => {
    const target = app("database", {}, [oidcProvider("dev", { checks: ["none"] })])
    const jar = new CookieJar()
    expect(errorOf(await viaIdp(target.config, jar, "dev", "bob"))).toBeNull()
    expect((await session(target.config, jar))?.user?.email).toBe("bob@example.com")
  })
})

describe("sub without an adapter", () => {
  it("is never shared by two providers' users with the same account id, and stays the same", async () => {
    const config: AuthConfig = { secret, trustHost: true, providers: [oidcProvider("dev"), oidcProvider("loose")] }
    const subs: string[] = []
    for (const id of ["dev", "loose", "dev"] as const) {
      const jar = new CookieJar()
      expect(errorOf(await viaIdp(config, jar, id, "bob"))).toBeNull()
      const token = await send(config, "/auth/session", { jar })
      expect(((await token.json()) as { user?: { email?: string } }).user?.email).toBe("bob@example.com")
      subs.push(String((await decode({ token: jar.get("sesame.session-token"), secret, salt: "sesame.session-token" }))?.sub))
    }
    expect(subs[0]).not.toBe("bob")
    expect(subs[0]).not.toBe(subs[1])
    expect(subs[2]).toBe(subs[0])
    expect(subs[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
  })
})

describe("an adapter with only the spec's operations", () => {
  it("sets a squatter aside too: the defence needs no method beyond the contract", async () => {
    const { unlinkAccount: _unlink, listAccountsByUserId: _list, deleteSessionsByUserId: _sessions, deleteAuthenticator: _delete, ...partial } = MemoryAdapter()
    const { lines, logger } = recordingLogger()
    const email = recordingEmail()
    const config: AuthConfig = { secret, trustHost: true, adapter: partial, providers: [Passkey(), email.provider], experimental: { enableWebAuthn: true }, logger }
    expect((await send(config, "/auth/providers")).status).toBe(200)
    const key = new SoftAuthenticator()
    await register(config, new CookieJar(), key, victim)
    const squatted = (await partial.getUserByEmail!(victim))!
    const browser = new CookieJar()
    await requestLink(config, browser, victim)
    await followLink(config, browser, lastLink(email.sent))
    expect((await session(config, browser))?.user?.email).toBe(victim)
    expect((await partial.getUserByEmail!(victim))!.id).not.toBe(squatted.id)
    expect(lines.join("\n")).not.toMatch(/MissingAdapterMethods/)
  })
})

describe("a squatter racing the owner's proof", () => {
  it("a passkey sign-in in flight while the owner's link sets the squatter aside never gives the squatter the owner's user", async () => {
    // The squatter's sign-in is held in the signIn callback (an app asking a slow deny-list
    // service, say) after his passkey verified, until the owner's confirmation has gone through.
    let release: () => void = () => {}
    const held = new Promise<void>((resolve) => (release = resolve))
    let reached: () => void = () => {}
    const inCallback = new Promise<void>((resolve) => (reached = resolve))
    let holding = false
    const target = app("database", {
      callbacks: {
        signIn: async ({ account }) => {
          if (holding && account?.type === "webauthn") {
            reached()
            await held
          }
          return true
        },
      },
    })
    const key = new SoftAuthenticator()
    await register(target.config, new CookieJar(), key, victim)
    const browser = new CookieJar()
    await requestLink(target.config, browser, victim)
    const link = lastLink(target.sent)
    const attacker = new CookieJar()
    const answer = await askOptionsFor(target, attacker, key)
    holding = true
    const squatting = postResponse(target.config, attacker, "authenticate", answer)
    await inCallback
    await followLink(target.config, browser, link)
    release()
    await squatting
    // The squatter's sign-in, decided before the proof, lands on his own set-aside user.
    expect((await session(target.config, attacker))?.user?.email).not.toBe(victim)
    expect(await target.adapter.listSessionsByUserId((await target.adapter.getUserByEmail(victim))!.id)).toHaveLength(1)
    expect((await session(target.config, browser))?.user?.email).toBe(victim)
  })

  it("an adapter that leaves emailVerified out does not spare a squatter's JWT session", async () => {
    const adapter = MemoryAdapter()
    // Drops null fields from the users it returns, as some document stores do.
    const dropsNulls = new Proxy(adapter, {
      get(target, name, receiver) {
        const value = Reflect.get(target, name, receiver) as unknown
        if (typeof value !== "function" || !/^get(User|UserByEmail|UserByAccount)$/.test(String(name))) return value
        return async (...args: unknown[]) => {
          const user = (await (value as (...a: unknown[]) => Promise<Record<string, unknown> | null>).apply(target, args)) ?? null
          return user && Object.fromEntries(Object.entries(user).filter(([, v]) => v !== null))
        }
      },
    })
    const email = recordingEmail()
    const { logger } = quietLogger()
    const config: AuthConfig = {
      secret,
      trustHost: true,
      adapter: dropsNulls,
      session: { strategy: "jwt" },
      providers: [Passkey(), email.provider],
      experimental: { enableWebAuthn: true },
      logger,
    }
    const key = new SoftAuthenticator()
    await register(config, new CookieJar(), key, victim)
    // A later sign-in with the squatted passkey: its user comes from getUser, without emailVerified.
    const attacker = new CookieJar()
    await authenticate(config, attacker, key)
    expect((await session(config, attacker))?.user?.email).toBe(victim)
    await requestLink(config, new CookieJar(), victim)
    await followLink(config, new CookieJar(), lastLink(email.sent))
    expect(await session(config, attacker)).toBeNull()
  })
})

/** The options of a passkey sign-in, answered by `key` (the response not yet posted). */
async function askOptionsFor(target: App, jar: CookieJar, key: SoftAuthenticator) {
  const response = await send(target.config, "/auth/webauthn-options/passkey?action=authenticate", { jar })
  const { options } = (await response.json()) as { options: Parameters<SoftAuthenticator["authenticate"]>[0] }
  return key.authenticate(options, { origin })
}

describe("look-alike addresses", () => {
  it("a passkey squat on a full-width look-alike is the same address, and the owner's link sets it aside", async () => {
    const target = app()
    const key = new SoftAuthenticator()
    await register(target.config, new CookieJar(), key, "\uFF41lice@example.com")
    expect((await target.adapter.getUserByEmail(victim))?.emailVerified).toBeNull()
    await signInByEmail(target, new CookieJar(), victim)
    const owner = (await target.adapter.getUserByEmail(victim))!
    expect(owner.emailVerified).toBeInstanceOf(Date)
    expect(await target.adapter.listAuthenticatorsByUserId(owner.id)).toEqual([])
    const squatter = new CookieJar()
    await authenticate(target.config, squatter, key)
    expect((await session(target.config, squatter))?.user?.email).toMatch(/@sesame\.invalid$/)
  })
})

describe("a planted session cookie beside the victim's own", () => {
  it("does not make the victim's new provider account part of the planter's user", async () => {
    const target = app("database", {}, [oidcProvider("dev")])
    // Bob (the attacker) signs in and keeps his session cookie.
    const bob = new CookieJar()
    await viaIdp(target.config, bob, "dev", "bob")
    const planted = `sesame.session-token=${bob.cookies.get("sesame.session-token")}`
    // The victim is signed in with her own session, and signs in at the provider as alice; a
    // sibling subdomain has planted Bob's session cookie, which the browser sends first.
    const victimJar = new CookieJar()
    await signInByEmail(target, victimJar, "carol@example.com")
    const start = await startSignIn(target.config, victimJar, "dev", { query: { login_hint: "alice" } })
    const answer = await atProvider(start.headers.get("location")!, callbackUrl("dev"))
    if (answer.kind !== "redirect") throw new Error("expected a redirect")
    await send(target.config, answer.url, { cookie: `${planted}; ${victimJar.header()}` })
    const bobUser = (await target.adapter.getUserByEmail("bob@example.com"))!
    expect((await target.adapter.listAccountsByUserId(bobUser.id)).map((a) => a.providerAccountId)).toEqual(["bob"])
  })
})

describe("getToken and a squatter's JWT", () => {
  it("with the adapter, a token of a user who was set aside gives null; the owner's is unaffected", async () => {
    const target = app("jwt")
    const attacker = new CookieJar()
    await register(target.config, attacker, new SoftAuthenticator(), victim)
    const owner = new CookieJar()
    await signInByEmail(target, owner, victim)
    const read = (jar: CookieJar, withAdapter: boolean) =>
      getToken({ req: new Request(`${origin}/api/data`, { headers: { cookie: jar.header() } }), secret, ...(withAdapter ? { adapter: target.adapter } : {}) })
    // Without the adapter getToken cannot know; the mark says so.
    expect((await read(attacker, false))?.email_unverified).toBe(victim)
    expect(await read(attacker, true)).toBeNull()
    expect((await read(owner, true))?.email).toBe(victim)
    expect((await read(owner, true))?.email_unverified).toBeUndefined()
  })
})
