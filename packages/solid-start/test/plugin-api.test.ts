/**
 * `api(request, options)`: the plugins' server functions for the request SolidStart is handling,
 * after a real sign-in through the route's handlers. A test plugin with a stored counter per user
 * acts for the request's user (null when signed out), under the default prefix and another; a name
 * no plugin has is the core's `TypeError`; a plugin that is off (an adapter without a `store`)
 * throws `MissingAdapterMethods`. The README's example is extracted and run inside a request event,
 * as a server function runs.
 */
import { mkdirSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { MemoryAdapter } from "@sesame/core/adapters"
import { provideRequestEvent } from "solid-js/web/storage"
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest"
import { api, SolidAuth, type ServerFunctionsOf, type SolidAuthConfig } from "@sesame/solid-start"
import { readmeExample } from "@sesame/testing"
import { alice, aliceCredentials, call, config, CookieJar, event, origin, request, signInAlice } from "./helpers.js"
import { visits } from "../../core/test/fixtures/visits-plugin.js"


type Visits = ServerFunctionsOf<typeof visits>

/** Database sessions in memory, Alice created on her first sign-in, the plugin listed. */
function databaseOptions(overrides: Partial<SolidAuthConfig> = {}): SolidAuthConfig {
  return config({ adapter: MemoryAdapter(), session: { strategy: "database" }, providers: [aliceCredentials({ createUser: true })], plugins: [visits], ...overrides })
}

describe("api(request, options)", () => {
  it("acts for the request's signed-in user, and answers null without a session", async () => {
    const options = databaseOptions()
    expect(await (api(request("/dashboard"), options) as Visits).visit(1)).toBeNull()
    const jar = new CookieJar()
    await signInAlice(SolidAuth(options), jar)
    expect(await (api(request("/dashboard", { jar }), options) as Visits).visit(2)).toEqual({ email: alice.email, count: 2, url: `${origin}/dashboard` })
    expect(await (api(request("/dashboard", { jar }), options) as Visits).visit(3)).toMatchObject({ email: alice.email, count: 5 })
    // A server function's own request (a POST to /_server with a body): the browser's session still.
    const serverCall = request("/_server", { jar, method: "POST", headers: { "content-type": "application/json", origin } })
    expect(await (api(serverCall, options) as Visits).visit(10)).toMatchObject({ email: alice.email, count: 15 })
    // Another browser, signed out, is not Alice.
    expect(await (api(request("/dashboard"), options) as Visits).visit(1)).toBeNull()
  })

  it("passes the core the configuration SolidAuth uses: another prefix is kept", async () => {
    const options = databaseOptions({ prefix: "/my/auth" })
    const jar = new CookieJar()
    await signInAlice(SolidAuth(options), jar, "/my/auth")
    expect(await (api(request("/", { jar }), options) as Visits).visit(1)).toMatchObject({ email: alice.email, count: 1 })
    expect(() => api(request("/"), config({ prefix: "no-slash" }))).toThrow(TypeError)
  })

  it("lets the core's TypeError through for a name no plugin has", async () => {
    await expect(api(request("/"), databaseOptions()).nothingLikeThis!()).rejects.toThrow(/no plugin has a server function "nothingLikeThis"/i)
    await expect(api(request("/"), databaseOptions()).nothingLikeThis!()).rejects.toBeInstanceOf(TypeError)
  })

  it("throws MissingAdapterMethods for a plugin that is off (an adapter without a store)", async () => {
    const { store: _store, ...withoutStore } = MemoryAdapter()
    const options = databaseOptions({ adapter: withoutStore })
    const jar = new CookieJar()
    // The rest of Sesame works: Alice signs in, with a database session.
    await signInAlice(SolidAuth(options), jar)
    expect(jar.cookies.has("sesame.session-token")).toBe(true)
    await expect((api(request("/", { jar }), options) as Visits).visit(1)).rejects.toMatchObject({ type: "MissingAdapterMethods", message: expect.stringContaining('Plugin "visits" is off') })
  })
})

describe("README example: plugins", () => {
  const readme = join(import.meta.dirname, "..", "README.md")
  const scratch = join(import.meta.dirname, ".scratch", "plugin-api")

  beforeAll(() => {
    mkdirSync(scratch, { recursive: true })
    vi.stubEnv("AUTH_SECRET", "readme-secret-0123456789-abcdefghijklmnop")
  })
  afterAll(() => {
    vi.unstubAllEnvs()
  })

  it("greets the signed-in user from a server function, and answers null when signed out", async () => {
    writeFileSync(join(scratch, "auth.ts"), readmeExample(readme, "plugins-auth"))
    writeFileSync(join(scratch, "greeting.ts"), readmeExample(readme, "plugins-call").replaceAll('"~/lib/auth"', '"./auth.ts"'))
    const { authConfig } = (await import(join(scratch, "auth.ts"))) as { authConfig: SolidAuthConfig }
    const { greet } = (await import(join(scratch, "greeting.ts"))) as { greet(): Promise<string | null> }
    const inRequest = <T>(req: Request, fn: () => Promise<T>) =>
      provideRequestEvent({ ...event(req), locals: {}, response: { headers: new Headers() } } as unknown as Parameters<typeof provideRequestEvent>[0], fn)

    expect(await inRequest(request("/"), greet)).toBeNull()
    const handlers = SolidAuth(authConfig)
    const jar = new CookieJar()
    const { csrfToken } = (await (await call(handlers, "/api/auth/csrf", { jar })).json()) as { csrfToken: string }
    await call(handlers, "/api/auth/callback/credentials", { jar, form: { csrfToken, email: "ada@example.com", password: "analytical engine" } })
    expect(await inRequest(request("/", { jar }), greet)).toBe("Hello, Ada!")
  })
})
