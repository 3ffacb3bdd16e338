/**
 * `api(c, config?)`: the plugins' server functions for the request a Hono route handles, after a
 * real sign-in through the endpoints. A test plugin with a stored counter per user acts for the
 * request's user (null when signed out, and after the route signed out), with the configuration of
 * the session middleware or one passed (a lazy one too); a name no plugin has is the core's
 * `TypeError`; a plugin that is off (an adapter without a `store`) throws `MissingAdapterMethods`.
 * The README's example is extracted and run.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import type { AuthConfig, ModuleRequest, SesameModule } from "@sesame/core"
import { MemoryAdapter } from "@sesame/core/adapters"
import { Hono } from "hono"
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest"
import { api, sesame, sessionMiddleware, signOut, type ServerFunctionsOf } from "@sesame/hono"
import { aliceCredentials, secret } from "../../core/test/helpers.js"
import { call, CookieJar, origin } from "./helpers.js"
import { visits } from "../../core/test/fixtures/visits-plugin.js"


type Visits = ServerFunctionsOf<typeof visits>

/** A plugin that stores nothing: who the request's user is. */
const whoami = {
  id: "whoami",
  api: {
    async whoami(request: ModuleRequest) {
      return (await request.user())?.email ?? null
    },
  },
} as const satisfies SesameModule

/** Database sessions in memory, Alice created on her first sign-in, the plugin listed. */
function databaseConfig(adapter: AuthConfig["adapter"] = MemoryAdapter()): AuthConfig {
  return { secret, adapter, session: { strategy: "database" }, providers: [aliceCredentials({ createUser: true })], plugins: [visits] }
}

/** The endpoints, the session middleware, and routes calling the plugin; errors answered as `{ type, name, message }`. */
function appWith(config: AuthConfig) {
  const app = new Hono()
  app.on(["GET", "POST"], "/auth/*", sesame(config))
  app.use("*", sessionMiddleware(config))
  app.get("/visit", async (c) => c.json(await (api(c) as Visits).visit(Number(c.req.query("by") ?? 1))))
  app.post("/visit", async (c) => c.json(await (api(c) as Visits).visit(((await c.req.json()) as { by: number }).by)))
  app.get("/whoami", async (c) => c.json(await (api(c) as ServerFunctionsOf<typeof whoami>).whoami()))
  app.post("/leave", async (c) => {
    await signOut(c, { redirect: false })
    return c.json(await (api(c) as ServerFunctionsOf<typeof whoami>).whoami())
  })
  app.get("/unknown", async (c) => c.json(await api(c).nothingLikeThis!()))
  app.onError((error: Error & { type?: string }, c) => c.json({ type: error.type ?? null, name: error.name, message: error.message }, 500))
  return app
}

/** Alice signed in through the credentials endpoint; her cookies in `jar`. */
async function signInAlice(app: Hono, jar: CookieJar): Promise<void> {
  const { csrfToken } = (await (await call(app, "/auth/csrf", { jar })).json()) as { csrfToken: string }
  const response = await call(app, "/auth/callback/credentials", { jar, form: { csrfToken, username: "alice", password: "correct horse" } })
  expect(response.status).toBe(302)
  expect(jar.cookies.has("sesame.session-token")).toBe(true)
}

describe("api(c)", () => {
  it("acts for the request's signed-in user, and answers null without a session", async () => {
    const app = appWith(databaseConfig())
    expect(await (await call(app, "/visit?by=1")).json()).toBeNull()
    const jar = new CookieJar()
    await signInAlice(app, jar)
    expect(await (await call(app, "/visit?by=2", { jar })).json()).toEqual({ email: "alice@example.com", count: 2, url: `${origin}/visit?by=2` })
    expect(await (await call(app, "/visit?by=3", { jar })).json()).toMatchObject({ email: "alice@example.com", count: 5 })
    // A post with a body of its own: the function still reads the browser's session.
    const posted = await call(app, "/visit", { jar, json: { by: 10 }, headers: { origin, "sec-fetch-site": "same-origin" } })
    expect(await posted.json()).toMatchObject({ email: "alice@example.com", count: 15 })
    // Another browser, signed out, is not Alice.
    expect(await (await call(app, "/visit?by=1")).json()).toBeNull()
  })

  it("answers as signed out once the route signed out, as getSession does", async () => {
    // JWT sessions, no adapter: a plugin that stores nothing is on.
    const app = appWith({ secret, providers: [aliceCredentials()], plugins: [whoami] })
    const jar = new CookieJar()
    await signInAlice(app, jar)
    expect(await (await call(app, "/whoami", { jar })).json()).toBe("alice@example.com")
    // A JWT stays valid in the request's cookie: the functions must not read it after the sign-out.
    expect(await (await call(app, "/leave", { jar, form: {} })).json()).toBeNull()
  })

  it("takes the configuration passed, a lazy one too, without the session middleware", async () => {
    const config = databaseConfig()
    const lazy = vi.fn(() => config)
    const app = new Hono()
    app.on(["GET", "POST"], "/auth/*", sesame(config))
    app.get("/visit", async (c) => c.json(await (api(c, lazy) as Visits).visit(1)))
    app.get("/plain", async (c) => c.json(await (api(c, config) as Visits).visit(1)))
    app.get("/none", async (c) => c.json(await (api(c) as Visits).visit(1)))
    app.onError((error, c) => c.json({ name: error.name, message: error.message }, 500))
    const jar = new CookieJar()
    await signInAlice(app, jar)
    expect(await (await call(app, "/visit", { jar })).json()).toMatchObject({ email: "alice@example.com", count: 1 })
    expect(lazy).toHaveBeenCalledTimes(1)
    expect(await (await call(app, "/plain", { jar })).json()).toMatchObject({ count: 2 })
    // Neither a configuration nor the middleware: the TypeError says what to add.
    expect(await (await call(app, "/none", { jar })).json()).toEqual({ name: "TypeError", message: expect.stringContaining("sessionMiddleware(config)") })
    expect(() => api({} as never, "not a configuration" as never)).toThrow(TypeError)
  })

  it("lets the core's TypeError through for a name no plugin has", async () => {
    const response = await call(appWith(databaseConfig()), "/unknown")
    expect(response.status).toBe(500)
    expect(await response.json()).toMatchObject({ name: "TypeError", message: expect.stringMatching(/no plugin has a server function "nothingLikeThis"/i) })
  })

  it("throws MissingAdapterMethods for a plugin that is off (an adapter without a store)", async () => {
    const { store: _store, ...withoutStore } = MemoryAdapter()
    const app = appWith(databaseConfig(withoutStore))
    const jar = new CookieJar()
    // The rest of Sesame works: Alice signs in, with a database session.
    await signInAlice(app, jar)
    const response = await call(app, "/visit", { jar })
    expect(response.status).toBe(500)
    expect(await response.json()).toMatchObject({ type: "MissingAdapterMethods", message: expect.stringContaining('Plugin "visits" is off') })
  })
})

describe("README example: plugins", () => {
  const readme = join(import.meta.dirname, "..", "README.md")
  const scratch = join(import.meta.dirname, ".scratch", "plugin-api")

  /** The code block that follows `<!-- example: <name> (…) -->` in the README. */
  function example(name: string): string {
    const match = new RegExp(`<!-- example: ${name} \\([^)]*\\) -->\\n\`\`\`\\w+\\n([\\s\\S]*?)^\`\`\``, "m").exec(readFileSync(readme, "utf8"))
    if (!match) throw new Error(`no example "${name}" in ${readme}`)
    return match[1]!
  }

  beforeAll(() => {
    rmSync(scratch, { recursive: true, force: true })
    mkdirSync(scratch, { recursive: true })
    vi.stubEnv("AUTH_SECRET", "readme-secret-0123456789-abcdefghijklmnop")
  })
  afterAll(() => {
    vi.unstubAllEnvs()
    rmSync(scratch, { recursive: true, force: true })
  })

  it("greets the signed-in user through the plugin, and answers null when signed out", async () => {
    writeFileSync(join(scratch, "app.ts"), example("quick-start"))
    writeFileSync(join(scratch, "plugins.ts"), example("plugins"))
    const { app } = (await import(join(scratch, "plugins.ts"))) as { app: Hono }
    expect(await (await call(app, "/greeting")).json()).toEqual({ greeting: null })
    const jar = new CookieJar()
    const { csrfToken } = (await (await call(app, "/auth/csrf", { jar })).json()) as { csrfToken: string }
    await call(app, "/auth/callback/credentials", { jar, form: { csrfToken, email: "ada@example.com", password: "analytical engine" } })
    expect(await (await call(app, "/greeting", { jar })).json()).toEqual({ greeting: "Hello, Ada!" })
  })
})
