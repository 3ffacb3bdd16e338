/**
 * The `handle` hook and `event.locals.auth()`, through SvelteKit's own server (test/kit.ts): the
 * endpoints under the base path, the session in `load`, one read per request, the cookies that
 * keep a session alive, and failing closed.
 */
import { beforeAll, describe, expect, it } from "vitest"
import { probe } from "./app/src/lib/probe.js"
import { CookieJar, origin, sameOrigin, shown, signInAlice, startApp, type Send } from "./kit.js"

let send: Send

beforeAll(async () => {
  send = await startApp()
}, 120_000)

describe("the endpoints under the base path", () => {
  it("are the core's, for GET and POST; the built-in sign-in page's post signs in", async () => {
    const providers = (await (await send("/auth/providers")).json()) as Record<string, { signinUrl: string; callbackUrl: string }>
    expect(Object.keys(providers)).toEqual(["credentials", "github"])
    expect(providers.github?.callbackUrl).toBe(`${origin}/auth/callback/github`)
    const page = await send("/auth/signin")
    expect(page.status).toBe(200)
    expect(await page.text()).toContain(`action="${origin}/auth/callback/credentials"`)

    const jar = new CookieJar()
    const signedIn = await signInAlice(send, jar)
    expect(signedIn.status).toBe(302)
    expect(jar.cookies.has("sesame.session-token")).toBe(true)
    const session = (await (await send("/auth/session", { jar })).json()) as { user: { name: string } }
    expect(session.user.name).toBe("Alice")
  })

  it("follow a configured base path, and leave every other path to SvelteKit", async () => {
    expect((await send("/custom-auth/providers", { config: "custom" })).status).toBe(200)
    // Under the custom base path, /auth is an ordinary path of the app, which its hook guards.
    const ordinary = await send("/auth/providers", { config: "custom" })
    expect(ordinary.headers.get("location")).toBe(`${origin}/custom-auth/signin?callbackUrl=%2Fauth%2Fproviders`)
    // A path that merely starts like the base path is not under it.
    expect((await send("/custom-authx/providers", { config: "custom" })).status).toBe(404)
    expect(await shown(await send("/"), "user")).toBe("signed out")
  })

  it("refuse a post without the CSRF token, as the core does", async () => {
    const response = await send("/auth/callback/credentials", { headers: sameOrigin(), form: { username: "alice", password: "correct horse" } })
    expect(response.headers.getSetCookie().some((line) => line.startsWith("sesame.session-token="))).toBe(false)
  })
})

describe("event.locals.auth()", () => {
  it("gives the session to every load of the request, read once", async () => {
    const jar = new CookieJar()
    await signInAlice(send, jar)
    const before = probe().sessionReads
    // The layout's load and the page's (twice) call it.
    const page = await send("/", { jar })
    expect(probe().sessionReads - before).toBe(1)
    expect(await shown(page, "user")).toBe("Alice")
  })

  it("keeps a JWT session alive: the re-issued cookie is set on the page's response", async () => {
    const jar = new CookieJar()
    await signInAlice(send, jar)
    const issued = jar.cookies.get("sesame.session-token")
    const page = await send("/", { jar })
    const lines = page.headers.getSetCookie().filter((line) => line.startsWith("sesame.session-token="))
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatch(/; HttpOnly/i)
    expect(jar.cookies.get("sesame.session-token")).not.toBe(issued)
    expect(await shown(await send("/", { jar }), "user")).toBe("Alice")
  })

  it("keeps a database session alive: its cookie is set again with the new expiry", async () => {
    const jar = new CookieJar()
    await signInAlice(send, jar, "database")
    const page = await send("/", { jar, config: "database" })
    expect(await shown(page, "user")).toBe("Alice")
    expect(page.headers.getSetCookie().filter((line) => line.startsWith("sesame.session-token="))).toHaveLength(1)
  })

  it("treats a planted or garbled session cookie as signed out, and clears it", async () => {
    const page = await send("/", { cookie: "sesame.session-token=not-a-real-token" })
    expect(page.status).toBe(200)
    expect(await shown(page, "user")).toBe("signed out")
    const cleared = page.headers.getSetCookie().find((line) => line.startsWith("sesame.session-token="))
    expect(cleared).toMatch(/Max-Age=0/i)
  })
})

describe("failing closed", () => {
  it("an adapter that throws: the page answers signed out, and the core logs the cause", async () => {
    const errors = probe().errors.length
    const page = await send("/", { config: "broken", cookie: "sesame.session-token=a-stored-session" })
    expect(page.status).toBe(200)
    expect(await shown(page, "user")).toBe("signed out")
    expect(probe().errors.slice(errors).join("\n")).toContain("Reading the database session failed")
    // A guarded page does not show its content.
    const account = await send("/account", { config: "broken", cookie: "sesame.session-token=a-stored-session" })
    expect(account.status).toBe(303)
  })

  it("a read the core refuses (a forged Host without trustHost): signed out, logged by the integration", async () => {
    const jar = new CookieJar()
    await signInAlice(send, jar)
    const errors = probe().errors.length
    const page = await send("/", { jar, headers: { host: "evil.example" } })
    expect(page.status).toBe(200)
    expect(await shown(page, "user")).toBe("signed out")
    const logged = probe().errors.slice(errors).join("\n")
    expect(logged).toContain("locals.auth() could not read the session and answers null (signed out): UntrustedHost")
    // The same cookie on the app's own host is still a session.
    expect(await shown(await send("/", { jar }), "user")).toBe("Alice")
  })

  it("a configuration function that throws: signed out, guards refuse without a stack", async () => {
    const page = await send("/", { config: "throws" })
    expect(page.status).toBe(200)
    expect(await shown(page, "user")).toBe("signed out")
    const account = await send("/account", { config: "throws" })
    expect(account.status).toBe(500)
    const body = await account.text()
    expect(body).toContain("Sign-in is not available.")
    expect(body).not.toContain("configuration store is down")
    expect(body).not.toMatch(/at .*\.js:\d+/)
  })
})
