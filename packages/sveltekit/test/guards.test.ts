/**
 * Protected routes in both forms, through SvelteKit's own server (test/kit.ts):
 * `requireSession(event)` in `/account/+layout.server.ts` and `/api/me/+server.ts`, and the hook
 * `authorize({ protect: ["/admin", "/api/private"] })`. Signed out, pages redirect to the sign-in
 * page with the way back and JSON clients get a 401; signed in, the content is served. Attacks: a
 * forged Host or X-Forwarded-Host, a percent-encoded path, a `//host` return address.
 */
import type { RequestEvent } from "@sveltejs/kit"
import { beforeAll, describe, expect, it } from "vitest"
import { authorize, requireSession } from "../src/index.js"
import { CookieJar, origin, signInAlice, startApp, type Send } from "./kit.js"

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
