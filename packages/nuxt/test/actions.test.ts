/**
 * `signIn` and `signOut` from the app's own routes: the `303` with the cookies, refused credentials
 * for the route's message, `redirect: false` with the cookies on the event's response, the
 * sign-out's cookies as the request's last word, another site's post refused with a 4xx.
 */
import { afterEach, describe, expect, it } from "vitest"
import { defineEventHandler, readFormData } from "h3"
import { getServerSession, signIn, signOut } from "@sesame/nuxt/server"
import { appFor, config, contextOf, CookieJar, cookieNames, liveSessionCookies, serveApp, signInAlice, users, type Running } from "./helpers.js"

const running: Running[] = []
async function serve(...args: Parameters<typeof appFor>): Promise<Running> {
  const app = await serveApp(appFor(...args))
  running.push(app)
  return app
}
afterEach(async () => {
  await Promise.all(running.splice(0).map((app) => app.close()))
})

const alice = { username: "alice", password: users.alice.password }

describe("signIn", () => {
  it("a 303 to redirectTo with the session cookie, private; refused credentials are the route's 401, no session", async () => {
    const app = await serve(config())
    const jar = new CookieJar()
    const wrong = await signInAlice(app, jar, "wrong")
    expect(wrong.status).toBe(401)
    expect(liveSessionCookies(wrong)).toEqual([])
    const answer = await signInAlice(app, jar)
    expect(answer.status).toBe(303)
    expect(answer.headers.get("cache-control")).toBe("private, no-store")
    expect(liveSessionCookies(answer)).toHaveLength(1)
  })

  it("with redirect: false: the URL for the route, the cookie on the event's response; the posted FormData works as it is", async () => {
    const app = await serve(config(), (router) => {
      router.post("/quiet", defineEventHandler(async (event) => ({ next: await signIn(event, "credentials", { ...alice, redirectTo: "/welcome", redirect: false }) })))
      router.post("/form", defineEventHandler(async (event) => signIn(event, "credentials", await readFormData(event))))
    })
    const jar = new CookieJar()
    const quiet = await app.call("/quiet", { jar, form: {} })
    expect(await quiet.json()).toEqual({ next: `${app.origin}/welcome` })
    expect(liveSessionCookies(quiet)).toHaveLength(1)
    expect(quiet.headers.get("cache-control")).toBe("private, no-store")
    const form = await app.call("/form", { jar: new CookieJar(), form: { ...alice, redirectTo: "/there" } })
    expect(form.headers.get("location")).toBe(`${app.origin}/there`)
  })

  it("fails (login CSRF): another site's post is a 403 with no session cookie, never a 500; a forged host is never in the redirect", async () => {
    const app = await serve(config())
    const posts: Record<string, string>[] = [{ origin: "https://evil.example" }, { "sec-fetch-site": "cross-site" }]
    for (const headers of posts) {
      const answer = await fetch(`${app.origin}/signin`, { method: "POST", redirect: "manual", headers: { "content-type": "application/x-www-form-urlencoded", ...headers }, body: new URLSearchParams(alice) })
      expect(answer.status, JSON.stringify(headers)).toBe(403)
      expect(liveSessionCookies(answer)).toEqual([])
      expect(await answer.json()).toMatchObject({ statusCode: 403, statusMessage: "Forbidden", data: { error: expect.any(String), message: expect.stringMatching(/\S/) } })
    }
    const forged = await app.call("/signin", { form: alice, headers: { "x-forwarded-host": "evil.example" } })
    expect(forged.headers.get("location") ?? "").not.toContain("evil.example")
  })

  it("a redirectTo to another site lands on the app", async () => {
    const app = await serve(config(), (router) => {
      router.post("/away", defineEventHandler((event) => signIn(event, "credentials", { ...alice, redirectTo: "https://evil.example/phish" })))
    })
    const answer = await app.call("/away", { form: {} })
    expect(new URL(answer.headers.get("location")!).origin).toBe(app.origin)
  })
})

describe("signOut", () => {
  it("a 303 that clears the cookie, with no renewed one beside it; the session is gone", async () => {
    const app = await serve(config({ session: { updateAge: 0 } }))
    const jar = new CookieJar()
    await signInAlice(app, jar)
    const answer = await app.call("/signout", { jar, form: {} })
    expect(answer.status).toBe(303)
    expect(answer.headers.getSetCookie().filter((line) => line.startsWith("sesame.session-token="))).toHaveLength(1)
    expect(liveSessionCookies(answer)).toEqual([])
    expect(await (await app.call("/auth/session", { jar })).json()).toBeNull()
  })

  it("with redirect: false: later in the request the session is null, and only the cleared cookie goes out", async () => {
    const app = await serve(config({ session: { updateAge: 0 } }), (router) => {
      router.post(
        "/leave",
        defineEventHandler(async (event) => {
          const next = await signOut(event, { redirect: false })
          return { next, context: contextOf(event).session, read: await getServerSession(event) }
        }),
      )
    })
    const jar = new CookieJar()
    await signInAlice(app, jar)
    const answer = await app.call("/leave", { jar, form: {} })
    expect(await answer.json()).toMatchObject({ context: null, read: null })
    expect(cookieNames(answer).filter((name) => name === "sesame.session-token")).toHaveLength(1)
    expect(liveSessionCookies(answer)).toEqual([])
  })
})
