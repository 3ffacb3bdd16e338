/**
 * The guards: `authorize` (a server middleware over a list of paths) and `requireSession(event)`
 * (a route's own check), each attack beside the legitimate request: every spelling Vue Router or
 * Nitro routes to a protected page, a forged host in the redirect, `//evil.example`.
 */
import { afterEach, describe, expect, it } from "vitest"
import { authorize, requireSession, sessionMiddleware } from "@sesame/nuxt/server"
import { defineEventHandler } from "h3"
import { appFor, config, CookieJar, serveApp, signInAlice, type Running } from "./helpers.js"

const running: Running[] = []
async function serve(...args: Parameters<typeof appFor>): Promise<Running> {
  const app = await serveApp(appFor(...args))
  running.push(app)
  return app
}
afterEach(async () => {
  await Promise.all(running.splice(0).map((app) => app.close()))
})

const json = { accept: "application/json" }

describe("authorize", () => {
  it("sends a visitor without a session to the sign-in page with the way back (303, private); a JSON client gets 401; a signed-in one the page", async () => {
    const app = await serve(config())
    const refused = await app.call("/dashboard?tab=keys")
    expect(refused.status).toBe(303)
    expect(refused.headers.get("location")).toBe(`${app.origin}/auth/signin?callbackUrl=${encodeURIComponent("/dashboard?tab=keys")}`)
    expect(refused.headers.get("cache-control")).toBe("private, no-store")
    const api = await app.call("/dashboard/keys", { headers: json })
    expect(api.status).toBe(401)
    expect(await api.json()).toEqual({ error: "Unauthorized", message: "Sign in first." })
    expect((await app.call("/read")).status).toBe(200)
    const jar = new CookieJar()
    await signInAlice(app, jar)
    expect(await (await app.call("/dashboard", { jar })).text()).toBe("dashboard of Alice")
  })

  it("fails (a bypass): every spelling Vue Router routes to a protected page (any case, a trailing slash, percent-encoding, doubled slashes, its payload) is guarded", async () => {
    const app = await serve(config())
    for (const path of ["/Dashboard", "/DASHBOARD/", "/dashboard/", "/%64ashboard", "/%2564ashboard", "//dashboard", "/dashboard/_payload.json", "/Dashboard/_payload.json", "/%E0%A4%A"]) {
      const answer = await app.call(path)
      expect(answer.status, path).toBe(303)
    }
    const exact = await serve(config(), () => {}, [sessionMiddleware(config()), authorize(config(), { protect: (path) => path === "/dashboard" })])
    for (const path of ["/dashboard/", "/Dashboard", "/dashboard/_payload.json"]) expect((await exact.call(path)).status, path).toBe(303)
    expect((await exact.call("/read")).status).toBe(200)
  })

  it("with allow: a refused user gets 403 (plain text, or JSON), an allowed one the page; redirectTo sends the visitor to that path", async () => {
    const auth = config()
    const refusing = await serve(auth, () => {}, [sessionMiddleware(auth), authorize(auth, { protect: ["/dashboard"], allow: (session) => session.user.email === "bob@example.com" })])
    const jar = new CookieJar()
    await signInAlice(refusing, jar)
    const page = await refusing.call("/dashboard", { jar })
    expect(page.status).toBe(403)
    expect(await page.text()).toBe("Access denied.")
    expect(await (await refusing.call("/dashboard", { jar, headers: json })).json()).toEqual({ error: "Forbidden", message: "Access denied." })
    const redirecting = await serve(auth, () => {}, [sessionMiddleware(auth), authorize(auth, { protect: ["/dashboard"], redirectTo: "/signin" })])
    expect((await redirecting.call("/dashboard")).headers.get("location")).toBe("/signin")
  })

  it("protects the whole app with \"/\" but the auth routes", async () => {
    const auth = config()
    const app = await serve(auth, () => {}, [sessionMiddleware(auth), authorize(auth, { protect: ["/"], redirectTo: "/auth/signin" })])
    expect((await app.call("/read")).status).toBe(303)
    expect((await app.call("/auth/signin")).status).toBe(200)
    expect((await app.call("/auth/session")).status).toBe(200)
  })

  it("fails: a forged Host or X-Forwarded-Host is never written into the redirect; //evil.example/x comes back as a path on the app", async () => {
    const app = await serve(config({ trustHost: false }))
    const forged = await app.call("/dashboard", { headers: { "x-forwarded-host": "evil.example" } })
    expect(forged.status).toBe(303)
    expect(forged.headers.get("location")).not.toContain("evil.example")
    const hostForged = await fetch(`${app.origin}/dashboard`, { redirect: "manual", headers: { host: "evil.example" } })
    expect(hostForged.headers.get("location") ?? "").not.toContain("evil.example")
    const slashes = await app.call("//evil.example/x?y=1".replace(/^/, ""), {})
    expect(new URL(slashes.headers.get("location") ?? "/", app.origin).searchParams.get("callbackUrl") ?? "").not.toMatch(/^\/\//)
  })

  it("checks its options when it is made", () => {
    const auth = config()
    expect(() => authorize(auth, undefined as never)).toThrow(/protect/)
    expect(() => authorize(auth, { protect: ["dashboard"] })).toThrow(/path such as/)
    expect(() => authorize(auth, { protect: ["/dashboard"], redirectTo: "//evil.example/" })).toThrow(/path on this site/)
    expect(() => authorize(auth, { protect: ["/dashboard"], redirectTo: "/Dashboard/in" })).toThrow(/itself protected/)
    expect(() => authorize(auth, { protect: ["/"], redirectTo: "/auth/signin" })).not.toThrow()
    expect(() => authorize(auth, { protect: ["/dashboard"], allow: "admin" as never })).toThrow(/`allow` must be a function/)
  })
})

describe("requireSession", () => {
  it("in an API route: 401 JSON for a JSON client, the sign-in redirect for a browser, the session's user once signed in", async () => {
    const app = await serve(config())
    const refused = await app.call("/api/me", { headers: json })
    expect(refused.status).toBe(401)
    expect(await refused.json()).toEqual({ error: "Unauthorized", message: "Sign in first." })
    expect((await app.call("/api/me")).status).toBe(303)
    const jar = new CookieJar()
    await signInAlice(app, jar)
    expect(await (await app.call("/api/me", { jar })).json()).toEqual({ email: "alice@example.com" })
  })

  it("takes the configuration or options as its second argument, and refuses with allow", async () => {
    const auth = config()
    const app = await serve(auth, (router) => {
      router.get(
        "/admin",
        defineEventHandler(async (event) => {
          const session = await requireSession(event, auth, { allow: (s) => s.user.email === "bob@example.com" })
          return session instanceof Response ? session : "admin"
        }),
      )
    })
    const jar = new CookieJar()
    await signInAlice(app, jar)
    expect((await app.call("/admin", { jar })).status).toBe(403)
  })
})
