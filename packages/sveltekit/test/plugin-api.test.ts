/**
 * `api(event)` of `SvelteKitAuth`: the plugins' server functions for the request SvelteKit is
 * handling. The events are made here (a request, its URL, `locals`, and `event.cookies` as
 * SvelteKit keeps them: the request's, with those set during the request in their place) and go
 * through the real `handle`: Alice signs in through the endpoints it serves, then a `load` or an
 * action calls a test plugin's function. It acts for the request's user (null when signed out, and
 * after a sign-out in the same request; Alice after a sign-in in it), with the configuration of
 * `handle` or, without the hook, the one given; a name no plugin has is the core's `TypeError`; a
 * plugin that is off (an adapter without a `store`) throws `MissingAdapterMethods`. The README's
 * example is extracted and run.
 */
import { mkdirSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import type { AuthConfig, ModuleRequest, SesameModule } from "@sesame/core"
import { MemoryAdapter } from "@sesame/core/adapters"
import type { Cookies, Handle, RequestEvent } from "@sveltejs/kit"
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest"
import { readmeExample } from "@sesame/testing"
import { SvelteKitAuth, type ServerFunctionsOf, type SvelteKitAuthConfig } from "../src/index.js"
import { aliceCredentials, CookieJar, origin, request, secret, users, type RequestOptions } from "../../core/test/helpers.js"
import { visits } from "../../core/test/fixtures/visits-plugin.js"


/** A plugin that stores nothing: who the request's user is. */
const whoami = {
  id: "whoami",
  api: {
    async whoami(request: ModuleRequest) {
      return (await request.user())?.email ?? null
    },
  },
} as const satisfies SesameModule

type Visits = ServerFunctionsOf<typeof visits>
type Whoami = ServerFunctionsOf<typeof whoami>

/** Database sessions in memory, Alice created on her first sign-in, the plugin listed. */
function databaseConfig(adapter: AuthConfig["adapter"] = MemoryAdapter()): SvelteKitAuthConfig {
  return { secret, adapter, session: { strategy: "database" }, providers: [aliceCredentials({ createUser: true })], plugins: [visits] }
}

/** JWT sessions without an adapter: a plugin that stores nothing is on. */
const jwtConfig: SvelteKitAuthConfig = { secret, providers: [aliceCredentials()], plugins: [whoami] }

/** The cookies set through each event's `event.cookies`, which SvelteKit adds to the response. */
const setDuring = new WeakMap<RequestEvent, Map<string, string>>()

/** `event.cookies` as SvelteKit keeps them: the request's cookies, with those set during the request (`set`) in their place. */
function kitCookies(request: Request, set: Map<string, string>): Cookies {
  const sent = new Map<string, string>()
  for (const pair of (request.headers.get("cookie") ?? "").split(";")) {
    const eq = pair.indexOf("=")
    if (eq > 0) sent.set(pair.slice(0, eq).trim(), decodeURIComponent(pair.slice(eq + 1).trim()))
  }
  return {
    get: (name) => (set.has(name) ? set.get(name) : sent.get(name)),
    getAll: () => [...new Map([...sent, ...set])].map(([name, value]) => ({ name, value })),
    set: (name, value) => void set.set(name, value),
    delete: (name) => void set.set(name, ""),
    serialize: () => {
      throw new Error("not used")
    },
  }
}

/** A SvelteKit event for `path`, as far as the package reads it. */
function kitEvent(path: string, options: RequestOptions = {}): RequestEvent {
  const built = request(path, options)
  const set = new Map<string, string>()
  const event = { request: built, url: new URL(built.url), locals: {}, cookies: kitCookies(built, set), params: {}, route: { id: null } } as unknown as RequestEvent
  setDuring.set(event, set)
  return event
}

/**
 * `path` through `handle`, `route` answering what is not an endpoint with its JSON; the cookies
 * of the answer, and those set through `event.cookies`, into `options.jar`.
 */
async function through(handle: Handle, path: string, route: (event: RequestEvent) => Promise<unknown>, options: RequestOptions = {}): Promise<Response> {
  const event = kitEvent(path, options)
  const response = await handle({ event, resolve: async (resolved) => Response.json(await route(resolved)) })
  options.jar?.apply(response)
  for (const [name, value] of setDuring.get(event)!) {
    if (value === "") options.jar?.cookies.delete(name)
    else options.jar?.cookies.set(name, encodeURIComponent(value))
  }
  return response
}

const notAnEndpoint = () => Promise.reject(new Error("the endpoints are the hook's own"))

/** Alice signed in through the credentials endpoint `handle` serves; her cookies in `jar`. */
async function signInAlice(handle: Handle, jar: CookieJar): Promise<void> {
  const { csrfToken } = (await (await through(handle, "/auth/csrf", notAnEndpoint, { jar })).json()) as { csrfToken: string }
  const form = { csrfToken, username: "alice", password: users.alice.password }
  const response = await through(handle, "/auth/callback/credentials", notAnEndpoint, { jar, form, headers: { origin } })
  expect(response.status).toBe(302)
  expect(jar.cookies.has("sesame.session-token")).toBe(true)
}

/** Runs `fn` and answers what it threw as `{ type, name, message }`. */
async function caught(fn: () => Promise<unknown>): Promise<unknown> {
  return fn().then(
    () => "resolved",
    (error: Error & { type?: string }) => ({ type: error.type ?? null, name: error.name, message: error.message }),
  )
}

const sameOrigin = { origin, "sec-fetch-site": "same-origin" }

describe("api(event) of SvelteKitAuth", () => {
  it("acts for the request's signed-in user, in a load and in an action, and answers null without a session", async () => {
    const { handle, api } = SvelteKitAuth(databaseConfig())
    const load = (event: RequestEvent) => (api(event) as Visits).visit(Number(event.url.searchParams.get("by") ?? 1))
    expect(await (await through(handle, "/dashboard?by=1", load)).json()).toBeNull()
    const jar = new CookieJar()
    await signInAlice(handle, jar)
    expect(await (await through(handle, "/dashboard?by=2", load, { jar })).json()).toEqual({ email: users.alice.email, count: 2, url: `${origin}/dashboard?by=2` })
    expect(await (await through(handle, "/dashboard?by=3", load, { jar })).json()).toMatchObject({ email: users.alice.email, count: 5 })
    // A form action that read its form first: the function still reads the browser's session.
    const action = async (event: RequestEvent) => (api(event) as Visits).visit(Number((await event.request.formData()).get("by")))
    const posted = await through(handle, "/dashboard?/visit", action, { jar, form: { by: "10" }, headers: sameOrigin })
    expect(await posted.json()).toMatchObject({ email: users.alice.email, count: 15 })
    // Another browser, signed out, is not Alice.
    expect(await (await through(handle, "/dashboard", load)).json()).toBeNull()
  })

  it("reads the request as locals.auth() does after a sign-in or a sign-out in the same request", async () => {
    const { handle, api, signIn, signOut } = SvelteKitAuth(jwtConfig)
    const signingIn = async (event: RequestEvent) => {
      await signIn(event, "credentials", { username: "alice", password: users.alice.password, redirect: false })
      return { api: await (api(event) as Whoami).whoami(), locals: (await event.locals.auth())?.user?.email ?? null }
    }
    const jar = new CookieJar()
    expect(await (await through(handle, "/login", signingIn, { jar, form: {}, headers: sameOrigin })).json()).toEqual({ api: users.alice.email, locals: users.alice.email })
    expect(await (await through(handle, "/", (event) => (api(event) as Whoami).whoami(), { jar })).json()).toBe(users.alice.email)
    // A JWT stays valid in the request's cookie: the functions must not read it after the sign-out.
    const signingOut = async (event: RequestEvent) => {
      await signOut(event, { redirect: false })
      return { api: await (api(event) as Whoami).whoami(), locals: await event.locals.auth() }
    }
    expect(await (await through(handle, "/logout", signingOut, { jar, form: {}, headers: sameOrigin })).json()).toEqual({ api: null, locals: null })
  })

  it("works without the hook, with the configuration given (a lazy one run for the event)", async () => {
    const config = databaseConfig()
    const { handle } = SvelteKitAuth(config)
    const jar = new CookieJar()
    await signInAlice(handle, jar)
    const { api } = SvelteKitAuth(config)
    expect(await (api(kitEvent("/dashboard", { jar })) as Visits).visit(1)).toMatchObject({ email: users.alice.email, count: 1 })
    const lazy = vi.fn((_event: RequestEvent) => config)
    const event = kitEvent("/dashboard", { jar })
    expect(await (SvelteKitAuth(lazy).api(event) as Visits).visit(1)).toMatchObject({ count: 2 })
    expect(lazy).toHaveBeenCalledWith(event)
  })

  it("lets the core's TypeError through for a name no plugin has", async () => {
    const { handle, api } = SvelteKitAuth(databaseConfig())
    const answer = await through(handle, "/", (event) => caught(() => api(event).nothingLikeThis!()))
    expect(await answer.json()).toMatchObject({ name: "TypeError", message: expect.stringMatching(/no plugin has a server function "nothingLikeThis"/i) })
  })

  it("throws MissingAdapterMethods for a plugin that is off (an adapter without a store)", async () => {
    const { store: _store, ...withoutStore } = MemoryAdapter()
    const { handle, api } = SvelteKitAuth(databaseConfig(withoutStore))
    const jar = new CookieJar()
    // The rest of Sesame works: Alice signs in, with a database session.
    await signInAlice(handle, jar)
    const answer = await through(handle, "/", (event) => caught(() => (api(event) as Visits).visit(1)), { jar })
    expect(await answer.json()).toMatchObject({ type: "MissingAdapterMethods", message: expect.stringContaining('Plugin "visits" is off') })
  })
})

describe("README example: plugins", () => {
  const readmeFile = join(import.meta.dirname, "..", "README.md")
  const scratch = join(import.meta.dirname, ".scratch", "plugin-api")

  beforeAll(() => {
    mkdirSync(join(scratch, "routes"), { recursive: true })
    vi.stubEnv("AUTH_SECRET", "readme-secret-0123456789-abcdefghijklmnop")
  })
  afterAll(() => {
    vi.unstubAllEnvs()
  })

  it("greets the signed-in user in a load, and answers null when signed out", async () => {
    writeFileSync(join(scratch, "auth.ts"), readmeExample(readmeFile, "plugins-auth"))
    writeFileSync(join(scratch, "routes", "+page.server.ts"), readmeExample(readmeFile, "plugins-load").replace('from "../auth"', 'from "../auth.ts"'))
    const { handle } = (await import(join(scratch, "auth.ts"))) as { handle: Handle }
    const { load } = (await import(join(scratch, "routes", "+page.server.ts"))) as { load: (event: RequestEvent) => Promise<unknown> }
    expect(await (await through(handle, "/", load)).json()).toEqual({ greeting: null })
    const jar = new CookieJar()
    const { csrfToken } = (await (await through(handle, "/auth/csrf", notAnEndpoint, { jar })).json()) as { csrfToken: string }
    await through(handle, "/auth/callback/credentials", notAnEndpoint, { jar, form: { csrfToken, email: "demo@example.com", password: "sesame-demo" }, headers: { origin } })
    expect(await (await through(handle, "/", load, { jar })).json()).toEqual({ greeting: "Hello, Demo User!" })
  })
})
