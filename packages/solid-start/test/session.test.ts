/**
 * getSession and requireSession: reading the session on the server through the configured prefix,
 * and failing closed. With `{ allow }`: a permission asked of a plugin's server function (`api`)
 * returns the session or throws a 403 Response (JSON or a plain page), a visitor still gets the
 * redirect, and what the check throws (a StorageUnavailable, another error) is thrown as it is;
 * and the same with the real `@sesame/organizations`.
 */
import { describe, expect, it, vi } from "vitest"
import type { ModuleRequest, SesameModule } from "@sesame/core"
import { MemoryAdapter } from "@sesame/core/adapters"
import Credentials from "@sesame/core/providers/credentials"
import { organizations } from "@sesame/organizations"
import { api, getSession, isStorageUnavailable, requireSession, SolidAuth, StorageUnavailable, type AuthenticatedSession, type ServerFunctionsOf } from "@sesame/solid-start"
import { alice, aliceCredentials, call, config, CookieJar, request, signInAlice } from "./helpers.js"

describe("getSession", () => {
  it("is null without a session cookie", async () => {
    expect(await getSession(request("/"), config())).toBeNull()
  })

  it("returns the session of a signed-in request", async () => {
    const options = config()
    const jar = new CookieJar()
    await signInAlice(SolidAuth(options), jar)
    const session = await getSession(request("/account", { jar }), options)
    expect(session?.user).toEqual({ name: "Alice", email: "alice@example.com", image: null })
    expect(typeof session?.expires).toBe("string")
  })

  it("goes through the session callback, as GET <prefix>/session does", async () => {
    const options = config({ callbacks: { session: ({ session, token }) => ({ ...session, user: { ...session.user, id: token.sub } }) } })
    const jar = new CookieJar()
    await signInAlice(SolidAuth(options), jar)
    expect((await getSession(request("/", { jar }), options))?.user?.id).toBe("1")
  })

  it("honours a non-default prefix: the session is read under it, not under /api/auth", async () => {
    const options = config({ prefix: "/my/auth" })
    const jar = new CookieJar()
    await signInAlice(SolidAuth(options), jar, "/my/auth")
    expect((await getSession(request("/", { jar }), options))?.user?.name).toBe("Alice")
  })

  it("reads a database session through the adapter", async () => {
    const adapter = MemoryAdapter()
    const options = config({ adapter, providers: [aliceCredentials({ createUser: true })] })
    const jar = new CookieJar()
    await signInAlice(SolidAuth(options), jar)
    expect(adapter.tables.sessions.size).toBe(1)
    expect((await getSession(request("/", { jar }), options))?.user?.email).toBe("alice@example.com")
  })

  it("reads the session of a POST with a body (a server function call)", async () => {
    const options = config()
    const jar = new CookieJar()
    await signInAlice(SolidAuth(options), jar)
    const post = new Request("http://localhost:3000/_server?id=x", {
      method: "POST",
      headers: { cookie: jar.header(), "content-type": "application/json", "x-auth-return-redirect": "1" },
      body: JSON.stringify({ a: 1 }),
    })
    expect((await getSession(post, options))?.user?.name).toBe("Alice")
  })

  it("fails closed: a tampered cookie, a session from another secret and a broken configuration give null", async () => {
    const options = config()
    const jar = new CookieJar()
    await signInAlice(SolidAuth(options), jar)
    const cookie = jar.header()
    const tampered = cookie.replace(/(sesame\.session-token=[^;]{20})./, (_, head: string) => `${head}${head.endsWith("A") ? "B" : "A"}`)
    expect(tampered).not.toBe(cookie)
    expect(await getSession(request("/", { headers: { cookie: tampered } }), options)).toBeNull()
    expect(await getSession(request("/", { jar }), config({ secret: "another-secret-0123456789-abcdefghijklmnopqrst" }))).toBeNull()
    const silent = { error: () => {}, warn: () => {}, debug: () => {} }
    expect(await getSession(request("/", { jar }), config({ logger: silent, session: { maxAge: -1 } }))).toBeNull()
    expect(await getSession(request("/", { jar }), config({ logger: silent, trustHost: false }))).toBeNull()
  })

  it("fails closed on an answer that is not a session object: an empty body, an array", async () => {
    for (const session of [() => undefined, () => ["not", "a", "session"]]) {
      const options = config({ callbacks: { session: session as never } })
      const jar = new CookieJar()
      await signInAlice(SolidAuth(options), jar)
      expect(await getSession(request("/", { jar }), options)).toBeNull()
    }
  })
})

describe("requireSession", () => {
  it("returns the session when there is a user", async () => {
    const options = config()
    const jar = new CookieJar()
    await signInAlice(SolidAuth(options), jar)
    expect((await requireSession(request("/account", { jar }), options, "/signin")).user.email).toBe("alice@example.com")
  })

  it("throws a 302 Response to the fixed path when there is no session", async () => {
    const thrown = await requireSession(request("/account"), config(), "/signin?from=account").catch((e: unknown) => e)
    expect(thrown).toBeInstanceOf(Response)
    const response = thrown as Response
    expect(response.status).toBe(302)
    expect(response.headers.get("location")).toBe("/signin?from=account")
  })

  it("throws the redirect when the session has no user", async () => {
    const options = config({ callbacks: { session: ({ session }) => ({ expires: session.expires }) } })
    const jar = new CookieJar()
    await signInAlice(SolidAuth(options), jar)
    const thrown = await requireSession(request("/account", { jar }), options, "/signin").catch((e: unknown) => e)
    expect((thrown as Response).headers.get("location")).toBe("/signin")
  })

  it("refuses a redirect target that is not a path on this site", async () => {
    for (const target of ["https://evil.example/", "//evil.example/", "/\\evil.example", "signin"]) {
      await expect(requireSession(request("/"), config(), target)).rejects.toThrow(TypeError)
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

describe("requireSession(request, options, { allow })", () => {
  const options = config({ plugins: [permissions] })
  const can = (permission: string) =>
    vi.fn(async (_session: AuthenticatedSession, req: Request) => (await (api(req, options) as ServerFunctionsOf<typeof permissions>).hasPermission(permission)) === true)
  const json = { accept: "application/json" }

  async function aliceJar(): Promise<CookieJar> {
    const jar = new CookieJar()
    await signInAlice(SolidAuth(options), jar)
    return jar
  }

  it("returns the session when allow resolves true, having handed it the session and the request", async () => {
    const jar = await aliceJar()
    const allow = can("project:read")
    const req = request("/projects", { jar })
    expect((await requireSession(req, options, { allow })).user.email).toBe(alice.email)
    expect(allow).toHaveBeenCalledWith(expect.objectContaining({ user: expect.objectContaining({ email: alice.email }) }), req)
  })

  it("throws a 403 Response when allow resolves false: JSON for a client that wants JSON, a plain page otherwise", async () => {
    const jar = await aliceJar()
    for (const headers of [json, { "x-requested-with": "XMLHttpRequest" }]) {
      const thrown = await requireSession(request("/api/projects", { jar, headers }), options, { allow: can("project:create") }).catch((e: unknown) => e)
      expect(thrown).toBeInstanceOf(Response)
      const refused = thrown as Response
      expect(refused.status).toBe(403)
      expect(refused.headers.get("content-type")).toBe("application/json")
      expect(refused.headers.get("cache-control")).toBe("private, no-store")
      expect(await refused.json()).toEqual({ error: "Forbidden", message: "Access denied." })
    }
    const page = (await requireSession(request("/projects/new", { jar }), options, { allow: can("project:create") }).catch((e: unknown) => e)) as Response
    expect(page.status).toBe(403)
    expect(page.headers.get("content-type")).toMatch(/^text\/plain/)
    expect(page.headers.get("location")).toBeNull()
    expect(await page.text()).toBe("Access denied.")
    // Anything but `true` is a refusal.
    const truthy = (await requireSession(request("/projects/new", { jar }), options, { allow: (() => "yes") as never }).catch((e: unknown) => e)) as Response
    expect(truthy.status).toBe(403)
  })

  it("throws the redirect to a visitor without a session as before, without asking allow; redirectTo still applies", async () => {
    const allow = can("project:create")
    const thrown = (await requireSession(request("/projects/new"), options, { allow }).catch((e: unknown) => e)) as Response
    expect(thrown.status).toBe(302)
    expect(thrown.headers.get("location")).toBe("http://localhost:3000/api/auth/signin?callbackUrl=%2Fprojects%2Fnew")
    const fixed = (await requireSession(request("/projects/new"), options, { redirectTo: "/signin", allow }).catch((e: unknown) => e)) as Response
    expect(fixed.headers.get("location")).toBe("/signin")
    expect(allow).not.toHaveBeenCalled()
  })

  it("throws what allow throws as it is: a StorageUnavailable (503), or the app's own error", async () => {
    const jar = await aliceJar()
    const outage = await requireSession(request("/projects", { jar }), options, { allow: () => Promise.reject(new StorageUnavailable()) }).catch((e: unknown) => e)
    expect(isStorageUnavailable(outage)).toBe(true)
    expect((outage as StorageUnavailable).status).toBe(503)
    const broken = () => {
      throw new Error("the permission store broke")
    }
    await expect(requireSession(request("/projects", { jar }), options, { allow: broken })).rejects.toThrow("the permission store broke")
  })

  it("refuses an allow that is not a function", async () => {
    await expect(requireSession(request("/"), options, { allow: "admin" as never })).rejects.toThrow(TypeError)
  })

  it("checks a permission of the real @sesame/organizations: an owner of the active organization gets in, a user without one is refused", async () => {
    const adapter = MemoryAdapter()
    const orgs = organizations({ statements: { project: ["create", "read"] }, roles: { member: { project: ["read"] } } })
    const withOrgs = config({
      adapter,
      session: { strategy: "database" },
      providers: [Credentials({ createUser: false, credentials: { email: {} }, authorize: async ({ email }) => (typeof email === "string" ? await adapter.getUserByEmail!(email) : null) })],
      plugins: [orgs],
    })
    const handlers = SolidAuth(withOrgs)
    const plugins = (req: Request) => api(req, withOrgs) as ServerFunctionsOf<typeof orgs>
    const signedIn = async (email: string): Promise<CookieJar> => {
      await adapter.createUser!({ id: crypto.randomUUID(), email, name: email, emailVerified: new Date() })
      const jar = new CookieJar()
      const { csrfToken } = (await (await call(handlers, "/api/auth/csrf", { jar })).json()) as { csrfToken: string }
      await call(handlers, "/api/auth/callback/credentials", { jar, form: { csrfToken, email } })
      expect(jar.cookies.has("sesame.session-token")).toBe(true)
      return jar
    }
    const allow = async (session: AuthenticatedSession, req: Request) => {
      const active = (session as { organization?: { id: string } }).organization
      return (await plugins(req).hasPermission(active?.id ?? "", { project: ["create"] })) === true
    }
    const ada = await signedIn("ada@example.com")
    const org = await plugins(request("/", { jar: ada })).createOrganization({ name: "Acme" })
    await plugins(request("/", { jar: ada })).setActiveOrganization(org.id)
    expect((await requireSession(request("/projects/new", { jar: ada }), withOrgs, { allow })).user.email).toBe("ada@example.com")
    const bob = await signedIn("bob@example.com")
    const refused = (await requireSession(request("/projects/new", { jar: bob, headers: json }), withOrgs, { allow }).catch((e: unknown) => e)) as Response
    expect(refused.status).toBe(403)
  })
})
