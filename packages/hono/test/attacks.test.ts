/**
 * Attacks on an app of the README's shape, through `app.fetch` (the entry point every runtime
 * calls), each beside the legitimate flow that still works: a shared cache keeping a visitor's
 * renewed session cookie, a session read that undoes a sign-out later in the same request, ways
 * around the guard (encoded paths, dot segments, `HEAD`, a bearer header, a doubled cookie), and a
 * login CSRF in the bodies another site can post without a preflight. A forged `Host` on
 * `@hono/node-server` is in node-server.test.ts, the `Origin` / `Sec-Fetch-Site` variants of a
 * login CSRF in actions.test.ts.
 */
import type { AuthConfig } from "@sesame/core"
import { validator } from "hono/validator"
import { describe, expect, it } from "vitest"
import { getSession, signIn, signOut } from "@sesame/hono"
import { appFor, call, config, CookieJar, cookieNames, origin, signInAlice, users } from "./helpers.js"

const publicCache = "public, max-age=86400"
const sameOrigin = { origin, "sec-fetch-site": "same-origin" }
const alice = { username: "alice", password: users.alice.password }

/** A configuration whose JWT is re-issued on every read, so that every read sets the cookie again. */
const renewing = () => config({ session: { updateAge: 0 } })

/** The README's app, with the routes each attack needs. */
function app(auth: AuthConfig) {
  const app = appFor(auth)
  // The README's account page: the path the guard's "/account/*" is mounted on, itself.
  app.get("/account", (c) => c.text(`profile of ${c.get("session")?.user?.name}`))
  // A public asset (a logo): the same body for everyone, which the app lets caches keep a day.
  app.get("/logo.svg", (c) => c.body("<svg/>", 200, { "content-type": "image/svg+xml", "cache-control": publicCache }))
  // A route that reads the session itself, and says public all the same.
  app.get("/greeting", async (c) => c.text(`Hello ${(await getSession(c))?.user?.name ?? "stranger"}`, 200, { "cache-control": publicCache }))
  // Signs out, then renders the page's header from the session, as a page after a form does.
  app.post("/logout-and-show", async (c) => {
    await signOut(c, { redirect: false })
    return c.json({ header: (await getSession(c))?.user?.name ?? null })
  })
  // Signs out and answers a plain Response (a 204 for the app's script), which drops c.header's lines.
  app.post("/logout-204", async (c) => {
    await signOut(c, { redirect: false })
    return new Response(null, { status: 204 })
  })
  // Signs in, then renders the page's header from the session.
  app.post("/login-and-show", validator("form", (form) => form), async (c) => {
    await signIn(c, "credentials", { ...c.req.valid("form"), redirect: false })
    return c.json({ header: (await getSession(c))?.user?.name ?? null })
  })
  return app
}

/** The session cookie lines of `response` that set a value (not those that clear it). */
const liveSessionCookies = (response: Response) => response.headers.getSetCookie().filter((line) => line.startsWith("sesame.session-token=") && !/Max-Age=0/i.test(line))

describe("a shared cache keeping a visitor's renewed session cookie", () => {
  it("fails: a public asset that renews the session cookie is made private, no-store; without a cookie it stays public", async () => {
    const hono = app(renewing())
    expect((await call(hono, "/logo.svg")).headers.get("cache-control")).toBe(publicCache)
    const jar = new CookieJar()
    await signInAlice(hono, jar)
    const logo = await call(hono, "/logo.svg", { jar })
    expect(liveSessionCookies(logo)).toHaveLength(1)
    expect(logo.headers.get("cache-control")).toBe("private, no-store")
  })

  it("fails: a route that reads the session and says public is made private, no-store with the renewed cookie", async () => {
    const hono = app(renewing())
    const jar = new CookieJar()
    await signInAlice(hono, jar)
    const page = await call(hono, "/greeting", { jar })
    expect(await page.text()).toBe("Hello Alice")
    expect(cookieNames(page)).toEqual(["sesame.session-token"])
    expect(page.headers.get("cache-control")).toBe("private, no-store")
  })

  it("fails: a planted cookie's clearing on a public asset is private, no-store too", async () => {
    const logo = await call(app(config()), "/logo.svg", { cookie: "sesame.session-token=planted" })
    expect(logo.headers.getSetCookie()).toEqual([expect.stringMatching(/^sesame\.session-token=;.*Max-Age=0/i)])
    expect(logo.headers.get("cache-control")).toBe("private, no-store")
  })
})

describe("a session read undoing a sign-out later in the same request", () => {
  it("fails: after signOut, getSession is null and the response clears the cookie, whatever the read renewed", async () => {
    const hono = app(renewing())
    const jar = new CookieJar()
    await signInAlice(hono, jar)
    const answer = await call(hono, "/logout-and-show", { method: "POST", jar, headers: sameOrigin })
    expect(await answer.json()).toEqual({ header: null })
    expect(answer.headers.getSetCookie().filter((line) => line.startsWith("sesame.session-token="))).toEqual([expect.stringMatching(/Max-Age=0/i)])
    expect(await (await call(hono, "/", { jar })).json()).toEqual({ user: null })
  })

  it("fails: after signOut, a plain Response still clears the cookie, and carries no renewed one", async () => {
    const hono = app(renewing())
    const jar = new CookieJar()
    await signInAlice(hono, jar)
    const answer = await call(hono, "/logout-204", { method: "POST", jar, headers: sameOrigin })
    expect(answer.status).toBe(204)
    expect(liveSessionCookies(answer)).toEqual([])
    expect(jar.get("sesame.session-token")).toBeUndefined()
    expect(await (await call(hono, "/", { jar })).json()).toEqual({ user: null })
  })

  it("fails to undo a sign-in: over a planted cookie, signIn then getSession leaves the new session standing", async () => {
    const hono = app(config())
    const jar = new CookieJar()
    jar.cookies.set("sesame.session-token", "planted")
    const answer = await call(hono, "/login-and-show", { jar, form: alice })
    // The read is of the request as it came (the new session is the next request's)...
    expect(await answer.json()).toEqual({ header: null })
    // ...and its clearing of the planted cookie is not written after the new session cookie.
    expect(answer.headers.getSetCookie().filter((line) => line.startsWith("sesame.session-token="))).toHaveLength(1)
    expect(((await (await call(hono, "/", { jar })).json()) as { user: { name: string } | null }).user?.name).toBe("Alice")
  })
})

describe("getting past the guard without a session", () => {
  it.each(["/account", "/account/", "/account/profile", "/account//profile", "/%61ccount/profile", "/account/%70rofile", "/auth/../account/profile", "/auth/%2e%2e/account/profile"])(
    "fails: %s by GET or HEAD shows nothing private",
    async (path) => {
      const hono = app(config())
      for (const method of ["GET", "HEAD"]) {
        const response = await call(hono, path, { method })
        expect(response.status).not.toBe(200)
        expect(await response.text()).not.toContain("profile of")
      }
    },
  )

  it("fails: a bearer header or a doubled session cookie is no way in, while the cookie alone is", async () => {
    const hono = app(config())
    const jar = new CookieJar()
    await signInAlice(hono, jar)
    const token = jar.get("sesame.session-token")!
    expect((await call(hono, "/account/profile", { headers: { authorization: `Bearer ${token}` } })).status).toBe(303)
    expect((await call(hono, "/account/profile", { cookie: `sesame.session-token=garbage; sesame.session-token=${token}` })).status).toBe(303)
    expect(await (await call(hono, "/account/profile", { cookie: `sesame.session-token=${token}` })).text()).toBe("profile of Alice")
  })
})

describe("a login CSRF in a body another site posts without a preflight", () => {
  it("fails: a text/plain or multipart post of the credentials from another site is refused 403, with no session cookie", async () => {
    const multipart = new FormData()
    for (const [name, value] of Object.entries(alice)) multipart.set(name, value)
    const bodies: [BodyInit, Record<string, string>][] = [
      [new URLSearchParams(alice).toString(), { "content-type": "text/plain" }],
      [multipart, {}],
    ]
    for (const [body, headers] of bodies) {
      const response = await app(config()).fetch(new Request(`${origin}/login`, { method: "POST", headers: { origin: "https://evil.example", ...headers }, body }))
      expect(response.status).toBe(403)
      expect(cookieNames(response)).not.toContain("sesame.session-token")
    }
  })
})
