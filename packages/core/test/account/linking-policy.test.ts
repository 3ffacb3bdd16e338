/**
 * The account-linking table (`src/account/decide.ts`, the README's "Account linking"), row by row,
 * through `Auth()`, with both session strategies; then one attack per pre-hijacking class of
 * Sudhodanan and Paverd ("Pre-hijacked accounts", 2022), and a provider that vouches for an address
 * it does not own. Each attack must fail; beside it, the legitimate flow still works.
 *
 * The stored user's states: verified; unverified (what Auth.js stores for every OAuth user: a null
 * `emailVerified`, no mark); unproven (made by Sesame without proof: here a real passkey sign-up).
 */
import type { AuthConfig, OIDCConfig } from "@sesame/core"
import { MemoryAdapter, type MemoryAdapterInstance } from "@sesame/core/adapters"
import type { AdapterUser } from "@sesame/core/adapters"
import Passkey from "@sesame/core/providers/passkey"
import type { DevIdp } from "@sesame/dev-idp"
import { SoftAuthenticator } from "@sesame/testing"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { followLink, lastLink, recordingEmail, requestLink } from "../email/helpers.js"
import { CookieJar, origin, secret, setAsideAddressOf } from "../helpers.js"
import { atProvider, callbackUrl, client, clientSecret, deliver, quietLogger, session, startIdp, startSignIn } from "../oauth/harness.js"
import { askOptions, authenticate, register } from "../webauthn/harness.js"

const address = "alice@example.com"

let idp: DevIdp

beforeAll(async () => {
  // "dev" vouches for its addresses; "loose" (another client of the same IdP) hands out addresses
  // it never checked: "mallory" there claims Alice's address.
  idp = await startIdp({
    clients: [client("dev"), client("loose")],
    accounts: [
      { id: "alice", email: address, name: "Alice Liddell", email_verified: true },
      { id: "mallory", email: address, name: "Alice (not really)", email_verified: false },
      { id: "bob", email: "bob@example.com", name: "Bob", email_verified: true },
    ],
  })
})
afterAll(() => idp.close())

type Strategy = "database" | "jwt"
type Id = "dev" | "loose"

interface App {
  config: AuthConfig
  adapter: MemoryAdapterInstance
  sent: ReturnType<typeof recordingEmail>["sent"]
}

function provider(id: Id, overrides: Partial<OIDCConfig> = {}): OIDCConfig {
  return { id, name: id, type: "oidc", issuer: idp.issuer, clientId: id, clientSecret, checks: ["pkce", "nonce"], ...overrides }
}

function app(strategy: Strategy, options: { dangerous?: boolean; lying?: boolean } = {}): App {
  const adapter = MemoryAdapter()
  const email = recordingEmail()
  const linking = options.dangerous ? { allowDangerousEmailAccountLinking: true } : {}
  const config: AuthConfig = {
    secret,
    trustHost: true,
    adapter,
    session: { strategy },
    providers: [
      Passkey(),
      email.provider,
      provider("dev", linking),
      // A lying provider: says it checked every address, and did not.
      provider("loose", { ...linking, ...(options.lying ? { isEmailVerified: () => true } : {}) }),
    ],
    experimental: { enableWebAuthn: true },
    logger: quietLogger().logger,
  }
  return { config, adapter, sent: email.sent }
}

async function viaIdp(target: App, jar: CookieJar, id: Id, login: string): Promise<string | null> {
  const start = await startSignIn(target.config, jar, id, { query: { login_hint: login } })
  const done = await deliver(target.config, jar, await atProvider(start.headers.get("location")!, callbackUrl(id)))
  return new URL(done.headers.get("location")!).searchParams.get("error")
}

async function viaEmail(target: App, jar: CookieJar): Promise<void> {
  await requestLink(target.config, jar, address)
  const done = await followLink(target.config, jar, lastLink(target.sent))
  expect(done.headers.get("location")).toBe(`${origin}/`)
}

const emailOf = async (target: App, jar: CookieJar) => (await session(target.config, jar))?.user?.email ?? null

/** The stored user of each state, holding the address. */
async function stored(target: App, state: "verified" | "unverified" | "unproven"): Promise<{ user: AdapterUser; key?: SoftAuthenticator; jar?: CookieJar }> {
  if (state === "unproven") {
    const key = new SoftAuthenticator()
    const jar = new CookieJar()
    await register(target.config, jar, key, address)
    return { user: (await target.adapter.getUserByEmail(address))!, key, jar }
  }
  // As Auth.js stored it: a user made at a provider sign-in, emailVerified null, its account linked.
  const user = await target.adapter.createUser({ id: crypto.randomUUID(), email: address, name: "Alice", image: null, emailVerified: state === "verified" ? new Date() : null })
  await target.adapter.linkAccount({ userId: user.id, type: "oidc", provider: "dev", providerAccountId: "alice" })
  return { user }
}

/** The user's provider accounts (a passkey's account row left out), as `provider:id`. */
const providers = async (target: App, userId: string) =>
  (await target.adapter.listAccountsByUserId(userId)).filter((a) => a.type !== "webauthn").map((a) => `${a.provider}:${a.providerAccountId}`).sort()

describe.each(["database", "jwt"] as const)("the table (%s sessions)", (strategy) => {
  it("none × email link: a new verified user", async () => {
    const target = app(strategy)
    const jar = new CookieJar()
    await viaEmail(target, jar)
    expect((await target.adapter.getUserByEmail(address))?.emailVerified).toBeInstanceOf(Date)
    expect(await emailOf(target, jar)).toBe(address)
  })

  it("none × a vouching provider: a new verified user; × one that does not vouch: a new unproven user", async () => {
    const vouched = app(strategy)
    expect(await viaIdp(vouched, new CookieJar(), "dev", "alice")).toBeNull()
    expect((await vouched.adapter.getUserByEmail(address))?.emailVerified).toBeInstanceOf(Date)
    const unvouched = app(strategy)
    expect(await viaIdp(unvouched, new CookieJar(), "loose", "mallory")).toBeNull()
    const user = (await unvouched.adapter.getUserByEmail(address))!
    expect(user.emailVerified).toBeNull()
    // The mark: a verification-token row naming the user, never an address.
    expect([...unvouched.adapter.tables.verificationTokens.values()].map((t) => t.identifier)).toEqual([`sesame:unproven:${user.id}`])
  })

  it("any × its own provider account or passkey: that user signs in, nothing else changes", async () => {
    for (const state of ["verified", "unverified", "unproven"] as const) {
      const target = app(strategy)
      const { user, key } = await stored(target, state)
      const jar = new CookieJar()
      if (key) await authenticate(target.config, jar, key)
      else expect(await viaIdp(target, jar, "dev", "alice")).toBeNull()
      expect(await emailOf(target, jar), state).toBe(address)
      expect(await target.adapter.getUserByEmail(address), state).toEqual(user)
    }
  })

  it("verified or unverified × email link: that user signs in, now verified, every way in kept (Auth.js's users)", async () => {
    for (const state of ["verified", "unverified"] as const) {
      const target = app(strategy)
      const { user } = await stored(target, state)
      const jar = new CookieJar()
      await viaEmail(target, jar)
      const after = (await target.adapter.getUserByEmail(address))!
      expect(after.id, state).toBe(user.id)
      expect(after.emailVerified, state).toBeInstanceOf(Date)
      expect(await providers(target, user.id), state).toEqual(["dev:alice"])
      // And the account still signs in, to the same user.
      const again = new CookieJar()
      expect(await viaIdp(target, again, "dev", "alice")).toBeNull()
      expect(await emailOf(target, again)).toBe(address)
    }
  })

  it("unproven × email link: that user is set aside, the prover gets a new verified user", async () => {
    const target = app(strategy)
    const { user } = await stored(target, "unproven")
    const jar = new CookieJar()
    await viaEmail(target, jar)
    const owner = (await target.adapter.getUserByEmail(address))!
    expect(owner.id).not.toBe(user.id)
    expect(owner.emailVerified).toBeInstanceOf(Date)
    expect((await target.adapter.getUser(user.id))?.email).toMatch(setAsideAddressOf(user.id))
    expect(await target.adapter.listAuthenticatorsByUserId(user.id)).toHaveLength(1)
    expect(await emailOf(target, jar)).toBe(address)
  })

  it("any × a new provider account, vouching or not: OAuthAccountNotLinked, nothing changes", async () => {
    for (const state of ["verified", "unverified", "unproven"] as const) {
      for (const [id, login] of [["dev", "alice"], ["loose", "mallory"]] as const) {
        const target = app(strategy)
        const { user } = await stored(target, state)
        // The unverified and verified users hold another account at "dev": sign in with "loose"
        // then; the unproven one holds none.
        if (state !== "unproven" && id === "dev") continue
        const before = await providers(target, user.id)
        const jar = new CookieJar()
        expect(await viaIdp(target, jar, id, login), `${state} ${id}`).toBe("OAuthAccountNotLinked")
        expect(await session(target.config, jar)).toBeNull()
        expect(await target.adapter.getUserByEmail(address), `${state} ${id}`).toEqual(user)
        expect(await providers(target, user.id)).toEqual(before)
      }
    }
  })

  it("verified or unverified × a vouching provider with allowDangerousEmailAccountLinking: linked, the address verified", async () => {
    for (const state of ["verified", "unverified"] as const) {
      const target = app(strategy, { dangerous: true })
      const { user } = await stored(target, state)
      await target.adapter.unlinkAccount({ provider: "dev", providerAccountId: "alice" })
      await target.adapter.linkAccount({ userId: user.id, type: "oauth", provider: "github", providerAccountId: "7" })
      const jar = new CookieJar()
      expect(await viaIdp(target, jar, "dev", "alice")).toBeNull()
      expect(await emailOf(target, jar)).toBe(address)
      expect(await providers(target, user.id)).toEqual(["dev:alice", "github:7"])
      expect((await target.adapter.getUser(user.id))?.emailVerified).toBeInstanceOf(Date)
      // A provider that does not vouch is still refused.
      expect(await viaIdp(target, new CookieJar(), "loose", "mallory")).toBe("OAuthAccountNotLinked")
    }
  })

  it("unproven × a vouching provider with allowDangerousEmailAccountLinking: set aside, a new verified user with the account", async () => {
    const target = app(strategy, { dangerous: true })
    const { user, key } = await stored(target, "unproven")
    const jar = new CookieJar()
    expect(await viaIdp(target, jar, "dev", "alice")).toBeNull()
    const owner = (await target.adapter.getUserByEmail(address))!
    expect(owner.id).not.toBe(user.id)
    expect(owner).toMatchObject({ name: "Alice Liddell" })
    expect(await providers(target, owner.id)).toEqual(["dev:alice"])
    const squatter = new CookieJar()
    await authenticate(target.config, squatter, key!)
    expect(await emailOf(target, squatter)).toMatch(setAsideAddressOf(user.id))
  })

  it("any × a passkey sign-up: refused, nothing changes", async () => {
    for (const state of ["verified", "unverified", "unproven"] as const) {
      const target = app(strategy)
      const { user } = await stored(target, state)
      const asked = await askOptions(target.config, new CookieJar(), { action: "register", email: address })
      expect(asked.status, state).toBe(400)
      expect(await target.adapter.listAuthenticatorsByUserId(user.id)).toHaveLength(state === "unproven" ? 1 : 0)
      expect(await target.adapter.getUserByEmail(address)).toEqual(user)
    }
  })

  it("signed in × a new provider account: linked to the signed-in user", async () => {
    const target = app(strategy)
    const jar = new CookieJar()
    await viaEmail(target, jar)
    expect(await viaIdp(target, jar, "dev", "bob")).toBeNull()
    const user = (await target.adapter.getUserByEmail(address))!
    expect(await providers(target, user.id)).toEqual(["dev:bob"])
  })
})

describe.each(["database", "jwt"] as const)("pre-hijacking classes (%s sessions)", (strategy) => {
  // Classic-federated merge: the attacker signs up the classic way (here a passkey; the password
  // provider's own tests do it with a password) with the victim's address, and waits for the
  // victim's federated sign-in to merge into his account.
  it("classic-federated merge: the victim's federated sign-in never merges into the attacker's user", async () => {
    const target = app(strategy)
    const { user, jar: attacker } = await stored(target, "unproven")
    const victim = new CookieJar()
    expect(await viaIdp(target, victim, "dev", "alice")).toBe("OAuthAccountNotLinked")
    expect(await emailOf(target, victim)).toBeNull()
    expect(await providers(target, user.id)).toEqual([])
    // The legitimate way: the victim proves the address by email, and has a user of their own.
    await viaEmail(target, victim)
    expect(await emailOf(target, victim)).toBe(address)
    expect((await target.adapter.getUserByEmail(address))!.id).not.toBe(user.id)
    expect(await emailOf(target, attacker!)).not.toBe(address)
  })

  // Unexpired session: the attacker keeps the session of his squat alive past the victim's proof.
  it("unexpired session: the attacker's session no longer names the victim's address after the proof", async () => {
    const target = app(strategy)
    const { jar: attacker } = await stored(target, "unproven")
    expect(await emailOf(target, attacker!)).toBe(address)
    await viaEmail(target, new CookieJar())
    const after = await session(target.config, attacker!)
    if (strategy === "jwt") expect(after).toBeNull()
    else expect(after?.user?.email).toMatch(/@sesame\.invalid$/)
  })

  // Trojan identifier: the attacker squats, then attaches an identifier of his own (his account at
  // a provider) while signed in, hoping it survives the victim's takeover of the address.
  it("trojan identifier: the attacker's own provider account, linked while squatting, never reaches the victim's user", async () => {
    const target = app(strategy)
    const { user, jar: attacker } = await stored(target, "unproven")
    expect(await viaIdp(target, attacker!, "dev", "bob")).toBeNull()
    expect(await providers(target, user.id)).toEqual(["dev:bob"])
    const victim = new CookieJar()
    await viaEmail(target, victim)
    const owner = (await target.adapter.getUserByEmail(address))!
    expect(await providers(target, owner.id)).toEqual([])
    const trojan = new CookieJar()
    expect(await viaIdp(target, trojan, "dev", "bob")).toBeNull()
    expect(await emailOf(target, trojan)).toMatch(setAsideAddressOf(user.id))
  })

  // Unchanged email: in the paper, a pending address change the attacker confirms after the
  // victim took the account over. Sesame has no address change; what the attacker holds instead
  // is his own user, and whatever was issued for it: it must never act on the victim's user, nor
  // give the attacker the address back.
  it("unchanged email: what was issued for the attacker's user never acts on the victim's, nor gives the address back", async () => {
    const target = app(strategy)
    const { user, key } = await stored(target, "unproven")
    const victim = new CookieJar()
    await viaEmail(target, victim)
    const owner = (await target.adapter.getUserByEmail(address))!
    // The attacker's passkey, and a second proof of the address, leave the owner's user in place.
    const attacker = new CookieJar()
    await authenticate(target.config, attacker, key!)
    expect(await emailOf(target, attacker)).toMatch(setAsideAddressOf(user.id))
    await viaEmail(target, new CookieJar())
    expect((await target.adapter.getUserByEmail(address))!.id).toBe(owner.id)
    expect(await target.adapter.getUser(user.id)).toMatchObject({ email: expect.stringMatching(setAsideAddressOf(user.id)), emailVerified: null })
    expect(await emailOf(target, victim)).toBe(address)
  })

  // Non-verifying IdP: the attacker signs in through a provider that does not check addresses,
  // with the victim's address, before the victim arrives.
  it("non-verifying IdP: the attacker's unchecked account never reaches the victim, whichever way the victim comes", async () => {
    const target = app(strategy)
    expect(await viaIdp(target, new CookieJar(), "loose", "mallory")).toBeNull()
    const squatted = (await target.adapter.getUserByEmail(address))!
    const victim = new CookieJar()
    expect(await viaIdp(target, victim, "dev", "alice")).toBe("OAuthAccountNotLinked")
    await viaEmail(target, victim)
    const owner = (await target.adapter.getUserByEmail(address))!
    expect(owner.id).not.toBe(squatted.id)
    expect(await providers(target, owner.id)).toEqual([])
    const attacker = new CookieJar()
    expect(await viaIdp(target, attacker, "loose", "mallory")).toBeNull()
    expect(await emailOf(target, attacker)).toMatch(setAsideAddressOf(squatted.id))
    // The victim links their own vouching account while signed in.
    expect(await viaIdp(target, victim, "dev", "alice")).toBeNull()
    expect(await providers(target, owner.id)).toEqual(["dev:alice"])
  })
})

describe("a provider that vouches for an address it does not own", () => {
  it("never enters an existing user, whatever its state; nothing changes", async () => {
    for (const state of ["verified", "unverified", "unproven"] as const) {
      const target = app("database", { lying: true })
      const { user } = await stored(target, state)
      const before = await providers(target, user.id)
      const jar = new CookieJar()
      expect(await viaIdp(target, jar, "loose", "mallory"), state).toBe("OAuthAccountNotLinked")
      expect(await session(target.config, jar)).toBeNull()
      expect(await target.adapter.getUserByEmail(address)).toEqual(user)
      expect(await providers(target, user.id)).toEqual(before)
    }
  })

  it("with allowDangerousEmailAccountLinking, the app has chosen to trust it: it links, as the option says", async () => {
    const target = app("database", { lying: true, dangerous: true })
    const { user } = await stored(target, "verified")
    const jar = new CookieJar()
    expect(await viaIdp(target, jar, "loose", "mallory")).toBeNull()
    expect(await providers(target, user.id)).toEqual(["dev:alice", "loose:mallory"])
  })
})
