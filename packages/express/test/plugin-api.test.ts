/**
 * `api(req, config)`: the plugins' server functions for the request Express is handling, in a real
 * Express app (5 and 4) after a real sign-in through the endpoints. A test plugin with a stored
 * counter per user acts for the request's user (null when signed out), on a GET and on a POST with
 * a body; a name no plugin has is the core's `TypeError`; a plugin that is off (an adapter without
 * a `store`) throws `MissingAdapterMethods`. The README's example is extracted and run.
 */
import { mkdirSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import type { ErrorRequestHandler, Express } from "express"
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest"
import type { AuthConfig } from "@sesame/core"
import { MemoryAdapter } from "@sesame/core/adapters"
import { api, SesameAuth, type ServerFunctionsOf } from "@sesame/express"
import { readmeExample } from "@sesame/testing"
import { aliceCredentials, CookieJar, csrfOf, secret, send, serve, signInAlice, versions, type ExpressModule } from "./helpers.js"
import { visits } from "../../core/test/fixtures/visits-plugin.js"


/** Database sessions in memory, Alice created on her first sign-in, the plugin listed. */
function databaseConfig(adapter: AuthConfig["adapter"] = MemoryAdapter()): AuthConfig {
  return { secret, adapter, session: { strategy: "database" }, providers: [aliceCredentials({ createUser: true })], plugins: [visits] }
}

/** The endpoints, and routes calling the plugin through `api(req, config)`; errors answered as `{ type, name, message }`. */
function appWith(express: ExpressModule, config: AuthConfig): Express {
  const app = express()
  app.use("/auth", SesameAuth(config))
  app.get("/visit", async (req, res, next) => {
    try {
      const plugins = api(req, config) as ServerFunctionsOf<typeof visits>
      res.json(await plugins.visit(Number(req.query.by ?? 1)))
    } catch (error) {
      next(error)
    }
  })
  app.post("/visit", express.json(), async (req, res, next) => {
    try {
      res.json(await (api(req, config) as ServerFunctionsOf<typeof visits>).visit((req.body as { by: number }).by))
    } catch (error) {
      next(error)
    }
  })
  app.get("/unknown", async (req, res, next) => {
    try {
      res.json(await api(req, config).nothingLikeThis!())
    } catch (error) {
      next(error)
    }
  })
  const answer: ErrorRequestHandler = (error: Error & { type?: string }, req, res, _next) => {
    res.status(500).json({ type: error.type ?? null, name: error.name, message: error.message })
  }
  app.use(answer)
  return app as Express
}

describe.each(versions)("api(req, config) on $label", ({ express }) => {
  it("acts for the request's signed-in user, and answers null without a session", async () => {
    const served = await serve(appWith(express, databaseConfig()))
    expect(await (await send(served, "/visit?by=1")).json()).toBeNull()
    const jar = new CookieJar()
    await signInAlice(served, jar)
    expect(await (await send(served, "/visit?by=2", { jar })).json()).toEqual({ email: "alice@example.com", count: 2, url: expect.stringMatching(/^http:\/\/[^/]+\/visit\?by=2$/) })
    expect(await (await send(served, "/visit?by=3", { jar })).json()).toMatchObject({ email: "alice@example.com", count: 5 })
    // A post with a body of its own: the function still reads the browser's session.
    const posted = await send(served, "/visit", { jar, json: { by: 10 }, headers: { origin: served.origin, "sec-fetch-site": "same-origin" } })
    expect(await posted.json()).toEqual({ email: "alice@example.com", count: 15, url: `${served.origin}/visit` })
    // Another browser, signed out, is not Alice.
    expect(await (await send(served, "/visit?by=1")).json()).toBeNull()
  })

  it("lets the core's TypeError through for a name no plugin has", async () => {
    const served = await serve(appWith(express, databaseConfig()))
    const response = await send(served, "/unknown")
    expect(response.status).toBe(500)
    expect(await response.json()).toMatchObject({ name: "TypeError", message: expect.stringMatching(/no plugin has a server function "nothingLikeThis"/i) })
  })

  it("throws MissingAdapterMethods for a plugin that is off (an adapter without a store)", async () => {
    const { store: _store, ...withoutStore } = MemoryAdapter()
    const served = await serve(appWith(express, databaseConfig(withoutStore)))
    const jar = new CookieJar()
    // The rest of Sesame works: Alice signs in, with a database session.
    await signInAlice(served, jar)
    expect(jar.cookies.has("sesame.session-token")).toBe(true)
    const response = await send(served, "/visit?by=1", { jar })
    expect(response.status).toBe(500)
    expect(await response.json()).toMatchObject({ type: "MissingAdapterMethods", message: expect.stringContaining('Plugin "visits" is off') })
  })
})

describe("README example: plugins", () => {
  const readmeFile = join(import.meta.dirname, "..", "README.md")
  const scratch = join(import.meta.dirname, ".scratch", "plugin-api")

  beforeAll(() => {
    mkdirSync(scratch, { recursive: true })
    vi.stubEnv("AUTH_SECRET", "readme-secret-0123456789-abcdefghijklmnop")
    vi.stubEnv("AUTH_MY_IDP_ISSUER", "https://idp.example.com")
    vi.stubEnv("AUTH_MY_IDP_ID", "my-app")
    vi.stubEnv("AUTH_MY_IDP_SECRET", "my-app-secret-0123456789")
  })
  afterAll(() => {
    vi.unstubAllEnvs()
  })

  it("greets the signed-in user through the plugin, and answers null when signed out", async () => {
    writeFileSync(join(scratch, "auth.ts"), readmeExample(readmeFile, "auth-config"))
    writeFileSync(join(scratch, "plugins.ts"), readmeExample(readmeFile, "plugins").replaceAll('"./auth.js"', '"./auth.ts"'))
    const { app } = (await import(join(scratch, "plugins.ts"))) as { app: Express }
    const served = await serve(app)
    expect(await (await send(served, "/greeting")).json()).toEqual({ greeting: null })
    const jar = new CookieJar()
    await send(served, "/auth/callback/credentials", { jar, form: { csrfToken: await csrfOf(served, jar), email: "ada@example.com", password: "analytical engine" } })
    expect(await (await send(served, "/greeting", { jar })).json()).toEqual({ greeting: "Hello, Ada!" })
  })
})
