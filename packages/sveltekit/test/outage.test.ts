/**
 * A storage outage (issue 40) through SvelteKit's own server (test/kit.ts), with database sessions
 * on an adapter that fails as a driver does when its server restarts (the `outage` configuration:
 * `outage` of @sesame/testing, taken down and brought back through `probe().storage`): a signed-in
 * visitor is never taken for signed out. `requireSession` and the `authorize` hook answer the
 * core's 503 with Retry-After (the page for a page, JSON for a script), never the sign-in redirect
 * or the 401, never a cookie; `locals.auth()` rejects with the StorageUnavailable, which a `load`
 * may catch, and which the `handle` hook answers with the core's page when a `load` or a later
 * hook lets it through; a page that reads no session goes on; once the storage is back the same
 * cookie is the same session. Each defence beside the flow it protects.
 */
import { afterEach, beforeAll, describe, expect, it } from "vitest"
import { checkUnavailable } from "@sesame/testing"
import { probe } from "./app/src/lib/probe.js"
import { CookieJar, origin, sameOrigin, shown, signInAlice, startApp, type AppRequest, type Send } from "./kit.js"

let send: Send

beforeAll(async () => {
  send = await startApp()
}, 120_000)

afterEach(() => {
  probe().storage!.up()
})

const page = { accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8" }
const json = { accept: "application/json" }
const storage = () => probe().storage!

/** A jar with alice signed in on `config`. */
async function signedIn(config: AppRequest["config"] = "outage"): Promise<CookieJar> {
  const jar = new CookieJar()
  expect((await signInAlice(send, jar, config)).status).toBe(302)
  expect(jar.get("sesame.session-token")).toBeDefined()
  return jar
}

/** Sesame's 503 (see `checkUnavailable`): the page or JSON; its body. */
async function expectUnavailable(response: Response, kind: "page" | "json"): Promise<string> {
  const { problems, body } = await checkUnavailable(response, kind)
  expect(problems).toEqual([])
  return body
}

describe("a storage outage", () => {
  it("the flow it protects: signed in, the guarded pages, the API, the hook-guarded page and locals.auth() see Alice", async () => {
    const jar = await signedIn()
    const options = { jar, config: "outage" } as const
    expect(await shown(await send("/account", { ...options, headers: page }), "account")).toBe("Account of Alice")
    expect(await (await send("/api/me", { ...options, headers: json })).json()).toMatchObject({ email: "alice@example.com" })
    expect(await shown(await send("/admin", { ...options, headers: page }), "admin")).toBe("Admin area of Alice")
    expect(await shown(await send("/whoami", options), "who")).toBe("Alice")
    expect(await shown(await send("/", options), "user")).toBe("Alice")
  })

  it("requireSession answers a page with the unavailable page (503, Retry-After), not the sign-in redirect, and sets no cookie", async () => {
    const jar = await signedIn()
    const cookie = jar.get("sesame.session-token")
    storage().down()
    const body = await expectUnavailable(await send("/account?tab=keys", { jar, config: "outage", headers: page }), "page")
    // "Try again" reloads the page asked for, as a path.
    expect(body).toContain('href="/account?tab=keys"')
    expect(body).not.toContain("Account of Alice")
    expect(jar.get("sesame.session-token")).toBe(cookie)
    expect(storage().refused.size).toBeGreaterThan(0)
  })

  it("requireSession answers a JSON client (a +server.ts) 503 JSON, not 401", async () => {
    const jar = await signedIn()
    storage().down()
    await expectUnavailable(await send("/api/me", { jar, config: "outage", headers: json }), "json")
    await expectUnavailable(await send("/api/me", { jar, config: "outage", headers: { "x-requested-with": "XMLHttpRequest" } }), "json")
  })

  it("requireSession in a client-side navigation: SvelteKit's data answer carries the 503 and the message, no redirect", async () => {
    const jar = await signedIn()
    storage().down()
    const data = await send("/account/__data.json", { jar, config: "outage" })
    expect(data.headers.getSetCookie()).toEqual([])
    const { type, nodes } = (await data.json()) as { type: string; nodes: { type: string; status?: number; error?: unknown }[] }
    expect(type).toBe("data")
    // The layout's node: the error SvelteKit's client shows on the app's error page, with its status.
    expect(nodes.find((node) => node.type === "error")).toEqual({
      type: "error",
      status: 503,
      error: { error: "StorageUnavailable", message: expect.stringContaining("Try again") as unknown },
    })
  })

  it("requireSession in a form action: the unavailable page for a form's post, SvelteKit's own error result for use:enhance", async () => {
    const jar = await signedIn()
    storage().down()
    const form = { name: "Ada" }
    const posted = await send("/account?/rename", { jar, config: "outage", form, headers: sameOrigin() })
    await expectUnavailable(posted, "page")
    // `use:enhance` posts with `x-sveltekit-action`, and reads SvelteKit's answer itself.
    const enhanced = await send("/account?/rename", { jar, config: "outage", form, headers: sameOrigin({ accept: "application/json", "x-sveltekit-action": "true" }) })
    expect(enhanced.status).toBe(503)
    expect(enhanced.headers.getSetCookie()).toEqual([])
    expect(await enhanced.json()).toEqual({ type: "error", error: { error: "StorageUnavailable", message: expect.stringContaining("Try again") as unknown } })
  })

  it("the authorize hook answers the core's 503 itself: the page, JSON to a script, JSON to SvelteKit's data request", async () => {
    const jar = await signedIn()
    storage().down()
    await expectUnavailable(await send("/admin", { jar, config: "outage", headers: page }), "page")
    await expectUnavailable(await send("/api/private", { jar, config: "outage", headers: json }), "json")
    const data = await send("/admin/__data.json", { jar, config: "outage" })
    expect(data.status).toBe(503)
    expect(await data.json()).toMatchObject({ error: "StorageUnavailable" })
  })

  it("locals.auth() rejects with the StorageUnavailable: a load catches it, or the hook answers the page the load let it fail", async () => {
    const jar = await signedIn()
    const unexpected = probe().unexpected.length
    storage().down()
    expect(await shown(await send("/whoami", { jar, config: "outage" }), "who")).toBe("unknown for 3 s (StorageUnavailable)")
    // The page's load lets it through: SvelteKit's 500 becomes the core's 503.
    await expectUnavailable(await send("/", { jar, config: "outage", headers: page }), "page")
    await expectUnavailable(await send("/", { jar, config: "outage", headers: json }), "json")
    // A hook after `handle` that reads the session and lets it through.
    await expectUnavailable(await send("/welcome", { jar, config: "outage", headers: page }), "page")
    // The app's handleError, as the README shows it, keeps the outage out of its log.
    expect(probe().unexpected.slice(unexpected)).toEqual([])
  })

  it("a page that reads no session, and a route without a layout, go on during the outage", async () => {
    const jar = await signedIn()
    storage().down()
    const about = await send("/about", { jar, config: "outage", headers: page })
    expect(about.status).toBe(200)
    expect(await shown(about, "about")).toBe("About this app")
    const status = await send("/status", { jar, config: "outage" })
    expect(status.status).toBe(200)
    expect(await status.text()).toBe("up")
    expect((await send("/auth/signin", { config: "outage", headers: page })).status).toBe(200)
  })

  it("once the storage is back, the same cookie jar is signed in again, and nothing was logged per request", async () => {
    const jar = await signedIn()
    const errors = probe().errors.length
    storage().down()
    for (const path of ["/account", "/api/me", "/admin", "/", "/whoami"]) await send(path, { jar, config: "outage", headers: page })
    storage().up()
    const back = await send("/account", { jar, config: "outage", headers: page })
    expect(back.status).toBe(200)
    expect(await shown(back, "account")).toBe("Account of Alice")
    const logged = probe().errors.slice(errors)
    // The core logged the outage once when it began and once when it ended; the integration, nothing.
    expect(logged.filter((line) => line.includes("could not read the session"))).toEqual([])
    expect(logged.filter((line) => /storage could not be reached/i.test(line))).toHaveLength(1)
    expect(probe().warnings).toContain("storage-available-again")
  })

  it("a request without a session cookie during the outage is signed out, as always: the sign-in redirect and the 401, without touching the storage", async () => {
    storage().down()
    const refused = storage().refused.size
    const out = await send("/account", { config: "outage", headers: page })
    expect(out.status).toBe(303)
    expect(out.headers.get("location")).toBe(`${origin}/auth/signin?callbackUrl=%2Faccount`)
    expect((await send("/api/me", { config: "outage", headers: json })).status).toBe(401)
    expect((await send("/admin", { config: "outage", headers: page })).status).toBe(303)
    expect(await shown(await send("/", { config: "outage" }), "user")).toBe("signed out")
    expect(storage().refused.size).toBe(refused)
  })

  it("a session cookie the storage cannot check (planted, or stale) is not cleared during the outage", async () => {
    storage().down()
    await expectUnavailable(await send("/account", { config: "outage", cookie: "sesame.session-token=planted", headers: page }), "page")
    storage().up()
    const out = await send("/account", { config: "outage", cookie: "sesame.session-token=planted", headers: page })
    expect(out.status).toBe(303)
    expect(out.headers.getSetCookie().join()).toMatch(/sesame\.session-token=;.*Max-Age=0/i)
  })

  it("JWT sessions need no storage to be read: the guarded pages and the API go on during the outage", async () => {
    const jar = await signedIn("outage-jwt")
    storage().down()
    const before = new Map(storage().refused)
    const options = { jar, config: "outage-jwt" } as const
    const account = await send("/account", { ...options, headers: page })
    expect(account.status).toBe(200)
    expect(await shown(account, "account")).toBe("Account of Alice")
    expect(await (await send("/api/me", { ...options, headers: json })).json()).toMatchObject({ email: "alice@example.com" })
    expect(await shown(await send("/admin", { ...options, headers: page }), "admin")).toBe("Admin area of Alice")
    expect(storage().refused).toEqual(before)
  })
})
