/**
 * requireSession in a real Fastify app, over a listening server and through `inject`, on a route
 * (`preHandler`) and on every route of a plugin: signed-in requests go on with request.session;
 * pages are sent to the sign-in page with the way back; JSON clients get a 401; and the return
 * address and the origin in the redirect cannot be steered by the request (`//evil.example`, an
 * absolute-form target, a forged Host). With `{ allow }`: a permission asked of a plugin's server
 * function lets the signed-in request on or answers 403 (JSON or a plain page), a visitor is still
 * sent to sign in, an outage in the check is the core's 503 and any other error goes to Fastify's
 * error handler.
 */
import { connect } from "node:net"
import formbody from "@fastify/formbody"
import type { FastifyRequest } from "fastify"
import { describe, expect, it, vi } from "vitest"
import type { AuthConfig, ModuleRequest, SesameModule } from "@sesame/core"
import { StorageUnavailable } from "@sesame/core/errors"
import { checkUnavailable } from "@sesame/testing"
import { api, requireSession, type AuthenticatedSession, type ServerFunctionsOf } from "@sesame/fastify"
import { alice, appWith, config, cookieLine, CookieJar, listen, rawSend, send, signInAlice, transports } from "./helpers.js"

/** The endpoints, a guarded page and API route, a plugin whose every route is guarded, and an open page. */
async function guardedApp(options: AuthConfig) {
  const app = await appWith(options)
  await app.register(formbody)
  app.get("/account", { preHandler: requireSession(options) }, async (request) => `account of ${request.session?.user?.email}`)
  app.post("/account", { preHandler: requireSession(options) }, async () => "saved")
  app.get("/api/me", { preHandler: requireSession(options) }, async (request) => request.session?.user)
  await app.register(async (members) => {
    members.addHook("preHandler", requireSession(options))
    members.get("/members/*", async (request) => `members' file ${(request.params as { "*": string })["*"]}`)
  })
  app.get("/", async () => "open")
  return app
}

describe.each(transports)("requireSession, reached by $label", ({ serve }) => {
  it("sends a page request without a session to the sign-in page, with the path asked for as callbackUrl", async () => {
    const served = await serve(await guardedApp(config()))
    const response = await send(served, "/account?tab=1")
    expect(response.status).toBe(303)
    expect(response.headers.get("location")).toBe(`${served.origin}/auth/signin?callbackUrl=${encodeURIComponent("/account?tab=1")}`)
    expect(response.headers.get("cache-control")).toBe("private, no-store")
  })

  it("lets a signed-in request through with its session in request.session", async () => {
    const served = await serve(await guardedApp(config()))
    const jar = new CookieJar()
    await signInAlice(served, jar)
    const page = await send(served, "/account", { jar })
    expect(page.status).toBe(200)
    expect(await page.text()).toBe(`account of ${alice.email}`)
    expect(await (await send(served, "/api/me", { jar, headers: { accept: "application/json" } })).json()).toMatchObject({ email: alice.email })
  })

  it("answers a JSON client 401 {error: Unauthorized, message} instead of redirecting", async () => {
    const served = await serve(await guardedApp(config()))
    for (const headers of [{ accept: "application/json" }, { "x-requested-with": "XMLHttpRequest" }] as Record<string, string>[]) {
      const response = await send(served, "/api/me", { headers })
      expect(response.status).toBe(401)
      expect(response.headers.get("content-type")).toMatch(/^application\/json/)
      expect(await response.json()).toEqual({ error: "Unauthorized", message: "Sign in first." })
    }
    // A browser's navigation asks for HTML: a redirect.
    expect((await send(served, "/api/me", { headers: { accept: "text/html,application/json;q=0.9" } })).status).toBe(303)
  })

  it("answers as every integration does: the core's own 401 body, and a 303 for a form's post too", async () => {
    const served = await serve(await guardedApp(config({ apiTokens: { audience: "https://api.example.com" } })))
    const json = { accept: "application/json" }
    const core = await send(served, "/auth/token", { headers: json })
    expect(core.status).toBe(401)
    const guard = await send(served, "/api/me", { headers: json })
    expect(await guard.json()).toEqual(await core.json())
    const posted = await send(served, "/account", { method: "POST", form: { theme: "dark" } })
    expect(posted.status).toBe(303)
  })

  it("guards every route of a plugin it is a hook of, and no other", async () => {
    const served = await serve(await guardedApp(config()))
    const turnedAway = await send(served, "/members/report.pdf")
    expect(turnedAway.status).toBe(303)
    expect(new URL(turnedAway.headers.get("location")!).searchParams.get("callbackUrl")).toBe("/members/report.pdf")
    expect(await (await send(served, "/")).text()).toBe("open")
    const jar = new CookieJar()
    await signInAlice(served, jar)
    expect(await (await send(served, "/members/report.pdf", { jar })).text()).toBe("members' file report.pdf")
  })

  it("turns away a session without a user", async () => {
    const options = config({ callbacks: { session: ({ session }) => ({ expires: session.expires }) } })
    const served = await serve(await guardedApp(options))
    const jar = new CookieJar()
    await signInAlice(served, jar)
    expect((await send(served, "/account", { jar })).status).toBe(303)
  })

  it("turns away a planted cookie, and clears it on the redirect", async () => {
    const served = await serve(await guardedApp(config()))
    const response = await send(served, "/account", { headers: { cookie: "sesame.session-token=planted" } })
    expect(response.status).toBe(303)
    expect(cookieLine(response.headers.getSetCookie())).toMatch(/Max-Age=0/i)
  })

  it("turns away a request whose session cannot be read, never lets it through", async () => {
    const served = await serve(await guardedApp(config({ session: { maxAge: -1 }, logger: { error: () => {} } })))
    expect((await send(served, "/account", { headers: { cookie: "sesame.session-token=anything" } })).status).toBe(303)
  })

  it("sends the visitor on to pages.signIn through the core, the way back kept", async () => {
    const served = await serve(await guardedApp(config({ pages: { signIn: "/login" } })))
    const first = new URL((await send(served, "/account")).headers.get("location")!)
    const second = await send(served, first.pathname + first.search)
    expect(second.headers.get("location")).toBe(`${served.origin}/login?callbackUrl=${encodeURIComponent(`${served.origin}/account`)}`)
  })

  it("refuses an allow that is not a function when the guard is made", () => {
    expect(() => requireSession(config(), { allow: "admin" as never })).toThrow(TypeError)
  })
})

describe("attacks on the guard's redirect, over a listening server", () => {
  /** The guard as an onRequest hook of the whole app: it answers every path, routed or not. */
  async function everywhere(options: AuthConfig) {
    const app = await appWith(options)
    app.addHook("onRequest", requireSession(options))
    return listen(app)
  }

  it("a return address of //evil.example stays a path on this site", async () => {
    const served = await everywhere(config())
    for (const target of ["//evil.example", "/\\evil.example", "//evil.example/account?x=1"]) {
      const response = await rawSend(served, target, {})
      const location = new URL(response.headers.location!)
      expect(location.origin).toBe(served.origin)
      expect(location.searchParams.get("callbackUrl")).toMatch(/^\/evil\.example/)
    }
  })

  it.each(["/%2F%2Fevil.example", "/%5C%5Cevil.example", "/.//evil.example", "/%09/evil.example", "/https:evil.example", "http://evil.example//evil.example"])(
    "an encoded or odd return address (%s) is a path on this site, also once the core reads it",
    async (target) => {
      const served = await everywhere(config())
      const response = await rawSend(served, target, {})
      expect(response.status).toBe(303)
      const location = new URL(response.headers.location!)
      expect(location.origin).toBe(served.origin)
      const back = location.searchParams.get("callbackUrl")!
      expect(back).toMatch(/^\/(?![/\\])/)
      expect(new URL(back, served.origin).origin).toBe(served.origin)
    },
  )

  it("an absolute-form request target does not name the host or the way back", async () => {
    const served = await everywhere(config())
    const response = await rawSend(served, "http://evil.example/account", {})
    expect(response.status).toBe(303)
    const location = new URL(response.headers.location!)
    expect(location.origin).toBe(served.origin)
    expect(location.searchParams.get("callbackUrl")).toBe("/account")
  })

  it("a request without a Host (HTTP/1.0) gets a path, never a host made up for it", async () => {
    const served = await everywhere(config({ logger: { error: () => {} } }))
    const head = await new Promise<string>((resolve, reject) => {
      let text = ""
      const socket = connect(served.port, "127.0.0.1", () => socket.end("GET /account HTTP/1.0\r\n\r\n"))
      socket.setEncoding("utf8").on("data", (chunk: string) => (text += chunk)).on("end", () => resolve(text)).on("error", reject)
    })
    expect(head).toMatch(/^HTTP\/1\.[01] 303 /)
    expect(head).toMatch(/^location: \/auth\/signin\?callbackUrl=%2Faccount\r$/im)
  })

  it("a forged Host is never written into the redirect (no trustHost): the redirect is a path", async () => {
    const served = await listen(await guardedApp(config({ logger: { error: () => {} } })))
    for (const host of ["evil.example", "127.0.0.1.evil.example", "localhost.evil.example"]) {
      const response = await rawSend(served, "/account", { host })
      expect(response.status).toBe(303)
      expect(response.headers.location).toBe(`/auth/signin?callbackUrl=${encodeURIComponent("/account")}`)
    }
  })
})

/** A plugin with one server function: whether the request's user holds a permission (Alice holds `project:read` only). */
const permissions = {
  id: "permissions",
  api: {
    async hasPermission(request: ModuleRequest, permission: string) {
      const user = await request.user()
      return user?.email === alice.email && permission === "project:read"
    },
  },
} as const satisfies SesameModule

type Allow = (session: AuthenticatedSession, request: FastifyRequest) => Promise<boolean>

/** Routes behind `requireSession(options, { allow })`: the checks, and what ran. */
async function permissionApp() {
  const options = config({ plugins: [permissions] })
  const can = (permission: string) => vi.fn<Allow>(async (_session, request) => (await (api(request, options) as ServerFunctionsOf<typeof permissions>).hasPermission(permission)) === true)
  const read = can("project:read")
  const create = can("project:create")
  const ran: string[] = []
  const app = await appWith(options)
  app.get("/projects", { preHandler: requireSession(options, { allow: read }) }, async (request) => `projects of ${request.session?.user?.email}`)
  app.get("/projects/new", { preHandler: requireSession(options, { allow: create }) }, async () => (ran.push("/projects/new"), "new project"))
  app.get("/outage", { preHandler: requireSession(options, { allow: () => Promise.reject(new StorageUnavailable()) }) }, async () => (ran.push("/outage"), "in"))
  app.get("/broken", { preHandler: requireSession(options, { allow: () => { throw new Error("the permission store broke") } }) }, async () => (ran.push("/broken"), "in"))
  app.setErrorHandler(async (error, _request, reply) => reply.code(500).send(`error handler: ${(error as Error).message}`))
  return { app, read, create, ran }
}

describe.each(transports)("requireSession(config, { allow }), reached by $label", ({ serve }) => {
  const json = { accept: "application/json" }

  it("lets a signed-in request on when allow resolves true, with the session and request it was given", async () => {
    const { app, read } = await permissionApp()
    const served = await serve(app)
    const jar = new CookieJar()
    await signInAlice(served, jar)
    const page = await send(served, "/projects", { jar })
    expect(page.status).toBe(200)
    expect(await page.text()).toBe(`projects of ${alice.email}`)
    expect((await send(served, "/projects", { jar, headers: json })).status).toBe(200)
    expect(read.mock.calls[0]![0].user.email).toBe(alice.email)
    expect(read.mock.calls[0]![1].url).toBe("/projects")
  })

  it("answers 403 when allow resolves false: JSON to a client that wants JSON, a plain page to a browser; the route does not run", async () => {
    const { app, ran } = await permissionApp()
    const served = await serve(app)
    const jar = new CookieJar()
    await signInAlice(served, jar)
    for (const headers of [json, { "x-requested-with": "XMLHttpRequest" }] as Record<string, string>[]) {
      const refused = await send(served, "/projects/new", { jar, headers })
      expect(refused.status).toBe(403)
      expect(refused.headers.get("content-type")).toMatch(/^application\/json/)
      expect(refused.headers.get("cache-control")).toBe("private, no-store")
      expect(await refused.json()).toEqual({ error: "Forbidden", message: "Access denied." })
    }
    const page = await send(served, "/projects/new", { jar, headers: { accept: "text/html,application/json;q=0.9" } })
    expect(page.status).toBe(403)
    expect(page.headers.get("content-type")).toMatch(/^text\/plain/)
    expect(page.headers.get("location")).toBeNull()
    expect(await page.text()).toBe("Access denied.")
    expect(ran).toEqual([])
  })

  it("sends a visitor without a session to sign in (or 401) as before, without asking allow", async () => {
    const { app, create } = await permissionApp()
    const served = await serve(app)
    const page = await send(served, "/projects/new")
    expect(page.status).toBe(303)
    expect(page.headers.get("location")).toBe(`${served.origin}/auth/signin?callbackUrl=${encodeURIComponent("/projects/new")}`)
    expect((await send(served, "/projects/new", { headers: json })).status).toBe(401)
    expect(create).not.toHaveBeenCalled()
  })

  it("answers the core's 503 when allow meets a storage outage, and hands any other error to Fastify's error handler", async () => {
    const { app, ran } = await permissionApp()
    const served = await serve(app)
    const jar = new CookieJar()
    await signInAlice(served, jar)
    expect((await checkUnavailable(await send(served, "/outage", { jar, headers: { accept: "text/html" } }), "page")).problems).toEqual([])
    expect((await checkUnavailable(await send(served, "/outage", { jar, headers: json }), "json")).problems).toEqual([])
    const broken = await send(served, "/broken", { jar })
    expect(broken.status).toBe(500)
    expect(await broken.text()).toBe("error handler: the permission store broke")
    expect(ran).toEqual([])
  })
})
