/**
 * Protected routes in both forms, through SvelteKit's own server (test/kit.ts):
 * `requireSession(event)` in `/account/+layout.server.ts` and `/api/me/+server.ts`, and the hook
 * `authorize({ protect: ["/admin", "/api/private"] })`. Signed out, pages redirect to the sign-in
 * page with the way back and JSON clients get a 401; signed in, the content is served. Attacks: a
 * forged Host or X-Forwarded-Host, a percent-encoded path, a `//host` return address. With
 * `allow` (`/projects/<permission>`, `/api/projects/<permission>` through `requireSession`,
 * `/staff/<permission>` through the hook; lib/permissions.ts asks a plugin's server function
 * through `api(event)`): allowed, the content; refused, 403 `{ error: "Forbidden", message }`
 * (SvelteKit's error page, JSON, or the hook's plain page); signed out, the sign-in redirect as
 * ever without asking `allow`; an outage in the check, the core's 503; another error, a 500.
 */
import type { RequestEvent } from "@sveltejs/kit"
import { checkUnavailable } from "@sesame/testing"
import { beforeAll, describe, expect, it, vi } from "vitest"
import { authorize, requireSession } from "../src/index.js"
import { probe } from "./app/src/lib/probe.js"
import { CookieJar, origin, shown, signInAlice, startApp, type Send } from "./kit.js"

let send: Send
const alice = new CookieJar()

beforeAll(async () => {
  send = await startApp()
  await signInAlice(send, alice)
}, 120_000)

const json = { accept: "application/json" }
const signInPage = (back: string) => `${origin}/auth/signin?callbackUrl=${encodeURIComponent(back)}`

describe("requireSession (the server-side form)", () => {
  it("sends a signed-out visitor to the sign-in page and back, and lets alice in", async () => {
    const out = await send("/account?tab=keys")
    expect(out.status).toBe(303)
    expect(out.headers.get("location")).toBe(signInPage("/account?tab=keys"))
    const page = await send("/account", { jar: alice })
    expect(page.status).toBe(200)
    expect(await page.text()).toContain("Account of Alice")
  })

  it("answers 401 JSON to a JSON client, and the user to alice", async () => {
    const out = await send("/api/me", { headers: json })
    expect(out.status).toBe(401)
    expect(await out.json()).toEqual({ error: "Unauthorized", message: "Sign in first." })
    const me = await send("/api/me", { jar: alice, headers: json })
    expect(await me.json()).toMatchObject({ name: "Alice", email: "alice@example.com" })
  })

  it("redirects a client-side navigation (SvelteKit's data request) with a JSON redirect", async () => {
    const data = await send("/account/__data.json")
    expect(data.status).toBe(200)
    expect(await data.json()).toEqual({ type: "redirect", location: signInPage("/account") })
  })

  it("goes through pages.signIn: the core forwards its sign-in page to the app's", async () => {
    const out = await send("/account", { config: "custom" })
    expect(out.headers.get("location")).toBe(`${origin}/custom-auth/signin?callbackUrl=%2Faccount`)
    const forwarded = await send(new URL(out.headers.get("location")!).pathname + new URL(out.headers.get("location")!).search, { config: "custom" })
    expect(forwarded.headers.get("location")).toBe(`${origin}/signin?callbackUrl=${encodeURIComponent(`${origin}/account`)}`)
  })

  it("takes a redirectTo that is a path on this site, and refuses any other at once", async () => {
    const event = { locals: {} } as RequestEvent
    await expect(requireSession(event, { redirectTo: "https://evil.example" })).rejects.toThrow(TypeError)
    await expect(requireSession(event, { redirectTo: "//evil.example" })).rejects.toThrow(TypeError)
    // A path is fine; without the hook having run, the guard says what is missing.
    await expect(requireSession(event, { redirectTo: "/login" })).rejects.toThrow("export it from src/hooks.server.ts")
  })
})

describe("authorize (the hook)", () => {
  it("guards a page and what is below it, redirecting signed-out visitors; alice gets in", async () => {
    // Below it, before SvelteKit routes anything: even a page that does not exist.
    for (const path of ["/admin", "/admin/users?page=2"]) {
      const out = await send(path)
      expect(out.status, path).toBe(303)
      expect(out.headers.get("location"), path).toBe(signInPage(path))
      expect(out.headers.get("cache-control")).toBe("private, no-store")
    }
    const page = await send("/admin", { jar: alice })
    expect(await page.text()).toContain("Admin area of Alice")
    // Only that path and what is below it.
    expect((await send("/administrator")).status).toBe(404)
  })

  it("answers 401 JSON for a guarded API to a JSON client", async () => {
    const out = await send("/api/private", { headers: json })
    expect(out.status).toBe(401)
    expect(await out.json()).toEqual({ error: "Unauthorized", message: "Sign in first." })
    expect(await (await send("/api/private", { jar: alice, headers: json })).json()).toEqual({ secret: "private data" })
  })

  it("matches paths as SvelteKit routes them: a percent-encoded /admin is guarded too", async () => {
    const out = await send("/%61dmin")
    expect(out.status).toBe(303)
    expect(await out.text()).not.toContain("Admin area")
    // A path that does not decode is guarded rather than let through.
    expect((await send("/%E0%A4%A")).status).toBe(303)
  })

  it("clears a garbled session cookie on its redirect", async () => {
    const out = await send("/admin", { cookie: "sesame.session-token=garbage" })
    expect(out.status).toBe(303)
    expect(out.headers.getSetCookie().find((line) => line.startsWith("sesame.session-token="))).toMatch(/Max-Age=0/i)
  })

  it("never guards the endpoints, even when protect covers their paths (handle answers them first)", async () => {
    expect((await send("/auth/providers")).status).toBe(200)
    expect((await send("/auth/signin")).status).toBe(200)
    // Any other path it covers is guarded.
    expect((await send("/authentic")).status).toBe(303)
  })

  it("checks its options when it is made", () => {
    expect(() => authorize({ protect: ["admin"] })).toThrow(TypeError)
    expect(() => authorize({ protect: ["/"], redirectTo: "/login" })).toThrow("is itself protected")
    expect(() => authorize({ protect: ["/admin"], redirectTo: "https://evil.example/login" })).toThrow(TypeError)
    expect(() => authorize({ protect: ["/admin"], redirectTo: "/login" })).not.toThrow()
  })
})

describe("attacks on the redirect", () => {
  it("a forged Host without trustHost is never written into it", async () => {
    const forged: Record<string, string>[] = [{ host: "evil.example" }, { "x-forwarded-host": "evil.example", "x-forwarded-proto": "https" }]
    for (const headers of forged) {
      for (const path of ["/account", "/admin"]) {
        const location = (await send(path, { headers })).headers.get("location")!
        expect(location, `${path} ${JSON.stringify(headers)}`).not.toContain("evil.example")
      }
    }
    // With a forged Host the core refuses the host: the target is a path on whatever host the browser is on.
    expect((await send("/account", { headers: { host: "evil.example" } })).headers.get("location")).toBe("/auth/signin?callbackUrl=%2Faccount")
  })

  it("with trustHost, the proxy's X-Forwarded-Host is the app's origin (the legitimate case)", async () => {
    const out = await send("/account", { config: "trusted", headers: { "x-forwarded-host": "app.example", "x-forwarded-proto": "https" } })
    expect(out.headers.get("location")).toBe("https://app.example/auth/signin?callbackUrl=%2Faccount")
  })

  it("a //host return address collapses to a path on this site", async () => {
    const out = await send("//evil.example/steal")
    expect(out.status).toBe(303)
    expect(out.headers.get("location")).toBe(signInPage("/evil.example/steal"))
  })
})

describe("allow: the app's check of the signed-in session", () => {
  const forbidden = { error: "Forbidden", message: "Access denied." }
  const page = { accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8" }

  it("lets alice in where allow resolves true, having handed it her session and the event", async () => {
    probe().allowCalls.length = 0
    expect(await shown(await send("/projects/read", { jar: alice }), "project")).toBe("Projects of Alice")
    expect(await (await send("/api/projects/read", { jar: alice, headers: json })).json()).toMatchObject({ email: "alice@example.com" })
    expect(await shown(await send("/staff/read", { jar: alice }), "staff")).toBe("Staff area")
    expect(probe().allowCalls).toEqual([
      "read for alice@example.com at /projects/read",
      "read for alice@example.com at /api/projects/read",
      "read for alice@example.com at /staff/read",
    ])
  })

  it("requireSession refuses with SvelteKit's error(403): the error page for a page, JSON for a JSON client and a navigation", async () => {
    const shownPage = await send("/projects/create", { jar: alice, headers: page })
    expect(shownPage.status).toBe(403)
    const text = await shownPage.text()
    expect(text).toContain("Access denied.")
    expect(text).not.toContain("Projects of")
    const api = await send("/api/projects/create", { jar: alice, headers: json })
    expect(api.status).toBe(403)
    expect(await api.json()).toEqual(forbidden)
    // A client-side navigation: the page's node is the error SvelteKit's client shows, with its status.
    const { type, nodes } = (await (await send("/projects/create/__data.json", { jar: alice })).json()) as { type: string; nodes: { type: string }[] }
    expect(type).toBe("data")
    expect(nodes.find((node) => node.type === "error")).toEqual({ type: "error", status: 403, error: forbidden })
  })

  it("the hook refuses with 403 before SvelteKit renders: a plain page, JSON for a JSON client and a navigation", async () => {
    const shownPage = await send("/staff/create", { jar: alice, headers: page })
    expect(shownPage.status).toBe(403)
    expect(shownPage.headers.get("content-type")).toMatch(/^text\/plain/)
    expect(shownPage.headers.get("cache-control")).toBe("private, no-store")
    expect(await shownPage.text()).toBe("Access denied.")
    for (const [path, headers] of [["/staff/create", json], ["/staff/create", { "x-requested-with": "XMLHttpRequest" }], ["/staff/create/__data.json", {}]] as const) {
      const refused = await send(path, { jar: alice, headers })
      expect(refused.status, path).toBe(403)
      expect(refused.headers.get("cache-control")).toBe("private, no-store")
      expect(await refused.json()).toEqual(forbidden)
    }
  })

  it("sends a signed-out visitor to sign in (or 401) as before, without asking allow", async () => {
    probe().allowCalls.length = 0
    for (const path of ["/projects/create", "/staff/create"]) {
      const out = await send(path)
      expect(out.status, path).toBe(303)
      expect(out.headers.get("location")).toBe(signInPage(path))
    }
    expect((await send("/api/projects/create", { headers: json })).status).toBe(401)
    expect((await send("/staff/create", { headers: json })).status).toBe(401)
    expect(probe().allowCalls).toEqual([])
  })

  it("answers the core's 503 when allow meets a storage outage, in both guards", async () => {
    for (const path of ["/projects/outage", "/staff/outage"]) {
      const { problems, body } = await checkUnavailable(await send(path, { jar: alice, headers: page }), "page")
      expect(problems, path).toEqual([])
      expect(body).not.toContain("Projects of")
    }
    for (const path of ["/api/projects/outage", "/staff/outage"]) {
      expect((await checkUnavailable(await send(path, { jar: alice, headers: json }), "json")).problems, path).toEqual([])
    }
  })

  it("lets any other error of allow through to SvelteKit: a 500 and handleError, never the content", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {})
    const before = probe().unexpected.length
    for (const path of ["/projects/broken", "/api/projects/broken", "/staff/broken"]) {
      const response = await send(path, { jar: alice, headers: path.startsWith("/api") ? json : page })
      expect(response.status, path).toBe(500)
      expect(await response.text()).not.toMatch(/Projects of|Staff area/)
    }
    expect(probe().unexpected.slice(before)).toContain("the permission store broke")
    vi.restoreAllMocks()
  })

  it("refuses an allow that is not a function when the hook is made or the guard called", async () => {
    expect(() => authorize({ protect: ["/admin"], allow: "admin" as never })).toThrow(TypeError)
    await expect(requireSession({ locals: {} } as RequestEvent, { allow: "admin" as never })).rejects.toThrow(TypeError)
  })
})
