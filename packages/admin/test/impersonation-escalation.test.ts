/**
 * Escalation from an acting session, with database and JWT sessions: an admin seeing the app as a
 * user must not give the account a new way in or take the user's away. Beside deleting the account
 * (`impersonation.test.ts`): no first password set (server function or account page), no step-up
 * that would make the acting session recent for it, no password changed, and no passkey added
 * (neither the registration options nor a registration answer posted with a challenge made
 * elsewhere).
 */
import { changePassword, hasPassword, setPassword, type AuthConfig } from "@sesame/core"
import Passkey from "@sesame/core/providers/passkey"
import { SoftAuthenticator } from "@sesame/testing"
import { describe, expect, it } from "vitest"
import { makeWorld, origin } from "./world.js"

const challengeCookie = "sesame.challenge"

for (const strategy of ["database", "jwt"] as const) {
  describe(`an acting session (${strategy} sessions) cannot escalate`, () => {
    /** Boss (an admin) and Pat, with the password and passkey providers; Pat signed in in a browser of their own. */
    async function setUp() {
      const world = makeWorld({ strategy, ...(strategy === "jwt" ? { revocation: { cache: 0 } } : {}), password: {} })
      world.config.providers = [...(world.config.providers as NonNullable<AuthConfig["providers"]>), Passkey()]
      world.config.experimental = { enableWebAuthn: true }
      const boss = await world.user("boss@example.com", "admin")
      const pat = await world.user("pat@example.com")
      const admins = world.browser()
      const pats = world.browser()
      expect(await admins.signIn(boss.email)).toBe(`${origin}/`)
      expect(await pats.signIn(pat.email)).toBe(`${origin}/`)
      return { ...world, boss, pat, admins, pats }
    }
    type World = Awaited<ReturnType<typeof setUp>>
    type Browser = World["admins"]

    /** Posts a form as the page would, with the CSRF token; the redirect's target. */
    async function form(browser: Browser, path: string, fields: Record<string, string>): Promise<string> {
      const response = await browser.send(path, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", origin },
        body: new URLSearchParams({ csrfToken: await browser.csrf(), ...fields }).toString(),
      })
      return response.headers.get("location") ?? `(${response.status})`
    }

    /** Starts seeing the app as `userId` through the user page's form. */
    async function impersonate(admins: Browser, userId: string): Promise<void> {
      expect(await form(admins, "admin/act", { action: "impersonate", userId })).toBe(`${origin}/`)
    }

    /** The server code's request for this browser. */
    const requestOf = (browser: Browser) => new Request(`${origin}/`, { headers: { cookie: browser.jar.header() } })

    /** Whether the browser is still the acting session: Pat, on the admin's behalf. */
    async function stillActing(admins: Browser, world: World): Promise<void> {
      const session = (await (await admins.send("session")).json()) as { user?: { email?: string }; admin?: { by?: string } } | null
      expect(session?.user?.email).toBe(world.pat.email)
      expect(session?.admin?.by).toBe(world.boss.id)
    }

    it("sets no first password for the user: refused as not recent, and no sign-in from it makes it recent", async () => {
      const world = await setUp()
      const { admins, pat, config } = world
      await impersonate(admins, pat.id)
      expect(await hasPassword(requestOf(admins), config)).toBe(false)
      expect(await setPassword(requestOf(admins), config, { newPassword: "the admin's choice 4711" })).toEqual({ set: false, reason: "SignInTooOld" })
      // The account page's form sends the browser to sign in again rather than set it.
      expect(await form(admins, "account/password", { newPassword: "the admin's choice 4711" })).toBe(
        `${origin}/auth/reauthenticate?callbackUrl=${encodeURIComponent(`${origin}/auth/account#password`)}`,
      )
      // Signing in again from inside the acting session (that step-up) is refused, and changes nothing.
      expect(await admins.signIn(pat.email)).toBe(`${origin}/auth/error?error=AccessDenied`)
      await stillActing(admins, world)
      expect(await setPassword(requestOf(admins), config, { newPassword: "the admin's choice 4711" })).toEqual({ set: false, reason: "SignInTooOld" })
      expect(await hasPassword(requestOf(world.pats), config)).toBe(false)
      expect(world.security.filter((e) => e.type === "password.changed")).toEqual([])
    })

    it("changes no password and checks no guess at the current one (no oracle, no throttle count); the user's password and session stay", async () => {
      const world = await setUp()
      const { admins, pat, pats, config, browser } = world
      const current = "pat's own passphrase 4711"
      expect(await setPassword(requestOf(pats), config, { newPassword: current })).toEqual({ set: true })
      await impersonate(admins, pat.id)
      expect(await changePassword(requestOf(admins), config, { currentPassword: "a guess", newPassword: "the admin's choice 4711" })).toEqual({ changed: false, reason: "Acting" })
      expect(await form(admins, "account/password", { currentPassword: "another guess", newPassword: "the admin's choice 4711" })).toContain("error=Acting")
      await stillActing(admins, world)
      expect(await pats.who()).toBe(pat.email)
      // Pat's own password still signs in.
      expect(await form(browser(), "callback/password", { email: pat.email, password: current })).toBe(`${origin}/`)
    })

    // FOUND AND FIXED (was medium): an acting session changed the user's password when given the
    // current one (changePassword, and POST account/password): `changePassword` asked neither for
    // a recent sign-in nor whether the session acts. The change ended the user's other sessions and
    // its `password.changed` event named Pat as its actor. It is now refused as `Acting`.
    it("changes no password even with the current one (changePassword)", async () => {
      const world = await setUp()
      const { admins, pat, pats, config } = world
      const current = "pat's own passphrase 4711"
      expect(await setPassword(requestOf(pats), config, { newPassword: current })).toEqual({ set: true })
      await impersonate(admins, pat.id)
      expect(await changePassword(requestOf(admins), config, { currentPassword: current, newPassword: "the admin's choice 4711" })).toEqual({ changed: false, reason: "Acting" })
      expect(await pats.who()).toBe(pat.email)
    })

    // The same through the account page's form (see above).
    it("changes no password even with the current one (POST account/password)", async () => {
      const world = await setUp()
      const { admins, pat, pats, config } = world
      const current = "pat's own passphrase 4711"
      expect(await setPassword(requestOf(pats), config, { newPassword: current })).toEqual({ set: true })
      await impersonate(admins, pat.id)
      expect(await form(admins, "account/password", { currentPassword: current, newPassword: "the admin's choice 4711" })).toContain("error=Acting")
      expect(await pats.who()).toBe(pat.email)
    })

    it("adds no passkey: no registration options, and no registration with a challenge made elsewhere", async () => {
      const world = await setUp()
      const { admins, pats, pat, boss, adapter } = world
      const passkeys = async () => [...(await adapter.listAuthenticatorsByUserId!(pat.id)), ...(await adapter.listAuthenticatorsByUserId!(boss.id))]
      type Options = Parameters<SoftAuthenticator["register"]>[0]

      // A challenge the admin asked for in their own, recent session, before impersonating.
      const own = await admins.send("webauthn-options/passkey", { query: { action: "register" } })
      expect(own.status).toBe(200)
      const bossOptions = ((await own.json()) as { options: Options }).options
      await impersonate(admins, pat.id)

      // The options for a new passkey: refused, the acting session is never a recent sign-in.
      const asked = await admins.send("webauthn-options/passkey", { query: { action: "register" } })
      expect(asked.status).toBe(403)
      expect(await asked.json()).toMatchObject({ error: "Sign in again" })

      // The admin's own challenge answered from the acting session: it names another user.
      const withBossChallenge = await admins.send("callback/passkey", { json: { action: "register", data: new SoftAuthenticator().register(bossOptions, { origin }) } })
      expect(withBossChallenge.headers.get("location")).toBe(`${origin}/auth/signin?error=WebAuthnVerificationError`)
      await stillActing(admins, world)

      // A challenge for Pat, made in Pat's own recent session, carried into the acting browser: the
      // registration would sign in, which an acting session may not.
      const patAsk = await pats.send("webauthn-options/passkey", { query: { action: "register" } })
      expect(patAsk.status).toBe(200)
      const patOptions = ((await patAsk.json()) as { options: Options }).options
      admins.jar.cookies.set(challengeCookie, pats.jar.cookies.get(challengeCookie)!)
      const withPatChallenge = await admins.send("callback/passkey", { json: { action: "register", data: new SoftAuthenticator().register(patOptions, { origin }) } })
      expect(withPatChallenge.headers.get("location")).toBe(`${origin}/auth/error?error=AccessDenied`)
      await stillActing(admins, world)

      expect(await passkeys()).toEqual([])
      expect(world.security.filter((e) => e.type === "passkey.added")).toEqual([])

      // The control: in Pat's own recent session the same ceremony adds Pat's passkey.
      const mine = await pats.send("webauthn-options/passkey", { query: { action: "register" } })
      const registered = await pats.send("callback/passkey", { json: { action: "register", data: new SoftAuthenticator().register(((await mine.json()) as { options: Options }).options, { origin }) } })
      expect(registered.status).toBe(302)
      expect((await passkeys()).map((p) => p.userId)).toEqual([pat.id])
    })
  })
}
