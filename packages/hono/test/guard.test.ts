/**
 * Protected routes: `requireSession(config)` (middleware) and `assertSession(c)` (called by the
 * route): the redirect to the sign-in page and back, `401` JSON for API clients, and the attacks on
 * the redirect (a forged `Host` / `X-Forwarded-Host`, `//evil.example`, another site's `Referer`).
 */
import type { AuthConfig } from "@sesame/core"
import { Hono } from "hono"
import { describe, expect, it } from "vitest"
import { requireSession, sesame, type SesameVariables } from "@sesame/hono"
import { appFor, call, config, CookieJar, signInAlice } from "./helpers.js"

const signInPage = (back: string) => `http://localhost:3000/auth/signin?callbackUrl=${encodeURIComponent(back)}`

describe("requireSession(config)", () => {
  it("sends a visitor without a session to the sign-in page with the way back, then lets them in", async () => {
    const app = appFor(config())
    const jar = new CookieJar()
    const turnedAway = await call(app, "/account/profile?tab=keys", { jar })
    expect(turnedAway.status).toBe(303)
    expect(turnedAway.headers.get("location")).toBe(signInPage("/account/profile?tab=keys"))
    expect(turnedAway.headers.get("cache-control")).toBe("private, no-store")
    // The core's page, which posts back to its callback with that address.
    const page = await call(app, turnedAway.headers.get("location")!, { jar })
    expect(await page.text()).toContain('value="http://localhost:3000/account/profile?tab=keys"')
    await signInAlice(app, jar)
    const admitted = await call(app, "/account/profile", { jar })
    expect(admitted.status).toBe(200)
    expect(await admitted.text()).toBe("profile of Alice")
  })

  it("answers 401 JSON to API clients, and the session (with a user) once signed in", async () => {
    const app = appFor(config())
    const jar = new CookieJar()
    const apiClients: Record<string, string>[] = [{ accept: "application/json" }, { "x-requested-with": "XMLHttpRequest" }]
    for (const headers of apiClients) {
      const refused = await call(app, "/api/me", { jar, headers })
      expect(refused.status).toBe(401)
      expect(await refused.json()).toEqual({ error: "Unauthorized", message: "Sign in first." })
      expect(refused.headers.get("cache-control")).toBe("private, no-store")
    }
    // A browser asking for a page is redirected, even on an API path.
    expect((await call(app, "/api/me", { headers: { accept: "text/html,application/json;q=0.9" } })).status).toBe(303)
    await signInAlice(app, jar)
    expect(await (await call(app, "/api/me", { jar, headers: { accept: "application/json" } })).json()).toMatchObject({ name: "Alice", email: "alice@example.com" })
  })

  it("answers as every integration does: a 303 for a form's post too, and the core's own 401 body", async () => {
    const app = appFor(config({ apiTokens: { audience: "https://api.example.com" } }))
    // A guarded form's post is sent on with a 303, which every client follows with a GET.
    const posted = await call(app, "/account/settings", { form: { theme: "dark" } })
    expect(posted.status).toBe(303)
    // The 401 is the one the core itself answers to a JSON client without a session.
    const json = { accept: "application/json" }
    const core = await call(app, "/auth/token", { headers: json })
    expect(core.status).toBe(401)
    const guard = await call(app, "/api/me", { headers: json })
    expect(guard.status).toBe(401)
    expect(await guard.json()).toEqual(await core.json())
  })

  it("turns away a session without a user, as the session callback may make it", async () => {
    const app = appFor(config({ callbacks: { session: ({ session }) => ({ expires: session.expires }) } }))
    const jar = new CookieJar()
    await signInAlice(app, jar)
    expect(jar.get("sesame.session-token")).toBeDefined()
    expect((await call(app, "/account/profile", { jar })).status).toBe(303)
  })

  it("clears a planted cookie on the redirect, without the session middleware too", async () => {
    const app = new Hono()
    app.use("/account/*", requireSession(config()))
    app.get("/account/profile", (c) => c.text("private"))
    const turnedAway = await call(app, "/account/profile", { headers: { cookie: "sesame.session-token=planted" } })
    expect(turnedAway.status).toBe(303)
    expect(turnedAway.headers.getSetCookie()).toEqual([expect.stringMatching(/^sesame\.session-token=;.*Max-Age=0/i)])
  })

  it("sends a form's post back to the page it was posted from, and never to another site's", async () => {
    const app = appFor(config())
    const posted = (referer: string) => call(app, "/account/settings", { form: { theme: "dark" }, headers: { referer } })
    expect((await posted("http://localhost:3000/account/profile?tab=2")).headers.get("location")).toBe(signInPage("/account/profile?tab=2"))
    expect((await posted("https://evil.example/phish")).headers.get("location")).toBe(signInPage("/"))
  })

  it("collapses //evil.example (and /\\evil.example) into a path on this site", async () => {
    const app = new Hono()
    app.use("*", requireSession(config()))
    app.get("*", (c) => c.text("private"))
    for (const path of ["//evil.example/x", "/\\evil.example/x", "///evil.example/x"]) {
      const location = (await call(app, `http://localhost:3000${path}`)).headers.get("location")!
      expect(location).toBe(signInPage("/evil.example/x"))
    }
  })

  it("never writes a forged Host or X-Forwarded-Host into the redirect without trustHost", async () => {
    const app = appFor(config())
    const forgedHost = await call(app, "http://evil.example/account/profile", { headers: { host: "evil.example" } })
    expect(forgedHost.status).toBe(303)
    expect(forgedHost.headers.get("location")).toBe(`/auth/signin?callbackUrl=${encodeURIComponent("/account/profile")}`)
    const forwarded = await call(app, "/account/profile", { headers: { host: "localhost:3000", "x-forwarded-host": "evil.example", "x-forwarded-proto": "https" } })
    expect(forwarded.headers.get("location")).toBe(signInPage("/account/profile"))
  })

  it("with trustHost (a proxy the app controls), writes the forwarded origin, as the core's endpoints do", async () => {
    const app = appFor(config({ trustHost: true }))
    const forwarded = await call(app, "/account/profile", { headers: { host: "internal:8080", "x-forwarded-host": "app.example.com", "x-forwarded-proto": "https" } })
    expect(forwarded.headers.get("location")).toBe(`https://app.example.com/auth/signin?callbackUrl=${encodeURIComponent("/account/profile")}`)
  })

  it("sends visitors to pages.signIn through the core's sign-in endpoint", async () => {
    const app = appFor(config({ pages: { signIn: "/login" } }))
    const turnedAway = await call(app, "/account/profile")
    expect(turnedAway.headers.get("location")).toBe(signInPage("/account/profile"))
    const forwarded = await call(app, turnedAway.headers.get("location")!)
    expect(forwarded.status).toBe(302)
    expect(forwarded.headers.get("location")).toBe(`http://localhost:3000/login?callbackUrl=${encodeURIComponent("http://localhost:3000/account/profile")}`)
  })

  it("never guards the auth routes, even mounted on every path", async () => {
    const auth: AuthConfig = config()
    const app = new Hono<{ Variables: SesameVariables }>()
    app.use("*", requireSession(auth))
    app.on(["GET", "POST"], "/auth/*", sesame(auth))
    expect((await call(app, "/auth/signin")).status).toBe(200)
    expect((await call(app, "/auth/csrf")).status).toBe(200)
  })
})

describe("assertSession(c)", () => {
  it("returns the session, or throws the guard's answer, which Hono's error handler sends", async () => {
    const app = appFor(config())
    const jar = new CookieJar()
    const turnedAway = await call(app, "/billing", { jar })
    expect(turnedAway.status).toBe(303)
    expect(turnedAway.headers.get("location")).toBe(signInPage("/billing"))
    expect(turnedAway.headers.get("cache-control")).toBe("private, no-store")
    const refused = await call(app, "/billing", { jar, headers: { accept: "application/json" } })
    expect(refused.status).toBe(401)
    expect(await refused.json()).toEqual({ error: "Unauthorized", message: "Sign in first." })
    await signInAlice(app, jar)
    expect(await (await call(app, "/billing", { jar })).text()).toBe("billing of alice@example.com")
  })
})
