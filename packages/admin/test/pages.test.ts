/**
 * The built-in admin pages over HTTP: a visitor goes to sign in and comes back, a user who is not
 * an admin sees a 403 that lists no one, an admin searches and pages through the users, opens one
 * and acts on them with the pages' forms (CSRF token required, the same refusals as the server
 * functions, said in words), and never sees controls for themselves or another admin.
 */
import { describe, expect, it } from "vitest"
import { bossAndPat, makeWorld, origin } from "./world.js"

const setUp = bossAndPat

/** Posts a page's form to `admin/act` with the CSRF token, as the browser would; the redirect's target. */
async function act(browser: ReturnType<ReturnType<typeof makeWorld>["browser"]>, form: Record<string, string>): Promise<string> {
  const response = await browser.send("admin/act", {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", origin },
    body: new URLSearchParams({ csrfToken: await browser.csrf(), ...form }).toString(),
  })
  expect(response.status).toBe(302)
  return response.headers.get("location") ?? ""
}

describe("who sees the pages", () => {
  it("sends a visitor to sign in, and back", async () => {
    const { browser } = await setUp()
    const response = await browser().send("admin")
    expect(response.status).toBe(302)
    expect(response.headers.get("location")).toBe(`${origin}/auth/signin?callbackUrl=${encodeURIComponent(`${origin}/auth/admin`)}`)
  })

  it("shows a user who is not an admin a 403 that lists no one", async () => {
    const { pats, pat, boss } = await setUp()
    for (const path of ["admin", `admin/view?userId=${boss.id}`]) {
      const [pathname, query] = path.split("?")
      const response = await pats.send(pathname!, { query: Object.fromEntries(new URLSearchParams(query ?? "")) })
      expect(response.status, path).toBe(403)
      const text = await response.text()
      expect(text).toContain("Only admins can see this page.")
      expect(text).not.toContain(boss.email)
      expect(text).not.toContain(pat.email)
    }
  })

  it("refuses a non-admin's form post, whatever it names", async () => {
    const { pats, boss, adapter } = await setUp()
    const location = await act(pats, { action: "delete", userId: boss.id, confirm: "on" })
    expect(location).toContain("error=NotAdmin")
    expect(await adapter.getUser!(boss.id)).not.toBeNull()
  })
})

describe("an admin's pages", () => {
  it("lists users by address, searches any case, and pages", async () => {
    const { admins, user } = await setUp()
    for (let i = 0; i < 30; i++) await user(`member-${String(i).padStart(2, "0")}@example.com`)
    const first = await (await admins.send("admin")).text()
    expect(first).toContain("boss@example.com")
    expect(first).toContain("member-00@example.com")
    const next = /href="([^"]*cursor=[^"]*)"/.exec(first)?.[1]?.replaceAll("&amp;", "&")
    expect(next).toBeDefined()
    const url = new URL(next!, origin)
    const second = await (await admins.send("admin", { query: Object.fromEntries(url.searchParams) })).text()
    expect(second).toContain("pat@example.com")
    expect(second).not.toContain("member-00@example.com")
    const found = await (await admins.send("admin", { query: { q: "MEMBER-1" } })).text()
    // member-10 to member-19, each once (its link's text), and no one else.
    expect(found.match(/member-1\d@example\.com/g)?.length).toBe(10)
    expect(found).not.toContain("member-20@example.com")
    expect(found).not.toContain("pat@example.com")
  })

  it("shows a user, and suspends, restores, ends sessions and deletes through the forms", async () => {
    const { admins, pat, pats, adapter, browser } = await setUp()
    const view = await (await admins.send("admin/view", { query: { userId: pat.id } })).text()
    expect(view).toContain(pat.email)
    expect(view).toContain('name="action" value="suspend"')

    expect(await act(admins, { action: "suspend", userId: pat.id, reason: "spam", until: "2099-01-01T10:00" })).toBe(`${origin}/auth/admin/view?userId=${pat.id}&done=suspend`)
    expect(await pats.who()).toBeNull()
    expect(await browser().signIn(pat.email)).toBe(`${origin}/auth/admin/suspended?until=2099-01-01T10%3A00%3A00.000Z`)
    const suspended = await (await admins.send("admin/view", { query: { userId: pat.id, done: "suspend" } })).text()
    expect(suspended).toContain("The user is suspended, and their sessions have ended.")
    expect(suspended).toContain("spam")

    expect(await act(admins, { action: "restore", userId: pat.id })).toContain("done=restore")
    const again = browser()
    expect(await again.signIn(pat.email)).toBe(`${origin}/`)
    expect(await act(admins, { action: "end-sessions", userId: pat.id })).toContain("done=end-sessions")
    expect(await again.who()).toBeNull()

    // Deleting needs the box ticked.
    expect(await act(admins, { action: "delete", userId: pat.id })).toContain("error=InvalidInput")
    expect(await adapter.getUser!(pat.id)).not.toBeNull()
    expect(await act(admins, { action: "delete", userId: pat.id, confirm: "on" })).toBe(`${origin}/auth/admin?done=delete`)
    expect(await adapter.getUser!(pat.id)).toBeNull()
  })

  it("says an out-of-range date in words, and leaves the user as they were", async () => {
    const { admins, pat, pats } = await setUp()
    const location = await act(admins, { action: "suspend", userId: pat.id, until: "2001-01-01T00:00" })
    expect(location).toContain("error=InvalidInput")
    const page = await (await admins.send("admin/view", { query: { userId: pat.id, error: "InvalidInput" } })).text()
    expect(page).toContain("an end date must be in the future")
    expect(await pats.who()).toBe(pat.email)
  })

  it("shows no actions on the admin themselves or another admin, and refuses them if posted", async () => {
    const { admins, boss, user } = await setUp()
    const other = await user("other-admin@example.com", "admin")
    for (const id of [boss.id, other.id]) {
      const view = await (await admins.send("admin/view", { query: { userId: id } })).text()
      expect(view).not.toContain('name="action"')
      expect(await act(admins, { action: "suspend", userId: id })).toContain("error=Forbidden")
    }
  })

  it("refuses a form post without the CSRF token", async () => {
    const { admins, pat, pats } = await setUp()
    const response = await admins.send("admin/act", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin },
      body: new URLSearchParams({ action: "end-sessions", userId: pat.id }).toString(),
    })
    expect(response.headers.get("location")).toBe(`${origin}/auth/signin?error=MissingCSRF`)
    expect(await pats.who()).toBe(pat.email)
  })

  it("escapes what users wrote about themselves", async () => {
    const { admins, adapter } = await setUp()
    const mallory = await adapter.createUser!({ id: crypto.randomUUID(), email: "mallory@example.com", name: '<img src=x onerror="alert(1)">', image: null, emailVerified: null })
    for (const [path, query] of [["admin", {}], ["admin/view", { userId: mallory.id }]] as const) {
      const text = await (await admins.send(path, { query })).text()
      expect(text).toContain("&lt;img src=x")
      expect(text).not.toContain("<img src=x")
    }
  })
})
