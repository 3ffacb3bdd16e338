/**
 * Protected routes: `requireSession(config)` (middleware) and `assertSession(c)` (called by the
 * route): the redirect to the sign-in page and back, `401` JSON for API clients, and the attacks on
 * the redirect (a forged `Host` / `X-Forwarded-Host`, `//evil.example`, another site's `Referer`).
 * With `{ allow }`: a permission asked of a plugin's server function (`api(c)`) lets the signed-in
 * request on or answers 403 (JSON or a plain page), a visitor is still sent to sign in, an outage
 * in the check is the core's 503 and any other error reaches `app.onError`; and the same with the
 * real `@sesame/organizations`.
 */
import type { AuthConfig, ModuleRequest, SesameModule } from "@sesame/core"
import { MemoryAdapter } from "@sesame/core/adapters"
import { StorageUnavailable } from "@sesame/core/errors"
import Credentials from "@sesame/core/providers/credentials"
import { organizations } from "@sesame/organizations"
import { checkUnavailable } from "@sesame/testing"
import { Hono, type Context } from "hono"
import { HTTPException } from "hono/http-exception"
import { describe, expect, it, vi } from "vitest"
import { api, assertSession, requireSession, sesame, type AuthenticatedSession, type SesameVariables, type ServerFunctionsOf } from "@sesame/hono"
import { appFor, call, config, CookieJar, origin, signInAlice, users } from "./helpers.js"

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

/** A plugin with one server function: whether the request's user holds a permission (Alice holds `project:read` only). */
const permissions = {
  id: "permissions",
  api: {
    async hasPermission(request: ModuleRequest, permission: string) {
      const user = await request.user()
      return user?.email === users.alice.email && permission === "project:read"
    },
  },
} as const satisfies SesameModule

type Allow = (session: AuthenticatedSession, c: Context) => Promise<boolean>

/** The README's app, with routes behind `requireSession(auth, { allow })` and `assertSession(c, undefined, { allow })`. */
function permissionApp() {
  const auth = config({ plugins: [permissions] })
  const can = (permission: string) => vi.fn<Allow>(async (_session, c) => (await (api(c) as ServerFunctionsOf<typeof permissions>).hasPermission(permission)) === true)
  const read = can("project:read")
  const create = can("project:create")
  const outage = () => Promise.reject(new StorageUnavailable())
  const broken = () => {
    throw new Error("the permission store broke")
  }
  const ran: string[] = []
  const app = appFor(auth)
  app.get("/projects", requireSession(auth, { allow: read }), (c) => c.text(`projects of ${c.get("session")?.user?.email}`))
  app.get("/projects/new", requireSession(auth, { allow: create }), (c) => c.text(`${ran.push("new")}`))
  app.get("/outage", requireSession(auth, { allow: outage }), (c) => c.text(`${ran.push("outage")}`))
  app.get("/broken", requireSession(auth, { allow: broken }), (c) => c.text(`${ran.push("broken")}`))
  app.get("/assert/:permission", async (c) => {
    const allow = { read, create, outage, broken }[c.req.param("permission") as "read"]
    const session = await assertSession(c, undefined, { allow })
    return c.text(`asserted for ${session.user.email}`)
  })
  app.onError((error, c) => (error instanceof HTTPException ? error.getResponse() : c.text(`onError: ${error.message}`, 500)))
  return { app, read, create, ran }
}

describe("requireSession(config, { allow }) and assertSession(c, config, { allow })", () => {
  const json = { accept: "application/json" }

  it("lets a signed-in request on when allow resolves true, with the session and the context", async () => {
    const { app, read } = permissionApp()
    const jar = new CookieJar()
    await signInAlice(app, jar)
    const page = await call(app, "/projects", { jar })
    expect(page.status).toBe(200)
    expect(await page.text()).toBe("projects of alice@example.com")
    expect(await (await call(app, "/assert/read", { jar })).text()).toBe("asserted for alice@example.com")
    expect(read.mock.calls[0]![0].user.email).toBe("alice@example.com")
    expect(read.mock.calls[0]![1].req.path).toBe("/projects")
  })

  it("answers 403 when allow resolves false: JSON to a client that wants JSON, a plain page to a browser; the route does not run", async () => {
    const { app, ran } = permissionApp()
    const jar = new CookieJar()
    await signInAlice(app, jar)
    for (const path of ["/projects/new", "/assert/create"]) {
      for (const headers of [json, { "x-requested-with": "XMLHttpRequest" }] as Record<string, string>[]) {
        const refused = await call(app, path, { jar, headers })
        expect(refused.status, path).toBe(403)
        expect(refused.headers.get("content-type")).toBe("application/json")
        expect(refused.headers.get("cache-control")).toBe("private, no-store")
        expect(await refused.json()).toEqual({ error: "Forbidden", message: "Access denied." })
      }
      const page = await call(app, path, { jar, headers: { accept: "text/html,application/json;q=0.9" } })
      expect(page.status, path).toBe(403)
      expect(page.headers.get("content-type")).toMatch(/^text\/plain/)
      expect(page.headers.get("location")).toBeNull()
      expect(await page.text()).toBe("Access denied.")
    }
    expect(ran).toEqual([])
  })

  it("sends a visitor without a session to sign in (or 401) as before, without asking allow", async () => {
    const { app, create } = permissionApp()
    for (const path of ["/projects/new", "/assert/create"]) {
      const page = await call(app, path)
      expect(page.status).toBe(303)
      expect(page.headers.get("location")).toBe(signInPage(path))
      expect((await call(app, path, { headers: json })).status).toBe(401)
    }
    expect(create).not.toHaveBeenCalled()
  })

  it("answers the core's 503 when allow meets a storage outage, and throws any other error on to app.onError", async () => {
    const { app, ran } = permissionApp()
    const jar = new CookieJar()
    await signInAlice(app, jar)
    for (const path of ["/outage", "/assert/outage"]) {
      expect((await checkUnavailable(await call(app, path, { jar, headers: { accept: "text/html" } }), "page")).problems, path).toEqual([])
      expect((await checkUnavailable(await call(app, path, { jar, headers: json }), "json")).problems, path).toEqual([])
      const broken = await call(app, path.replace("outage", "broken"), { jar })
      expect(broken.status).toBe(500)
      expect(await broken.text()).toBe("onError: the permission store broke")
    }
    expect(ran).toEqual([])
  })

  it("refuses an allow that is not a function", async () => {
    expect(() => requireSession(config(), { allow: "admin" as never })).toThrow(TypeError)
    const app = new Hono()
    app.get("/", async (c) => c.text(String(await assertSession(c, config(), { allow: "admin" as never }).catch((error: unknown) => error instanceof TypeError))))
    expect(await (await app.request("/")).text()).toBe("true")
  })

  it("checks a permission of the real @sesame/organizations: an owner of the active organization gets in, a user without one is refused", async () => {
    const adapter = MemoryAdapter()
    const orgs = organizations({ statements: { project: ["create", "read"] }, roles: { member: { project: ["read"] } } })
    const auth: AuthConfig = {
      ...config(),
      adapter,
      session: { strategy: "database" },
      providers: [Credentials({ createUser: false, credentials: { email: {} }, authorize: async ({ email }) => (typeof email === "string" ? await adapter.getUserByEmail!(email) : null) })],
      plugins: [orgs],
    }
    const app = new Hono<{ Variables: SesameVariables }>()
    app.on(["GET", "POST"], "/auth/*", sesame(auth))
    app.post(
      "/api/projects",
      requireSession(auth, {
        allow: async (session, c) => {
          const active = (session as { organization?: { id: string } }).organization
          return (await (api(c) as ServerFunctionsOf<typeof orgs>).hasPermission(active?.id ?? "", { project: ["create"] })) === true
        },
      }),
      (c) => c.json({ created: true }, 201),
    )
    const csrf = async (jar: CookieJar) => ((await (await call(app, "/auth/csrf", { jar })).json()) as { csrfToken: string }).csrfToken
    const browser = async (email: string): Promise<CookieJar> => {
      await adapter.createUser!({ id: crypto.randomUUID(), email, name: email, emailVerified: new Date() })
      const jar = new CookieJar()
      expect((await call(app, "/auth/callback/credentials", { jar, form: { csrfToken: await csrf(jar), email } })).status).toBe(302)
      return jar
    }
    const post = async (jar: CookieJar, path: string, fields: Record<string, unknown>) =>
      call(app, path, { jar, json: { csrfToken: await csrf(jar), ...fields }, headers: { origin, ...json } })
    const ada = await browser("ada@example.com")
    const org = (await (await post(ada, "/auth/organization/create", { name: "Acme" })).json()) as { id: string }
    expect((await post(ada, "/auth/organization/active", { organizationId: org.id })).status).toBe(200)
    expect((await post(ada, "/api/projects", {})).status).toBe(201)
    const refused = await post(await browser("bob@example.com"), "/api/projects", {})
    expect(refused.status).toBe(403)
    expect(await refused.json()).toEqual({ error: "Forbidden", message: "Access denied." })
  })
})
