/**
 * The admin module through its server functions and endpoints: who may call them (only an admin;
 * never on themselves or another admin unless configured), suspending a user (every session
 * ended at once, database and JWT; every sign-in sent to the page that says so, until the date or
 * until lifted), ending a user's sessions, deleting a user, an admin's view of a user, and the
 * security events that record each action with the admin as its actor.
 */
import { describe, expect, it, vi } from "vitest"
import { MemoryAdapter } from "@sesame/core/adapters"
import { admin } from "@sesame/admin"
import { bossAndPat, makeWorld, origin } from "./world.js"

const suspendedPage = `${origin}/auth/admin/suspended`

/** Every server function with its arguments, and every endpoint with its input. */
const functions: [string, unknown[]][] = [
  ["listUsers", [{}]],
  ["userDetails", ["x"]],
  ["banUser", ["x", {}]],
  ["unbanUser", ["x"]],
  ["userBan", ["x"]],
  ["revokeUserSessions", ["x"]],
  ["removeUser", ["x"]],
  ["createUser", [{ email: "x@example.com" }]],
  ["sendPasswordReset", ["x"]],
]
const endpoints: [string, string][] = [
  ["GET", "admin/users"],
  ["GET", "admin/user"],
  ["GET", "admin/ban"],
  ["POST", "admin/ban"],
  ["POST", "admin/unban"],
  ["POST", "admin/revoke-sessions"],
  ["POST", "admin/delete-user"],
  ["POST", "admin/create-user"],
  ["POST", "admin/send-password-reset"],
]

const setUp = bossAndPat

describe("who may act", () => {
  it("refuses a signed-in user who is not an admin, at every server function and endpoint, and changes nothing", async () => {
    const { pats, boss, pat, admins, adapter } = await setUp()
    for (const [name, args] of functions) {
      const target = [boss.id, ...args.slice(1)]
      await expect(pats.api(name, ...target), name).rejects.toMatchObject({ code: "NotAdmin", status: 403 })
    }
    expect(await pats.api("isAdmin")).toBe(false)
    for (const [method, path] of endpoints) {
      const response = method === "GET" ? await pats.send(path, { query: { userId: boss.id } }) : await pats.post(path, { userId: boss.id })
      expect(response.status, `${method} ${path}`).toBe(403)
      expect(await response.json()).toMatchObject({ error: "NotAdmin" })
    }
    // Nothing happened to the admin they aimed at.
    expect(await admins.who()).toBe("boss@example.com")
    expect(await adapter.getUser!(boss.id)).not.toBeNull()
    expect(await pats.who()).toBe(pat.email)
  })

  it("refuses a signed-out visitor with 401", async () => {
    const { browser, pat } = await setUp()
    const stranger = browser()
    for (const [name, args] of functions) await expect(stranger.api(name, pat.id, ...args.slice(1)), name).rejects.toMatchObject({ code: "NotSignedIn", status: 401 })
    for (const [method, path] of endpoints) {
      const response = method === "GET" ? await stranger.send(path, { query: { userId: pat.id } }) : await stranger.post(path, { userId: pat.id })
      expect(response.status, `${method} ${path}`).toBe(401)
    }
  })

  it("refuses a signed-in user who is not an admin at the pages' endpoints too (admin/act, every action, impersonate included; admin/acting), and they act as no one after", async () => {
    const { pats, boss, pat, admins, adapter, user, security } = await setUp()
    // A plain user as the target: only the caller's standing can refuse it.
    const sam = await user("sam@example.com")
    const view = (who: typeof pats) => who.send("session").then(async (r) => (await r.json()) as { user?: { email?: string }; admin?: unknown } | null)
    const form = async (fields: Record<string, string>) => {
      const response = await pats.send("admin/act", {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", origin },
        body: new URLSearchParams({ csrfToken: await pats.csrf(), ...fields }).toString(),
      })
      expect(response.status, fields.action).toBe(302)
      return response.headers.get("location") ?? ""
    }
    for (const action of ["impersonate", "suspend", "restore", "end-sessions", "send-reset", "delete"]) {
      for (const target of [sam.id, boss.id]) {
        expect(await form({ action, userId: target, confirm: "on" }), `${action} ${target}`).toContain("error=NotAdmin")
      }
    }
    expect(await form({ action: "create", email: "made-by-pat@example.com" })).toContain("error=NotAdmin")
    // The same post as a script's JSON, with the CSRF token.
    const json = await pats.post("admin/act", { action: "impersonate", userId: sam.id })
    expect(json.headers.get("location")).toContain("error=NotAdmin")
    // Pat is still Pat, in a plain session: acting as no one.
    const session = await view(pats)
    expect(session?.user?.email).toBe(pat.email)
    expect(session?.admin).toBeUndefined()
    expect(await pats.api("isAdmin")).toBe(false)
    // admin/acting: there is nothing to stop, and Pat stays signed in as Pat.
    expect((await pats.send("admin/acting")).status).toBe(404)
    const stop = await pats.send("admin/acting", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin },
      body: new URLSearchParams({ csrfToken: await pats.csrf() }).toString(),
    })
    expect(stop.headers.get("location")).toBe(`${origin}/auth/signin`)
    expect((await view(pats))?.user?.email).toBe(pat.email)
    // Nothing happened to anyone, and no admin action was recorded.
    expect(await adapter.getUserByEmail!("made-by-pat@example.com")).toBeNull()
    expect(await adapter.getUser!(sam.id)).not.toBeNull()
    expect(await admins.who()).toBe(boss.email)
    expect(await admins.api("userBan", sam.id)).toBeNull()
    expect(security.filter((e) => e.type.startsWith("admin."))).toEqual([])
  })

  it("refuses a signed-out visitor at admin/act (impersonate included), who is signed in as no one after", async () => {
    const { browser, pat, security } = await setUp()
    const stranger = browser()
    const response = await stranger.send("admin/act", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin },
      body: new URLSearchParams({ csrfToken: await stranger.csrf(), action: "impersonate", userId: pat.id }).toString(),
    })
    expect(response.headers.get("location")).toContain("error=NotSignedIn")
    expect(await stranger.who()).toBeNull()
    expect(security.filter((e) => e.type.startsWith("admin."))).toEqual([])
  })

  it("lets an admin act on users but not on themselves, nor on another admin unless actOnAdmins", async () => {
    const { admins, boss, user, browser } = await setUp()
    const other = await user("other-admin@example.com", "admin")
    await expect(admins.api("banUser", boss.id)).rejects.toMatchObject({ code: "Forbidden" })
    await expect(admins.api("banUser", other.id)).rejects.toMatchObject({ code: "Forbidden" })
    await expect(admins.api("removeUser", other.id)).rejects.toMatchObject({ code: "Forbidden" })
    await expect(admins.api("revokeUserSessions", other.id)).rejects.toMatchObject({ code: "Forbidden" })
    const others = browser()
    await others.signIn(other.email)
    expect(await others.who()).toBe(other.email)

    const lenient = await setUp({ actOnAdmins: true })
    const second = await lenient.user("second@example.com", "admin")
    await expect(lenient.admins.api("banUser", lenient.boss.id)).rejects.toMatchObject({ code: "Forbidden" })
    expect(await lenient.admins.api("banUser", second.id)).toMatchObject({ userId: second.id })
  })

  it("knows admins by a user field, a list of ids, or a function", async () => {
    const byIds = makeWorld({ admins: { userIds: [] } })
    const a = await byIds.user("a@example.com")
    const ids = makeWorld({ adapter: byIds.adapter, admins: { userIds: [a.id] } })
    const browser = ids.browser()
    await browser.signIn(a.email)
    expect(await browser.api("isAdmin")).toBe(true)

    const adapter = MemoryAdapter()
    const staff = await adapter.createUser!({ id: "u-staff", email: "staff@example.com", name: null, image: null, emailVerified: new Date(), role: "admin" } as never)
    const field = makeWorld({ adapter, admins: { field: "role", values: ["admin"] } })
    const fb = field.browser()
    await fb.signIn(staff.email)
    expect(await fb.api("isAdmin")).toBe(true)
  })

  it("checks its options where the configuration is written", () => {
    expect(() => admin({} as never)).toThrow(/admins/)
    expect(() => admin({ admins: { field: "role", values: [] } })).toThrow(/values/)
    expect(() => admin({ admins: { userIds: [""] } })).toThrow(/userIds/)
    expect(() => admin({ admins: { userIds: ["a"] }, actOnAdmins: "yes" as never })).toThrow(/actOnAdmins/)
  })
})

describe("suspending a user", () => {
  it("ends their database session at once and sends every sign-in to the page that says so", async () => {
    const { admins, pat, pats, browser, security, boss } = await setUp()
    const ban = (await admins.api("banUser", pat.id, { reason: "chargebacks" })) as { sessionsEnded: number; until: Date | null }
    expect(ban).toMatchObject({ userId: pat.id, reason: "chargebacks", until: null, bannedBy: boss.id, sessionsEnded: 1 })
    expect(await pats.who()).toBeNull()

    const again = browser()
    expect(await again.signIn(pat.email)).toBe(suspendedPage)
    expect(await again.who()).toBeNull()
    const page = await again.send("admin/suspended")
    expect(page.status).toBe(403)
    const text = await page.text()
    expect(text).toContain("This account is suspended")
    // The admin's reason is for admins, not for whoever holds the account.
    expect(text).not.toContain("chargebacks")
    expect(security.filter((e) => e.type === "admin.user-suspended")).toEqual([expect.objectContaining({ actorId: boss.id, userId: pat.id })])
  })

  it("ends a JWT session within the revocation bound", async () => {
    const { admins, pat, pats, browser } = await setUp({ strategy: "jwt", revocation: { cache: 0 } })
    expect(await pats.who()).toBe(pat.email)
    await admins.api("banUser", pat.id)
    expect(await pats.who()).toBeNull()
    expect(await browser().signIn(pat.email)).toBe(suspendedPage)
  })

  it("ends a JWT session on another instance within its revocation cache, and at once on the instance that banned", async () => {
    vi.useFakeTimers({ toFake: ["Date"] })
    try {
      let now = Date.parse("2031-04-01T09:00:00Z")
      const advance = (ms: number) => vi.setSystemTime((now += ms))
      vi.setSystemTime(now)
      const cache = 30
      // Instance A, where the admin bans; instance B, its own configuration (its own cache) on the same store.
      const a = await setUp({ strategy: "jwt", revocation: { cache } })
      const b = makeWorld({ adapter: a.adapter, strategy: "jwt", revocation: { cache } })
      /** Pat's cookies, copied into a browser of `world` (each read may clear or re-issue them). */
      const patOn = (world: typeof b) => {
        const copy = world.browser()
        for (const [name, value] of a.pats.jar.cookies) copy.jar.cookies.set(name, value)
        return copy
      }
      advance(1_000)
      // B reads Pat's session first, and believes what it read for `cache` seconds.
      expect(await patOn(b).who()).toBe(a.pat.email)
      advance(1_000)
      await a.admins.api("banUser", a.pat.id)
      expect(await patOn(a).who()).toBeNull()
      advance(10_000)
      expect(await patOn(b).who()).toBe(a.pat.email)
      // A new sign-in is refused on B at once: the ban is read at every sign-in, not through the cache.
      expect(await b.browser().signIn(a.pat.email)).toBe(suspendedPage)
      advance(20_000)
      // `cache` seconds after the ban (31 s after B read the user): B asks the store again, and refuses it.
      expect(await patOn(b).who()).toBeNull()
      expect(await a.pats.who()).toBeNull()
    } finally {
      vi.useRealTimers()
    }
  })

  it("until a date: the page says when, and the user signs in again once it has passed", async () => {
    vi.useFakeTimers({ toFake: ["Date"] })
    try {
      vi.setSystemTime(new Date("2031-03-01T10:00:00Z"))
      const { admins, pat, browser } = await setUp()
      await admins.api("banUser", pat.id, { until: "2031-03-02T10:00:00Z" })
      const during = browser()
      expect(await during.signIn(pat.email)).toBe(`${suspendedPage}?until=2031-03-02T10%3A00%3A00.000Z`)
      expect(await (await during.send("admin/suspended", { query: { until: "2031-03-02T10:00:00.000Z" } })).text()).toContain("March 2, 2031")
      vi.setSystemTime(new Date("2031-03-02T10:00:01Z"))
      const after = browser()
      expect(await after.signIn(pat.email)).toBe(`${origin}/`)
      expect(await admins.api("userDetails", pat.id)).toMatchObject({ suspended: false, ban: { userId: pat.id } })
    } finally {
      vi.useRealTimers()
    }
  })

  it("refuses an until in the past and a reason that is not short text", async () => {
    const { admins, pat } = await setUp()
    await expect(admins.api("banUser", pat.id, { until: "2001-01-01T00:00:00Z" })).rejects.toMatchObject({ code: "InvalidInput" })
    await expect(admins.api("banUser", pat.id, { until: "soon" })).rejects.toMatchObject({ code: "InvalidInput" })
    await expect(admins.api("banUser", pat.id, { reason: "x".repeat(501) })).rejects.toMatchObject({ code: "InvalidInput" })
    await expect(admins.api("banUser", "no-such-user")).rejects.toMatchObject({ code: "NotFound" })
  })

  it("is lifted by unbanUser: the user signs in again", async () => {
    const { admins, pat, browser, security } = await setUp()
    await admins.api("banUser", pat.id)
    expect(await admins.api("unbanUser", pat.id)).toBe(true)
    expect(await admins.api("unbanUser", pat.id)).toBe(false)
    expect(await browser().signIn(pat.email)).toBe(`${origin}/`)
    expect(security.filter((e) => e.type === "admin.user-restored")).toHaveLength(1)
  })

  it("refuses a sign-in that names the suspended user only by their proven address (another provider)", async () => {
    const { admins, pat, config } = await setUp()
    await admins.api("banUser", pat.id)
    const module = config.plugins![0]!
    // What the core hands `checkSignIn`: the store, the adapter's users, where the endpoints are.
    const users = { get: (id: string) => config.adapter!.getUser!(id), getByEmail: (email: string) => config.adapter!.getUserByEmail!(email) }
    const context = { authUrl: `${origin}/auth`, store: config.adapter!.store }
    const params = { user: { id: "github-4711", email: pat.email, name: null, image: null }, account: { provider: "github", type: "oauth", providerAccountId: "4711" } }
    expect(await module.checkSignIn!(params as never, { ...context, users } as never)).toBe(suspendedPage)
    // An email link may still be asked for: refusing it would tell anyone the address is suspended.
    expect(await module.checkSignIn!({ ...params, email: { verificationRequest: true } } as never, { ...context, users } as never)).toBe(true)
  })

  it("refuses the endpoints' POSTs without the CSRF token or from another site", async () => {
    const { admins, pat, pats } = await setUp()
    // Sesame's refusals: back to sign in with MissingCSRF, and a 403 for another site's post.
    const noToken = await admins.send("admin/ban", { json: { userId: pat.id } })
    expect([noToken.status, noToken.headers.get("location")]).toEqual([302, `${origin}/auth/signin?error=MissingCSRF`])
    const crossSite = await admins.send("admin/ban", { json: { csrfToken: await admins.csrf(), userId: pat.id }, headers: { origin: "https://evil.example", "sec-fetch-site": "cross-site" } })
    expect(crossSite.status).toBe(403)
    expect(await pats.who()).toBe(pat.email)
    const ok = await admins.post("admin/ban", { userId: pat.id })
    expect(ok.status).toBe(200)
    expect(await pats.who()).toBeNull()
  })
})

describe("an admin's view and actions on a user", () => {
  it("shows accounts, sessions and suspension, with no token or hash", async () => {
    const { admins, pat, pats, adapter } = await setUp()
    const details = (await admins.api("userDetails", pat.id)) as { sessions: unknown[]; accounts: unknown[]; user: { email: string }; admin: boolean }
    expect(details).toMatchObject({ user: { email: pat.email }, admin: false, ban: null, suspended: false })
    expect(details.sessions).toHaveLength(1)
    const [stored] = await adapter.listSessionsByUserId!(pat.id)
    const cookie = pats.jar.get("sesame.session-token")!
    const json = JSON.stringify(await (await admins.send("admin/user", { query: { userId: pat.id } })).json())
    expect(json).toContain(pat.email)
    expect(json).not.toContain(cookie)
    expect(json).not.toContain(stored!.sessionToken)
  })

  it("ends every session of the user, and deletes the user", async () => {
    const { admins, pat, pats, adapter, security, boss } = await setUp()
    expect(await admins.api("revokeUserSessions", pat.id)).toBe(1)
    expect(await pats.who()).toBeNull()
    expect(await admins.api("removeUser", pat.id)).toBe(true)
    expect(await adapter.getUser!(pat.id)).toBeNull()
    await expect(admins.api("removeUser", pat.id)).rejects.toMatchObject({ code: "NotFound" })
    expect(security.filter((e) => e.type.startsWith("admin.")).map((e) => [e.type, e.actorId, e.userId])).toEqual([
      ["admin.sessions-revoked", boss.id, pat.id],
      ["admin.user-deleted", boss.id, pat.id],
    ])
  })
})

describe("listing users", () => {
  it("pages by address, searches any case and literally, and refuses a made-up cursor or a bad limit", async () => {
    const { admins, user, pats } = await setUp()
    for (let i = 0; i < 12; i++) await user(`m${String(i).padStart(2, "0")}_x@example.com`)
    const first = (await admins.api("listUsers", { limit: 5 })) as { users: { email: string; admin: boolean }[]; next: string }
    expect(first.users.map((u) => u.email)).toEqual(["boss@example.com", "m00_x@example.com", "m01_x@example.com", "m02_x@example.com", "m03_x@example.com"])
    expect(first.users[0]!.admin).toBe(true)
    const second = (await admins.api("listUsers", { limit: 5, cursor: first.next })) as { users: { email: string }[] }
    expect(second.users[0]!.email).toBe("m04_x@example.com")
    // `_` is a character here, not a wildcard.
    expect(((await admins.api("listUsers", { search: "M1_" })) as { users: { email: string }[] }).users.map((u) => u.email)).toEqual([])
    expect(((await admins.api("listUsers", { search: "M10_" })) as { users: { email: string }[] }).users.map((u) => u.email)).toEqual(["m10_x@example.com"])
    await expect(admins.api("listUsers", { cursor: "not-a-cursor" })).rejects.toMatchObject({ code: "InvalidInput" })
    await expect(admins.api("listUsers", { limit: 1000 })).rejects.toMatchObject({ code: "InvalidInput" })
    await expect(pats.api("listUsers")).rejects.toMatchObject({ code: "NotAdmin" })
    const json = await (await admins.send("admin/users", { query: { search: "boss" } })).json()
    expect(json).toMatchObject({ result: { users: [{ email: "boss@example.com" }], next: null } })
  })
})
