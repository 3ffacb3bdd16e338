/**
 * Security review of the admin plugin and the acting sessions it starts: attacks from an
 * impersonating admin, from a browser left behind, from a racing sign-in and from a demoted or
 * suspended admin. Each test performs the attack and asserts the secure outcome.
 */
import { deleteUser, revokeOtherSessions, unlinkAccount, type SesameModule } from "@sesame/core"
import type { DevIdp } from "@sesame/dev-idp"
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest"
import { client, oidc, signIn as oauthSignIn, startIdp } from "../../core/test/oauth/harness.js"
import { bossSignedIn, chiefSignedIn, makeWorld, origin } from "./world.js"
import { callModuleApi } from "@sesame/core"
import { argon2id } from "@sesame/core/password"
import { MemoryAdapter } from "@sesame/core/adapters"
import { outage } from "@sesame/testing"
import Password from "@sesame/core/providers/password"
import { admin } from "@sesame/admin"
import { CookieJar } from "../../core/test/helpers.js"
import { ada, app as twoFactorApp, enrol, firstFactor, session as twoFactorSession, signInWithPassword, submitCode } from "../../core/test/two-factor/harness.js"

afterEach(() => vi.useRealTimers())

const sessionCookie = "sesame.session-token"
const form = { "content-type": "application/x-www-form-urlencoded", origin }

let idp: DevIdp
beforeAll(async () => {
  idp = await startIdp({ clients: [client("dev")] })
})
afterAll(() => idp?.close())

type World = ReturnType<typeof makeWorld>
type Browser = ReturnType<World["browser"]>

async function impersonate(admins: Browser, userId: string): Promise<string> {
  const response = await admins.send("admin/act", { method: "POST", headers: form, body: new URLSearchParams({ csrfToken: await admins.csrf(), action: "impersonate", userId }).toString() })
  return response.headers.get("location") ?? ""
}

async function stop(browser: Browser): Promise<string> {
  const response = await browser.send("admin/acting", { method: "POST", headers: form, body: new URLSearchParams({ csrfToken: await browser.csrf() }).toString() })
  return response.headers.get("location") ?? ""
}

async function signOut(browser: Browser): Promise<void> {
  await browser.send("signout", { method: "POST", headers: form, body: new URLSearchParams({ csrfToken: await browser.csrf() }).toString() })
}

for (const strategy of ["database", "jwt"] as const) {
  describe(`review with ${strategy} sessions`, () => {
    const setUp = (options: Parameters<typeof makeWorld>[0] = {}, extra: (world: World) => void = () => {}) =>
      bossSignedIn({ strategy, ...(strategy === "jwt" ? { revocation: { cache: 0 } } : {}), ...options }, extra)

    it("an impersonating admin cannot turn the acting session into a plain, fresh session of the user by signing in with an OAuth account", async () => {
      const world = await setUp({}, (w) => void w.config.providers.push(oidc(idp)))
      const { admins, pat, adapter, config } = world
      expect(await impersonate(admins, pat.id)).toBe(`${origin}/`)
      // The admin's own (throwaway) account at the IdP, linked to no one: "bob".
      await oauthSignIn(config, admins.jar, "dev", { query: { login_hint: "bob" } })
      // Nothing of the admin's may be added to the user's account as a way in...
      const linked = (await adapter.listAccountsByUserId!(pat.id)).filter((a) => a.provider === "dev")
      expect.soft(linked).toEqual([])
      // ...and the browser must not end up with a session of the user that is no longer acting.
      const asPat = new Request(`${origin}/`, { headers: { cookie: admins.jar.header() } })
      expect.soft(await admins.api("isAdmin")).toBe(false)
      expect.soft(((await (await admins.send("session")).json()) as { admin?: unknown }).admin, "still marked as acting").toBeDefined()
      expect.soft(await deleteUser(asPat, config)).toMatchObject({ deleted: false })
      expect(await adapter.getUser!(pat.id)).not.toBeNull()
    })

    it("signing out while impersonating leaves no way back to the admin's session in the browser", async () => {
      const { admins, pat, boss } = await setUp()
      await impersonate(admins, pat.id)
      await signOut(admins)
      expect(await admins.who()).toBeNull()
      // The next person at this computer posts the banner's "stop" form.
      const next = await stop(admins)
      expect(await admins.who()).toBeNull()
      expect(next).not.toBe(`${origin}/auth/admin`)
      void boss
    })

    it("an admin who is suspended (or has their sessions ended) while impersonating stops acting as the user", async () => {
      const world = await setUp({ actOnAdmins: true })
      const { admins, pat, boss } = world
      const { chiefs } = await chiefSignedIn(world)
      await impersonate(admins, pat.id)
      expect(await admins.who()).toBe(pat.email)
      // Another admin suspends the rogue admin (boss).
      await chiefs.api("banUser", boss.id, { reason: "rogue" })
      // The suspended admin must not keep seeing the app as the user for the rest of the hour.
      expect(await admins.who()).toBeNull()
    })

    it("an admin whose sessions another admin ends while impersonating stops acting as the user, and finds no way back", async () => {
      const world = await setUp({ actOnAdmins: true })
      const { admins, pat, boss } = world
      const { chiefs } = await chiefSignedIn(world)
      await impersonate(admins, pat.id)
      expect(await admins.who()).toBe(pat.email)
      await chiefs.api("revokeUserSessions", boss.id)
      expect(await admins.who()).toBeNull()
      // The admin's own session, kept aside, was one of those ended.
      await stop(admins)
      expect(await admins.who()).toBeNull()
    })

    it("an admin who is no longer an admin stops acting as the user at once", async () => {
      let demoted = false
      const { admins, pat } = await setUp({ admins: (user) => user.email === "boss@example.com" && !demoted })
      await impersonate(admins, pat.id)
      expect(await admins.who()).toBe(pat.email)
      demoted = true
      expect(await admins.who()).toBeNull()
    })

    it("a sign-in racing a suspension does not outlive it", async () => {
      let ban: (() => Promise<void>) | undefined
      const racer: SesameModule = {
        id: "racer",
        // Runs after the admin module's check passed: the ban lands between the check and the session.
        async checkSignIn() {
          const run = ban
          ban = undefined
          if (run) await run()
          return true
        },
      }
      const { admins, pat, browser } = await setUp({}, (w) => void (w.config.plugins as SesameModule[]).push(racer))
      ban = async () => {
        await admins.api("banUser", pat.id, { reason: "abuse" })
      }
      const pats = browser()
      await pats.signIn(pat.email)
      expect(await admins.api("userBan", pat.id)).toMatchObject({ userId: pat.id })
      expect(await pats.who()).toBeNull()
    })

    it("'sign out everywhere else' from an acting session is recorded as the admin's doing, not the user's", async () => {
      const { admins, pat, boss, security, config, browser } = await setUp()
      const pats = browser()
      await pats.signIn(pat.email)
      await impersonate(admins, pat.id)
      const asPat = new Request(`${origin}/`, { headers: { cookie: admins.jar.header() } })
      await revokeOtherSessions(asPat, config)
      const event = security.find((e) => e.type === "sessions.revoked")
      // Whatever is allowed, the audit trail must not say the user did it themselves.
      if (event) expect(event.actorId).toBe(boss.id)
    })

    it("an impersonating admin cannot unlink the user's sign-in methods through the server function", async () => {
      const { admins, pat, config, adapter } = await setUp({}, (w) => void w.config.providers.push(oidc(idp)))
      for (const id of ["one", "two"]) await adapter.linkAccount!({ userId: pat.id, provider: "dev", type: "oidc", providerAccountId: id })
      await impersonate(admins, pat.id)
      const asPat = new Request(`${origin}/`, { headers: { cookie: admins.jar.header() } })
      const result = await unlinkAccount(asPat, config, { provider: "dev", providerAccountId: "one" })
      expect(result).toMatchObject({ unlinked: false })
      expect((await adapter.listAccountsByUserId!(pat.id)).length).toBe(2)
    })

    it("a copy of the admin's browser (acting cookie and kept cookie) taken to another browser cannot act after the admin stopped", async () => {
      const { admins, pat, boss, browser } = await setUp()
      await impersonate(admins, pat.id)
      const thief = browser()
      for (const [name, value] of admins.jar.cookies) thief.jar.cookies.set(name, value)
      await stop(admins)
      expect(await admins.who()).toBe(boss.email)
      // The acting session ended with the stop: the copy sees no one (the kept session is the admin's own, a stolen cookie as any other).
      expect(await thief.who()).not.toBe(pat.email)
    })
  })
}


describe("review: a suspension during a pending second factor", () => {
  for (const confirmed of [true, false]) it(`a user suspended between their password and their second factor does not get a session (${confirmed ? "confirmed address" : "unconfirmed address, requireEmailVerification: false"})`, async () => {
    const adminIds: string[] = []
    const a = twoFactorApp({ overrides: {} })
    a.config.providers = [Password({ sendEmail: () => {}, requireEmailVerification: false, hasher: argon2id({ memoryCost: 64, timeCost: 1 }) })]
    a.config.plugins = [admin({ admins: (user) => adminIds.includes(user.id) })]
    const boss = await ada(a, "boss@example.com")
    adminIds.push(boss.id)
    const pat = await ada(a, "pat@example.com")
    const { authenticator } = await enrol(a, "pat@example.com")
    // The address was never confirmed (the app lets such users sign in).
    if (!confirmed) await a.adapter.updateUser({ id: pat.id, emailVerified: null })
    const bosses = new CookieJar()
    expect((await signInWithPassword(a.config, bosses, "boss@example.com")).location).toBe(`${origin}/`)

    const jar = await firstFactor(a, "pat@example.com")
    // The admin suspends pat while the challenge is on screen.
    await callModuleApi(new Request(`${origin}/`, { headers: { cookie: bosses.header() } }), a.config, "banUser", pat.id, { reason: "abuse" })

    const done = await submitCode(a.config, jar, { code: authenticator.code(1) })
    expect(done.location).not.toBe(`${origin}/`)
    expect((await twoFactorSession(a.config, jar))?.user?.email).toBeUndefined()
  })
})

describe("review: the admin pages and endpoints", () => {
  const hostile = `"><img src=x onerror=alert(1)><script>alert(2)</script>`

  it("escape a user's name, address and suspension reason, the search and the cursor (no XSS), and reflect no unknown code", async () => {
    const world = makeWorld()
    const boss = await world.user("boss@example.com", "admin")
    const evil = await world.adapter.createUser!({ id: crypto.randomUUID(), email: `x${hostile.replace(/[ ]/g, "")}@example.com`, name: hostile, image: null, emailVerified: new Date() })
    const admins = world.browser()
    await admins.signIn(boss.email)
    await admins.api("banUser", evil.id, { reason: hostile })
    const pages = [
      await admins.send("admin", { query: { q: hostile } }),
      await admins.send("admin", { query: { cursor: hostile } }),
      await admins.send("admin"),
      await admins.send("admin/view", { query: { userId: evil.id, error: hostile, done: hostile } }),
      await admins.send("admin/view", { query: { userId: hostile } }),
      await admins.send("admin/suspended", { query: { until: hostile } }),
    ]
    for (const page of pages) {
      const text = await page.text()
      expect(text).not.toContain("<script>alert")
      expect(text).not.toContain("<img src=x")
    }
  })

  it("refuse every POST without the CSRF token or from another site, and change nothing", async () => {
    const world = makeWorld()
    const boss = await world.user("boss@example.com", "admin")
    const pat = await world.user("pat@example.com")
    const admins = world.browser()
    await admins.signIn(boss.email)
    const posts: [string, Record<string, string>][] = [
      ["admin/ban", { userId: pat.id }],
      ["admin/unban", { userId: pat.id }],
      ["admin/revoke-sessions", { userId: pat.id }],
      ["admin/delete-user", { userId: pat.id }],
      ["admin/act", { action: "impersonate", userId: pat.id }],
      ["admin/act", { action: "delete", userId: pat.id, confirm: "on" }],
      ["admin/act", { action: "suspend", userId: pat.id }],
      ["admin/acting", {}],
    ]
    for (const [path, fields] of posts) {
      // No token, same site.
      const bare = await admins.send(path, { method: "POST", headers: form, body: new URLSearchParams(fields).toString() })
      expect(bare.status, `${path} without a token`).not.toBe(200)
      expect(bare.headers.get("location") ?? "", `${path} without a token`).not.toContain("done=")
      // The right token, from another site (a form posted cross-site).
      const cross = await admins.send(path, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", origin: "https://evil.example", "sec-fetch-site": "cross-site" },
        body: new URLSearchParams({ ...fields, csrfToken: await admins.csrf() }).toString(),
      })
      expect(cross.status, `${path} cross-site`).not.toBe(200)
      expect(cross.headers.get("location") ?? "", `${path} cross-site`).not.toContain("done=")
    }
    expect(await world.adapter.getUser!(pat.id)).not.toBeNull()
    expect(await admins.api("userBan", pat.id)).toBeNull()
    expect(await admins.who()).toBe(boss.email)
  })

  it("show a non-admin and an impersonating admin nothing, and let neither act through the pages' form", async () => {
    const world = makeWorld({ impersonation: { admins: true } })
    const boss = await world.user("boss@example.com", "admin")
    const other = await world.user("other@example.com", "admin")
    const pat = await world.user("pat@example.com")
    const admins = world.browser()
    await admins.signIn(boss.email)
    expect(await impersonate(admins, other.id)).toBe(`${origin}/`)
    const pats = world.browser()
    await pats.signIn(pat.email)
    for (const browser of [pats, admins]) {
      for (const path of ["admin", "admin/view"]) {
        const page = await browser.send(path, { query: { userId: boss.id } })
        expect(page.status).toBe(403)
        // The acting banner names both, as it should; the page itself names no one.
        const text = (await page.text()).replace(/<p class="acting"[\s\S]*?<\/p>/, "")
        expect(text).not.toContain("boss@example.com")
        expect(text).not.toContain("other@example.com")
      }
      for (const action of ["suspend", "delete", "end-sessions", "impersonate", "restore"]) {
        await browser.send("admin/act", { method: "POST", headers: form, body: new URLSearchParams({ csrfToken: await browser.csrf(), action, userId: boss.id, confirm: "on" }).toString() })
      }
    }
    expect(await world.adapter.getUser!(boss.id)).not.toBeNull()
    const chief = world.browser()
    await chief.signIn(boss.email)
    expect(await chief.api("userBan", boss.id).catch(() => null)).toBeNull()
    expect(await chief.who()).toBe(boss.email)
  })

  it("updating the user's fields from an impersonation is recorded as the admin's doing", async () => {
    const world = makeWorld()
    world.config.user = { fields: { nickname: { type: "string", optional: true, input: true } } }
    const boss = await world.user("boss@example.com", "admin")
    const pat = await world.user("pat@example.com")
    const admins = world.browser()
    await admins.signIn(boss.email)
    await impersonate(admins, pat.id)
    const { updateUserFields } = await import("@sesame/core")
    await updateUserFields(new Request(`${origin}/`, { headers: { cookie: admins.jar.header() } }), world.config, { nickname: "owned" })
    const event = world.security.find((e) => e.type === "user.updated")
    if (event) expect(event.actorId).toBe(boss.id)
  })
})

describe("review: a suspended user coming back through another provider", () => {
  it("an unconfirmed suspended user cannot come back by proving the address with a provider the app links by address", async () => {
    const world = makeWorld()
    world.config.providers.push(oidc(idp, { allowDangerousEmailAccountLinking: true }))
    const boss = await world.user("boss@example.com", "admin")
    // A user whose address was never confirmed (an Auth.js user, or one the app's credentials created).
    const bob = await world.adapter.createUser!({ id: crypto.randomUUID(), email: "bob@example.com", name: "Bob", image: null, emailVerified: null })
    const admins = world.browser()
    await admins.signIn(boss.email)
    await admins.api("banUser", bob.id, { reason: "abuse" })
    const comeback = world.browser()
    const response = await oauthSignIn(world.config, comeback.jar, "dev", { query: { login_hint: "bob" } })
    // The sign-in lands on the suspended user itself (made verified by the proof), and is refused
    // there: the plugins are asked again about the user the decision chose. The account the decision
    // linked stays linked (the address's owner proved it); no session comes of it.
    expect(response.headers.get("location") ?? "").not.toBe(`${origin}/`)
    expect(await comeback.who()).toBeNull()
  })
})

describe("review: an impersonation whose mark is not extended with its session", () => {
  /** `adapter` that, while `armed()`, goes down right after `method` succeeds. */
  function downAfter<A extends object>(adapter: A, method: string, armed: () => boolean, down: () => void): A {
    return new Proxy(adapter, {
      get(object, property, receiver) {
        const value = Reflect.get(object, property, receiver) as unknown
        if (typeof value !== "function") return value
        if (property === "withUserFields") return (...args: unknown[]) => downAfter((value as (...a: unknown[]) => A).apply(object, args), method, armed, down)
        if (property === method) {
          return async (...args: unknown[]) => {
            const result = await (value as (...a: unknown[]) => unknown).apply(object, args)
            if (armed()) down()
            return result
          }
        }
        return (value as (...a: unknown[]) => unknown).bind(object)
      },
    })
  }

  it("a storage failure between extending the session and extending its acting mark does not leave a plain, fresh session of the user", async () => {
    vi.useFakeTimers({ toFake: ["Date"] })
    vi.setSystemTime(new Date("2031-05-01T08:00:00Z"))
    const storage = outage(MemoryAdapter())
    let armed = false
    const adapter = downAfter(storage.adapter, "updateSession", () => armed, () => {
      armed = false
      storage.down()
    })
    const world = makeWorld({ strategy: "database", adapter: adapter as never })
    world.config.session = { strategy: "database", maxAge: 300, updateAge: 0 }
    const boss = await world.user("boss@example.com", "admin")
    const pat = await world.user("pat@example.com")
    const admins = world.browser()
    await admins.signIn(boss.email)
    expect(await impersonate(admins, pat.id)).toBe(`${origin}/`)
    vi.setSystemTime(new Date("2031-05-01T08:03:20Z"))
    // A read extends the session; the storage fails right after (the mark is extended first, so it
    // never falls behind its session: a 503 or an answer, either way the mark holds).
    armed = true
    const during = await admins.send("session")
    storage.up()
    expect([200, 503]).toContain(during.status)
    // Past the mark's old expiry, within the session's new one.
    vi.setSystemTime(new Date("2031-05-01T08:05:01Z"))
    const session = (await (await admins.send("session")).json()) as { user?: { email?: string }; admin?: unknown } | null
    // Either the session is gone, or it is still the marked impersonation: never the user's own.
    if (session?.user?.email === pat.email) expect.soft(session.admin, "still marked as an impersonation").toBeDefined()
    const asPat = new Request(`${origin}/`, { headers: { cookie: admins.jar.header() } })
    expect(await deleteUser(asPat, world.config)).toMatchObject({ deleted: false })
  })
})

describe("review: impersonating a suspended user", () => {
  it("is refused by the action itself, not only left out of the page", async () => {
    const world = makeWorld()
    const boss = await world.user("boss@example.com", "admin")
    const pat = await world.user("pat@example.com")
    const admins = world.browser()
    await admins.signIn(boss.email)
    await admins.api("banUser", pat.id, { reason: "abuse" })
    const location = await impersonate(admins, pat.id)
    expect(location).toContain("error=")
    expect(await admins.who()).toBe(boss.email)
  })
})
