/**
 * requireSession in a real Express app (5 and 4), on a route and in front of a group: signed-in
 * requests go on with res.locals.session; pages are sent to the sign-in page with the way back;
 * JSON clients get a 401; and the return address and the origin in the redirect cannot be
 * steered by the request (`//evil.example`, an absolute-form target, a forged Host). With
 * `{ allow }`: a permission asked of a plugin's server function lets the signed-in request on or
 * answers 403 (JSON or a plain page), a visitor is still sent to sign in, an outage in the check
 * is the core's 503 and any other error goes to Express's error handlers; and the same with the
 * real `@sesame/organizations`.
 */
import { connect } from "node:net"
import { describe, expect, it, vi } from "vitest"
import type { AuthConfig, ModuleRequest, SesameModule, Session } from "@sesame/core"
import { MemoryAdapter } from "@sesame/core/adapters"
import { StorageUnavailable } from "@sesame/core/errors"
import Credentials from "@sesame/core/providers/credentials"
import { organizations } from "@sesame/organizations"
import { checkUnavailable } from "@sesame/testing"
import { api, requireSession, SesameAuth, type AuthenticatedSession, type ErrorMiddleware, type ExpressRequest, type ServerFunctionsOf } from "@sesame/express"
import { alice, config, cookieLine, CookieJar, csrfOf, rawSend, send, serve, signInAlice, versions, type ExpressModule } from "./helpers.js"

/** The endpoints, a guarded page and API route, a guarded group with a static-like handler, and an open page. */
function guardedApp(express: ExpressModule, options: AuthConfig) {
  const app = express()
  app.use("/auth", SesameAuth(options))
  app.get("/account", requireSession(options), (_req, res) => {
    res.send(`account of ${(res.locals.session as Session).user?.email}`)
  })
  app.get("/api/me", requireSession(options), (_req, res) => {
    res.json((res.locals.session as Session).user)
  })
  app.use("/members", requireSession(options))
  app.use("/members", (req, res) => {
    res.send(`members' file ${req.path}`)
  })
  app.get("/", (_req, res) => {
    res.send("open")
  })
  return app
}

describe.each(versions)("requireSession on $label", ({ express }) => {
  it("sends a page request without a session to the sign-in page, with the path asked for as callbackUrl", async () => {
    const served = await serve(guardedApp(express, config()))
    const response = await send(served, "/account?tab=1")
    expect(response.status).toBe(303)
    expect(response.headers.get("location")).toBe(`${served.origin}/auth/signin?callbackUrl=${encodeURIComponent("/account?tab=1")}`)
    expect(response.headers.get("cache-control")).toBe("private, no-store")
  })

  it("lets a signed-in request through with its session in res.locals", async () => {
    const served = await serve(guardedApp(express, config()))
    const jar = new CookieJar()
    await signInAlice(served, jar)
    const page = await send(served, "/account", { jar })
    expect(page.status).toBe(200)
    expect(await page.text()).toBe(`account of ${alice.email}`)
    expect(await (await send(served, "/api/me", { jar, headers: { accept: "application/json" } })).json()).toMatchObject({ email: alice.email })
  })

  it("answers a JSON client 401 {error: Unauthorized, message} instead of redirecting", async () => {
    const served = await serve(guardedApp(express, config()))
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
    const options = config({ apiTokens: { audience: "https://api.example.com" } })
    const app = guardedApp(express, options)
    app.post("/account", requireSession(options), (_req, res) => {
      res.send("saved")
    })
    const served = await serve(app)
    const json = { accept: "application/json" }
    const core = await send(served, "/auth/token", { headers: json })
    expect(core.status).toBe(401)
    const guard = await send(served, "/api/me", { headers: json })
    expect(await guard.json()).toEqual(await core.json())
    // A guarded form's post: a 303, which every client follows with a GET.
    const posted = await send(served, "/account", { method: "POST", form: { theme: "dark" } })
    expect(posted.status).toBe(303)
  })

  it("guards a whole group as an interceptor, whatever answers below it", async () => {
    const served = await serve(guardedApp(express, config()))
    const turnedAway = await send(served, "/members/report.pdf")
    expect(turnedAway.status).toBe(303)
    // The way back is the whole path, not the one Express strips below the mount.
    expect(new URL(turnedAway.headers.get("location")!).searchParams.get("callbackUrl")).toBe("/members/report.pdf")
    expect(await (await send(served, "/")).text()).toBe("open")
    const jar = new CookieJar()
    await signInAlice(served, jar)
    expect(await (await send(served, "/members/report.pdf", { jar })).text()).toBe("members' file /report.pdf")
  })

  it("turns away a session without a user", async () => {
    const options = config({ callbacks: { session: ({ session }) => ({ expires: session.expires }) } })
    const served = await serve(guardedApp(express, options))
    const jar = new CookieJar()
    await signInAlice(served, jar)
    expect((await send(served, "/account", { jar })).status).toBe(303)
  })

  it("turns away a planted cookie, and clears it on the redirect", async () => {
    const served = await serve(guardedApp(express, config()))
    const response = await send(served, "/account", { headers: { cookie: "sesame.session-token=planted" } })
    expect(response.status).toBe(303)
    expect(cookieLine(response.headers.getSetCookie())).toMatch(/Max-Age=0/i)
  })

  it("turns away a request whose session cannot be read, never lets it through", async () => {
    const served = await serve(guardedApp(express, config({ session: { maxAge: -1 }, logger: { error: () => {} } })))
    expect((await send(served, "/account", { headers: { cookie: "sesame.session-token=anything" } })).status).toBe(303)
  })

  it("sends the visitor on to pages.signIn through the core, the way back kept", async () => {
    const served = await serve(guardedApp(express, config({ pages: { signIn: "/login" } })))
    const first = new URL((await send(served, "/account")).headers.get("location")!)
    const second = await send(served, first.pathname + first.search)
    expect(second.headers.get("location")).toBe(`${served.origin}/login?callbackUrl=${encodeURIComponent(`${served.origin}/account`)}`)
  })

  describe("attacks on the redirect", () => {
    it("a return address of //evil.example stays a path on this site", async () => {
      const app = express()
      app.use(requireSession(config()))
      const served = await serve(app)
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
        const app = express()
        app.use(requireSession(config()))
        const served = await serve(app)
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
      const served = await serve(guardedApp(express, config()))
      const response = await rawSend(served, "http://evil.example/account", {})
      expect(response.status).toBe(303)
      const location = new URL(response.headers.location!)
      expect(location.origin).toBe(served.origin)
      expect(location.searchParams.get("callbackUrl")).toBe("/account")
    })

    it("a request without a Host (HTTP/1.0) gets a path, never a host made up for it", async () => {
      const served = await serve(guardedApp(express, config({ logger: { error: () => {} } })))
      const head = await new Promise<string>((resolve, reject) => {
        let text = ""
        const socket = connect(served.port, "127.0.0.1", () => socket.end("GET /account HTTP/1.0\r\n\r\n"))
        socket.setEncoding("utf8").on("data", (chunk: string) => (text += chunk)).on("end", () => resolve(text)).on("error", reject)
      })
      expect(head).toMatch(/^HTTP\/1\.1 303 /)
      expect(head).toMatch(/^Location: \/auth\/signin\?callbackUrl=%2Faccount\r$/m)
    })

    it("a forged Host is never written into the redirect (no trustHost): the redirect is a path", async () => {
      const served = await serve(guardedApp(express, config({ logger: { error: () => {} } })))
      // Look-alikes of a loopback host too: only a loopback host itself is served without trustHost.
      for (const host of ["evil.example", "127.0.0.1.evil.example", "localhost.evil.example"]) {
        const response = await rawSend(served, "/account", { host })
        expect(response.status).toBe(303)
        expect(response.headers.location).toBe(`/auth/signin?callbackUrl=${encodeURIComponent("/account")}`)
      }
    })
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

type Allow = (session: AuthenticatedSession, req: ExpressRequest) => Promise<boolean>

/** Routes behind `requireSession(options, { allow })`: the checks, and what ran. */
function permissionApp(express: ExpressModule) {
  const options = config({ plugins: [permissions] })
  const can = (permission: string) => vi.fn<Allow>(async (_session, req) => (await (api(req, options) as ServerFunctionsOf<typeof permissions>).hasPermission(permission)) === true)
  const read = can("project:read")
  const create = can("project:create")
  const ran: string[] = []
  const app = express()
  app.use("/auth", SesameAuth(options))
  app.get("/projects", requireSession(options, { allow: read }), (_req, res) => {
    res.send(`projects of ${(res.locals.session as Session).user?.email}`)
  })
  app.get("/projects/new", requireSession(options, { allow: create }), (_req, res) => {
    ran.push("/projects/new")
    res.send("new project")
  })
  app.get("/outage", requireSession(options, { allow: () => Promise.reject(new StorageUnavailable()) }), (_req, res) => {
    ran.push("/outage")
    res.send("in")
  })
  app.get("/broken", requireSession(options, { allow: () => { throw new Error("the permission store broke") } }), (_req, res) => {
    ran.push("/broken")
    res.send("in")
  })
  // Four parameters: Express hands errors only to a handler that declares them all.
  const errors: ErrorMiddleware = (error, _req, res, _next) => {
    res.statusCode = 500
    res.end(`error handler: ${(error as Error).message}`)
  }
  app.use(errors)
  return { app, read, create, ran }
}

describe.each(versions)("requireSession(config, { allow }) on $label", ({ express }) => {
  const json = { accept: "application/json" }

  it("lets a signed-in request on when allow resolves true, with the session and request it was given", async () => {
    const { app, read } = permissionApp(express)
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
    const { app, ran } = permissionApp(express)
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
    const { app, create } = permissionApp(express)
    const served = await serve(app)
    const page = await send(served, "/projects/new")
    expect(page.status).toBe(303)
    expect(page.headers.get("location")).toBe(`${served.origin}/auth/signin?callbackUrl=${encodeURIComponent("/projects/new")}`)
    expect((await send(served, "/projects/new", { headers: json })).status).toBe(401)
    expect(create).not.toHaveBeenCalled()
  })

  it("answers the core's 503 when allow meets a storage outage, and passes any other error to the error handlers", async () => {
    const { app, ran } = permissionApp(express)
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

  it("refuses an allow that is not a function when the guard is made", () => {
    expect(() => requireSession(config(), { allow: "admin" as never })).toThrow(TypeError)
  })

  it("checks a permission of the real @sesame/organizations: an owner of the active organization gets in, a user without one is refused", async () => {
    const adapter = MemoryAdapter()
    const orgs = organizations({ statements: { project: ["create", "read"] }, roles: { member: { project: ["read"] } } })
    const options: AuthConfig = {
      ...config(),
      adapter,
      session: { strategy: "database" },
      providers: [Credentials({ createUser: false, credentials: { email: {} }, authorize: async ({ email }) => (typeof email === "string" ? await adapter.getUserByEmail!(email) : null) })],
      plugins: [orgs],
    }
    const app = express()
    app.use("/auth", SesameAuth(options))
    app.post(
      "/api/projects",
      requireSession(options, {
        allow: async (session, req) => {
          const active = (session as { organization?: { id: string } }).organization
          return (await (api(req, options) as ServerFunctionsOf<typeof orgs>).hasPermission(active?.id ?? "", { project: ["create"] })) === true
        },
      }),
      (_req, res) => {
        res.status(201).json({ created: true })
      },
    )
    const served = await serve(app)
    const browser = async (email: string): Promise<CookieJar> => {
      await adapter.createUser!({ id: crypto.randomUUID(), email, name: email, emailVerified: new Date() })
      const jar = new CookieJar()
      const signedIn = await send(served, "/auth/callback/credentials", { jar, form: { csrfToken: await csrfOf(served, jar), email } })
      expect(signedIn.status).toBe(302)
      return jar
    }
    const post = async (jar: CookieJar, path: string, fields: Record<string, unknown>) =>
      send(served, path, { jar, json: { csrfToken: await csrfOf(served, jar), ...fields }, headers: { origin: served.origin, ...json } })
    const ada = await browser("ada@example.com")
    const org = (await (await post(ada, "/auth/organization/create", { name: "Acme" })).json()) as { id: string }
    expect((await post(ada, "/auth/organization/active", { organizationId: org.id })).status).toBe(200)
    expect((await post(ada, "/api/projects", {})).status).toBe(201)
    const bob = await browser("bob@example.com")
    const refused = await post(bob, "/api/projects", {})
    expect(refused.status).toBe(403)
    expect(await refused.json()).toEqual({ error: "Forbidden", message: "Access denied." })
  })
})
