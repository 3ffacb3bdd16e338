/**
 * Attacks on an app built with @sesame/sveltekit, through SvelteKit's own server on the test app
 * (test/kit.ts; SvelteKit's own CSRF check is off there, so posts reach Sesame's): paths and
 * methods that try to get past the hook guard, session cookies planted or sent another way, a form
 * action under a guarded layout posted without a session, a sign-out undone (or a sign-in lost) by
 * the page rendered after it, and a renewed session cookie on an answer a shared cache may keep.
 * The attacks on `signIn` / `signOut` themselves (other sites' posts, `redirectTo`) are in
 * actions.test.ts.
 */
import { beforeAll, describe, expect, it } from "vitest"
import { CookieJar, sameOrigin, shown, signInAlice, startApp, type Send } from "./kit.js"

let send: Send

beforeAll(async () => {
  send = await startApp()
}, 120_000)

const alice = { username: "alice", password: "correct horse" }
const json = { accept: "application/json" }
const sessionLines = (response: Response) => response.headers.getSetCookie().filter((line) => line.startsWith("sesame.session-token="))
const cleared = (line: string) => /Max-Age=0/i.test(line)

describe("getting past authorize({ protect }) with path and method tricks fails", () => {
  const secret = /Admin area of|private data/
  it.each([
    "/ADMIN",
    "/Admin",
    "/admin/",
    "/admin;x",
    "/admin%2F",
    "/admin%00",
    "/./admin",
    "/admin/.",
    "/x/../admin",
    "/%2561dmin",
    "/%61%64%6d%69%6e",
    "/admin/__data.json",
    "/admin/__data.json?x-sveltekit-invalidated=1",
    "/api/private/",
    "/api/%70rivate",
    "/api//private",
    "/API/private",
  ])("%s shows nothing guarded without a session, whatever the method", async (path) => {
    for (const method of ["GET", "HEAD", "POST", "OPTIONS"]) {
      const response = await send(path, { method, headers: method === "POST" ? sameOrigin() : { accept: "text/html" } })
      const body = await response.text()
      expect(body, `${method} ${path}`).not.toMatch(secret)
      if (path.includes("__data.json") && response.status === 200) expect(JSON.parse(body).type, path).toBe("redirect")
    }
  })

  it("a garbled cookie before the real one, or the token as a bearer header, is no way in", async () => {
    const jar = new CookieJar()
    await signInAlice(send, jar)
    const token = jar.cookies.get("sesame.session-token")!
    for (const options of [{ cookie: `sesame.session-token=garbage; sesame.session-token=${token}` }, { headers: { authorization: `Bearer ${token}` } }]) {
      expect((await send("/admin", options)).status).toBe(303)
    }
  })
})

describe("running a form action under a guarded layout without a session fails when the action guards itself", () => {
  // SvelteKit runs a page's action before any `load`, and answers a `use:enhance` post without
  // running them: the layout's `requireSession` does not cover `/account?/rename`, its own does.
  it("a signed-out post, from a form or from use:enhance, does not run it; alice's does", async () => {
    const page = await send("/account?/rename", { headers: sameOrigin(), form: { name: "mallory" } })
    expect(page.status).toBe(303)
    expect(page.headers.get("location")).toMatch(/\/auth\/signin\?callbackUrl=%2Faccount%3F%2Frename$/)
    expect(await page.text()).not.toContain("is now")

    const enhanced = await send("/account?/rename", { headers: sameOrigin({ accept: "application/json", "x-sveltekit-action": "true" }), form: { name: "mallory" } })
    expect(enhanced.status).toBe(401)
    expect(await enhanced.text()).not.toContain("is now")

    const jar = new CookieJar()
    await signInAlice(send, jar)
    const renamed = await send("/account?/rename", { jar, headers: sameOrigin({ accept: "application/json", "x-sveltekit-action": "true" }), form: { name: "Ally" } })
    expect(await renamed.text()).toContain("Alice is now Ally")
  })
})

describe("undoing a sign-out (or losing a sign-in) through the page rendered after it fails", () => {
  // With `redirect: false` SvelteKit renders the page after the action, and its layout calls
  // `locals.auth()`: a read of the request's own cookies would re-issue the session just cleared.
  it("after signOut(event, { redirect: false }) the page is signed out and the cookie stays cleared", async () => {
    const jar = new CookieJar()
    await signInAlice(send, jar)
    const out = await send("/login?/quietSignOut", { jar, headers: sameOrigin(), form: {} })
    expect(out.status).toBe(200)
    expect(sessionLines(out).map((line) => (cleared(line) ? "cleared" : "re-issued"))).toEqual(["cleared"])
    expect(await shown(out, "user")).toBe("signed out")
    expect((await send("/api/me", { jar, headers: json })).status).toBe(401)
  })

  it("after signIn(…, { redirect: false }) over a garbled cookie the page has the new session, whose cookie is kept", async () => {
    // The action reads the session before signing in (test/app/src/routes/login): a read of the
    // request's own (garbled) cookie again would clear the cookie the sign-in just set.
    const jar = new CookieJar()
    const page = await send("/login?/quiet", { jar, cookie: "sesame.session-token=garbage", headers: sameOrigin(), form: alice })
    expect(page.status).toBe(200)
    expect(await shown(page, "user")).toBe("Alice")
    const lines = sessionLines(page)
    expect(lines.length).toBeGreaterThan(0)
    expect(lines.every((line) => !cleared(line))).toBe(true)
    expect(await (await send("/api/me", { jar, headers: json })).json()).toMatchObject({ name: "Alice" })
  })
})

describe("getting a renewed session cookie kept by a shared cache fails", () => {
  it("a page the app marks public answers private, no-store when it renews the session; signed out it stays public", async () => {
    const jar = new CookieJar()
    await signInAlice(send, jar)
    const renewed = await send("/cached", { jar })
    expect(await shown(renewed, "user")).toBe("Alice")
    expect(sessionLines(renewed)).toHaveLength(1)
    expect(renewed.headers.get("cache-control")).toBe("private, no-store")

    // No cookie set: the app's own caching stands.
    const anonymous = await send("/cached")
    expect(sessionLines(anonymous)).toHaveLength(0)
    expect(anonymous.headers.get("cache-control")).toBe("public, max-age=86400")
  })

  it("a later hook's own answer, whose headers cannot change, is passed on as it is (not a 500)", async () => {
    const jar = new CookieJar()
    await signInAlice(send, jar)
    const response = await send("/welcome", { jar })
    expect(response.status).toBe(303)
    expect(new URL(response.headers.get("location")!).pathname).toBe("/")
  })
})
