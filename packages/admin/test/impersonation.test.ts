/**
 * Impersonation, with database and JWT sessions: an admin sees the app as a user, for a limited
 * time, recorded, with a banner on the built-in pages and `session.admin` for the app to show, and
 * returns to their own session, the same one, when they stop. What it must not allow: impersonating
 * an admin (unless configured) or oneself; anything that needs a recent sign-in while it lasts;
 * acting as an admin from inside it; a credential of the user's own (an API token says who acts);
 * outliving its time; a planted or foreign kept-session cookie bringing a session back; a mark that
 * names no record of the impersonation passing for a plain session of the user.
 */
import { callModuleApi, deleteUser } from "@sesame/core"
import { sessionPartModel, type Adapter } from "@sesame/core/adapters"
import { decode, encode } from "@sesame/core/jwt"
import { afterEach, describe, expect, it, vi } from "vitest"
import { decodeJwt } from "jose"
import type { CookieJar } from "../../core/test/helpers.js"
import { makeWorld, origin, secret } from "./world.js"

afterEach(() => vi.useRealTimers())

const sessionCookie = "sesame.session-token"

/** Makes the browser's impersonation mark one from before records were kept: without `id`. */
async function dropRecordId(strategy: "database" | "jwt", adapter: Adapter, jar: CookieJar): Promise<void> {
  const unrecorded = (mark: unknown) => {
    const { by, until } = mark as { by: string; until: number }
    return { by, until }
  }
  if (strategy === "database") {
    const [part] = await adapter.store!.findMany(sessionPartModel, { where: { module: "admin" } })
    await adapter.store!.update(sessionPartModel, { session: part!.session as string, module: "admin" }, { value: unrecorded(part!.value) })
    return
  }
  const token = (await decode({ token: jar.get(sessionCookie)!, secret, salt: sessionCookie }))!
  jar.cookies.set(sessionCookie, await encode({ token: { ...token, admin: unrecorded(token.admin) }, secret, salt: sessionCookie }))
}

for (const strategy of ["database", "jwt"] as const) {
  describe(`impersonation with ${strategy} sessions`, () => {
    async function setUp(options: Parameters<typeof makeWorld>[0] = {}) {
      const world = makeWorld({ strategy, ...(strategy === "jwt" ? { revocation: { cache: 0 } } : {}), ...options })
      const boss = await world.user("boss@example.com", "admin")
      const pat = await world.user("pat@example.com")
      const admins = world.browser()
      await admins.signIn(boss.email)
      return { ...world, boss, pat, admins }
    }

    /** Posts the user page's "see the app as" form; the redirect's target. */
    async function impersonate(admins: Awaited<ReturnType<typeof setUp>>["admins"], userId: string): Promise<string> {
      const response = await admins.send("admin/act", {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", origin },
        body: new URLSearchParams({ csrfToken: await admins.csrf(), action: "impersonate", userId }).toString(),
      })
      return response.headers.get("location") ?? ""
    }

    async function stop(admins: Awaited<ReturnType<typeof setUp>>["admins"]): Promise<string> {
      const response = await admins.send("admin/acting", {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", origin },
        body: new URLSearchParams({ csrfToken: await admins.csrf() }).toString(),
      })
      return response.headers.get("location") ?? ""
    }

    it("shows the app as the user, says so, and returns to the admin's own session", async () => {
      const { admins, boss, pat, security } = await setUp()
      const own = admins.jar.get(sessionCookie)
      expect(await impersonate(admins, pat.id)).toBe(`${origin}/`)
      const session = (await (await admins.send("session")).json()) as { user: { email: string }; admin: { by: string; until: number } }
      expect(session.user.email).toBe(pat.email)
      expect(session.admin.by).toBe(boss.id)
      expect(session.admin.until).toBeGreaterThan(Date.now() + 59 * 60_000)
      // Every built-in page says so, with the way back.
      const page = await (await admins.send("signout")).text()
      expect(page).toContain(`You are seeing the app as ${pat.email}, on behalf of ${boss.email}`)
      expect(page).toContain(`href="${origin}/auth/admin/acting"`)

      expect(await stop(admins)).toBe(`${origin}/auth/admin/view?userId=${pat.id}&done=impersonate`)
      expect(await admins.who()).toBe(boss.email)
      // The very session it left, not a new one.
      expect(admins.jar.get(sessionCookie)).toBe(own)
      expect(security.filter((e) => e.type.startsWith("admin.impersonation")).map((e) => [e.type, e.actorId, e.userId])).toEqual([
        ["admin.impersonation-started", boss.id, pat.id],
        ["admin.impersonation-ended", boss.id, pat.id],
      ])
    })

    it("never impersonates an admin (unless configured) or oneself", async () => {
      const { admins, boss, user } = await setUp()
      const other = await user("other@example.com", "admin")
      expect(await impersonate(admins, other.id)).toContain("error=Forbidden")
      expect(await impersonate(admins, boss.id)).toContain("error=Forbidden")
      expect(await admins.who()).toBe(boss.email)

      const lenient = await setUp({ impersonation: { admins: true } })
      const second = await lenient.user("second@example.com", "admin")
      expect(await impersonate(lenient.admins, second.id)).toBe(`${origin}/`)
      // Even as an admin, the acting session is no admin: it cannot act on anyone.
      await expect(lenient.admins.api("banUser", lenient.pat.id)).rejects.toMatchObject({ code: "NotAdmin" })
      expect(await lenient.admins.api("isAdmin")).toBe(false)
    })

    it("cannot escalate: nothing that needs a recent sign-in, no admin action, no plain credential", async () => {
      const { admins, pat, config, adapter } = await setUp()
      await impersonate(admins, pat.id)
      const asPat = new Request(`${origin}/`, { headers: { cookie: admins.jar.header() } })
      // Deleting the account needs a recent sign-in, which an acting session never is.
      expect(await deleteUser(asPat, config)).toEqual({ deleted: false, reason: "SignInTooOld" })
      expect(await adapter.getUser!(pat.id)).not.toBeNull()
      // No admin action from inside it (making admins, suspending, deleting).
      await expect(callModuleApi(asPat, config, "removeUser", pat.id)).rejects.toMatchObject({ code: "NotAdmin" })
      // A second impersonation from inside the first is refused.
      expect(await impersonate(admins, pat.id)).toContain("error=NotAdmin")
    })

    it("API tokens minted in it say who acts, and end with it", async () => {
      const world = makeWorld({ strategy, ...(strategy === "jwt" ? { revocation: { cache: 0 } } : {}) })
      world.config.apiTokens = { audience: "https://api.example.com" }
      const boss = await world.user("boss@example.com", "admin")
      const pat = await world.user("pat@example.com")
      const admins = world.browser()
      await admins.signIn(boss.email)
      await impersonate(admins, pat.id)
      const { token } = (await (await admins.send("token", { headers: { "sec-fetch-site": "same-origin" } })).json()) as { token: string }
      const claims = decodeJwt(token)
      expect(claims.sub).toBe(pat.id)
      expect(claims.act).toEqual({ sub: boss.id })
    })

    it("ends by itself at its time; the way back still leads to the admin's session", async () => {
      vi.useFakeTimers({ toFake: ["Date"] })
      vi.setSystemTime(new Date("2031-05-01T08:00:00Z"))
      const { admins, boss, pat } = await setUp()
      await impersonate(admins, pat.id)
      vi.setSystemTime(new Date("2031-05-01T08:59:00Z"))
      expect(await admins.who()).toBe(pat.email)
      vi.setSystemTime(new Date("2031-05-01T09:00:01Z"))
      expect(await admins.who()).toBeNull()
      await stop(admins)
      expect(await admins.who()).toBe(boss.email)
    })

    it("brings back nothing from a planted or damaged kept-session cookie", async () => {
      const { admins, pat, browser } = await setUp()
      await impersonate(admins, pat.id)
      // Another browser that copied only the acting session (not the kept one) cannot come back as the admin.
      const thief = browser()
      thief.jar.cookies.set(sessionCookie, admins.jar.cookies.get(sessionCookie)!)
      for (const [name, value] of admins.jar.cookies) if (name.startsWith(`${sessionCookie}.`)) thief.jar.cookies.set(name, value)
      expect(await thief.who()).toBe(pat.email)
      expect(await stop(thief)).toBe(`${origin}/auth/signin`)
      expect(await thief.who()).toBeNull()
      // A kept-session cookie that was tampered with opens as nothing.
      const kept = [...admins.jar.cookies.keys()].find((name) => name.startsWith("sesame.kept-session"))!
      admins.jar.cookies.set(kept, `${admins.jar.cookies.get(kept)!.slice(0, -4)}AAAA`)
      expect(await stop(admins)).toBe(`${origin}/auth/signin`)
      expect(await admins.who()).toBeNull()
    })

    it("ends at its next use, and is never a plain session of the user, when its mark names no record (one started before they were kept)", async () => {
      const { admins, pat, adapter } = await setUp()
      await impersonate(admins, pat.id)
      expect(await admins.who()).toBe(pat.email)
      await dropRecordId(strategy, adapter, admins.jar)
      expect(await admins.who()).toBeNull()
    })

    it("leaves the user's own sessions alone", async () => {
      const { admins, pat, browser } = await setUp()
      const pats = browser()
      await pats.signIn(pat.email)
      await impersonate(admins, pat.id)
      await stop(admins)
      expect(await pats.who()).toBe(pat.email)
    })
  })
}
