/**
 * An attacker's review of @sesame/tanstack-start, on TanStack Start's own runtime (the test app in
 * ./app, routes under /review): the README's route guard on the document request, open redirects
 * and cross-site calls through the README's sign-in server function, caching of a response that
 * carries a session cookie, and cookies kept apart between concurrent requests.
 */
import { toJSONAsync } from "seroval"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startApp, type AppServer } from "./app-server.js"

let app: AppServer
let origin: string
let urls: { signInWith: string; requireUser: string }

beforeAll(async () => {
  app = await startApp()
  origin = app.origin
  urls = (await (await fetch(`${origin}/review/functions`)).json()) as typeof urls
}, 300_000)

afterAll(async () => {
  await app?.stop()
})

const alice = { email: "alice@example.com", password: "right password" }
const page = { accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8" }
const sessionCookie = "sesame.session-token"

/** The session cookie's lines of a response. */
const sessionLines = (response: Response) => response.headers.getSetCookie().filter((line) => line.startsWith(`${sessionCookie}=`))

/** A request to the app, without following redirects. */
function call(path: string, headers: Record<string, string> = {}, init: RequestInit = {}): Promise<Response> {
  return fetch(`${origin}${path}`, { ...init, headers, redirect: "manual" })
}

/** A POST to a server function as TanStack Start's client makes it (seroval JSON, `x-tsr-serverFn`). */
async function callServerFn(url: string, data: unknown, headers: Record<string, string> = {}): Promise<Response> {
  const body = JSON.stringify(await toJSONAsync({ data }))
  return call(url, { "x-tsr-serverFn": "true", accept: "application/json", "content-type": "application/json", ...headers }, { method: "POST", body })
}

/** Signs in through Sesame's own endpoint; the `Cookie` header of the session. */
async function signIn(user: { email: string; password: string }): Promise<string> {
  const csrf = await call("/auth/csrf")
  const { csrfToken } = (await csrf.json()) as { csrfToken: string }
  const cookies = csrf.headers.getSetCookie().map((line) => line.slice(0, line.indexOf(";")))
  const response = await call(
    "/auth/callback/credentials",
    { cookie: cookies.join("; "), origin, "content-type": "application/x-www-form-urlencoded" },
    { method: "POST", body: new URLSearchParams({ csrfToken, ...user }) },
  )
  const line = sessionLines(response)[0]
  expect(line).toBeTruthy()
  return line!.slice(0, line!.indexOf(";"))
}

describe("the README's route guard: requireSession through a server function in beforeLoad", () => {
  it("sends a signed-out document request to the sign-in page with the way back (not a 500), privately; never to a forged host", async () => {
    for (const cookie of [undefined, `${sessionCookie}=forged`]) {
      const response = await call("/review/members?tab=1", { ...page, ...(cookie ? { cookie } : {}) })
      expect(response.status, cookie).toBe(303)
      expect(new URL(response.headers.get("location")!, origin).href).toBe(`${origin}/auth/signin?callbackUrl=${encodeURIComponent("/review/members?tab=1")}`)
      expect(response.headers.get("cache-control")).toBe("private, no-store")
    }
    const forged = await call("/review/members", { ...page, host: "evil.example", "x-forwarded-host": "evil.example" })
    expect(forged.status).toBe(303)
    expect(forged.headers.get("location")).not.toContain("evil.example")
    const member = await call("/review/members", { ...page, cookie: await signIn(alice) })
    expect(member.status).toBe(200)
    expect(await member.text()).toMatch(/The members page of (<!-- -->)?alice@example.com/)
  })
})

describe("the README's sign-in server function", () => {
  it("never sends the browser to another origin, whatever redirectTo the caller chose", async () => {
    for (const redirectTo of ["https://evil.example/x", "//evil.example", "/\\evil.example", `${origin}.evil.example/`]) {
      const response = await callServerFn(urls.signInWith, { ...alice, redirectTo }, { origin })
      const { href } = (await response.json()) as { href: string }
      expect(new URL(href, origin).origin, redirectTo).toBe(origin)
    }
  })

  it("refuses another site's call (a form post, a sandboxed frame's Origin: null) and signs nobody in; a rejected password leaks no stack", async () => {
    const form = await call(urls.signInWith, { "content-type": "application/x-www-form-urlencoded", origin: "https://evil.example", "sec-fetch-site": "cross-site" }, { method: "POST", body: new URLSearchParams(alice) })
    const sandboxed = await callServerFn(urls.signInWith, alice, { origin: "null" })
    const sameSite = await callServerFn(urls.signInWith, alice, { origin: new URL(origin).origin.replace("localhost", "evil.localhost"), "sec-fetch-site": "same-site" })
    for (const response of [form, sandboxed, sameSite]) {
      expect(response.status).toBe(403)
      expect(sessionLines(response)).toEqual([])
    }
    const wrong = await callServerFn(urls.signInWith, { ...alice, password: "wrong" }, { origin })
    expect(sessionLines(wrong)).toEqual([])
    expect(await wrong.text()).not.toMatch(/\bat .+\.js:\d+/)
  })
})

describe("cookies", () => {
  it("a server route's `public` answer that carries the renewed session cookie is made private", async () => {
    const response = await call("/review/cached", { cookie: await signIn(alice) })
    expect(await response.json()).toEqual({ email: alice.email })
    expect(sessionLines(response)).toHaveLength(1)
    expect(response.headers.get("cache-control")).toBe("private, no-store")
  })

  it("concurrent requests of different visitors never get each other's cookie or user", async () => {
    const cookies = [await signIn(alice), await signIn({ email: "admin@example.com", password: "right password" }), undefined]
    const answers = await Promise.all(
      Array.from({ length: 30 }, async (_, index) => {
        const cookie = cookies[index % 3]
        const response = await call("/api/guarded", { accept: "application/json", ...(cookie ? { cookie } : {}) })
        return { cookie, lines: sessionLines(response).map((line) => line.slice(0, line.indexOf(";"))), body: await response.text() }
      }),
    )
    for (const { cookie, lines, body } of answers) {
      expect(lines).toEqual(cookie ? [cookie] : [])
      if (cookie === cookies[0]) expect(body).not.toContain("admin@")
      if (cookie === cookies[1]) expect(body).not.toContain("alice@")
    }
  })
})

describe("the README's route guard, given a way back by the browser", () => {
  /** Calls the README's `requireUser` server function (GET) as the client does, with `returnTo`. */
  async function requireUser(returnTo: string): Promise<Response> {
    const payload = JSON.stringify(await toJSONAsync({ data: returnTo }))
    return call(`${urls.requireUser}?payload=${encodeURIComponent(payload)}`, { "x-tsr-serverFn": "true", accept: "application/json" })
  }

  it("legitimate: the route's own path comes back as the sign-in page's way back", async () => {
    const body = (await (await requireUser("/review/members?tab=2")).json()) as { href: string }
    expect(new URL(body.href, origin).searchParams.get("callbackUrl")).toBe("/review/members?tab=2")
  })

  it("fails: another site, a protocol-relative or a backslashed path is no error of the app's (no 500) and never the way back", async () => {
    for (const returnTo of ["https://evil.example/x", "//evil.example/x", "/\\evil.example", "javascript:alert(1)", ""]) {
      const response = await requireUser(returnTo)
      expect(response.status, returnTo).toBeLessThan(500)
      const body = (await response.json()) as { href: string }
      expect(new URL(body.href, origin).origin, returnTo).toBe(origin)
      expect(new URL(body.href, origin).searchParams.get("callbackUrl"), returnTo).toBe("/")
    }
  })
})
