/**
 * The plugin API through the endpoints: a module's configuration checked, its endpoints behind the
 * dispatcher's checks (same origin, CSRF), its answers kept on the app's origin and out of caches,
 * its event handlers unable to change a sign-in.
 */
import { Auth, callModuleApi, type AuthConfig, type SesameModule } from "@sesame/core"
import { MemoryAdapter } from "@sesame/core/adapters"
import { describe, expect, it } from "vitest"
import { CookieJar, aliceCredentials, csrfToken, frozenClock, origin, recordingLogger, secret, send, signInAlice } from "../helpers.js"

function config(plugins: SesameModule[], overrides: Partial<AuthConfig> = {}): AuthConfig {
  return { secret, trustHost: true, providers: [aliceCredentials()], plugins, ...overrides }
}

const echo: SesameModule = {
  id: "echo",
  routes: {
    "GET echo": { run: async (request) => ({ body: { user: (await request.user())?.email ?? null, q: request.query.q ?? null, url: request.url.href } }) },
    "POST echo/form": { run: (request) => ({ body: { said: request.body.said ?? null } }) },
    "POST echo/beacon": { csrf: false, run: () => ({ status: 204 }) },
    "GET echo/away": { run: (request) => ({ redirect: request.query.to ?? "/" }) },
    "GET echo/text": { run: () => ({ body: "<p>plain</p>", headers: { "Content-Type": "text/plain; charset=utf-8" } }) },
  },
}

describe("a plugin's configuration", () => {
  const refused = async (plugins: unknown[]) => {
    const { logger, lines } = recordingLogger()
    const response = await Auth(new Request(`${origin}/auth/session`), config(plugins as SesameModule[], { logger }))
    return { status: response.status, log: lines.join("\n") }
  }

  it("is refused, naming the plugin and the mistake, when its id, paths or names are wrong", async () => {
    expect(await refused([{ id: "Echo" }])).toMatchObject({ status: 500, log: expect.stringMatching(/lowercase/) })
    expect(await refused([{ id: "signin" }])).toMatchObject({ status: 500, log: expect.stringMatching(/"signin" is the path of one of Sesame's endpoints/) })
    expect(await refused([{ id: "two-factor" }])).toMatchObject({ status: 500, log: expect.stringMatching(/path of one of Sesame's endpoints/) })
    expect(await refused([{ id: "echo", routes: { "GET other/path": { run: () => ({}) } } }])).toMatchObject({ status: 500, log: expect.stringMatching(/starting with "echo"/) })
    expect(await refused([{ id: "echo", routes: { "PUT echo": { run: () => ({}) } } }])).toMatchObject({ status: 500 })
    expect(await refused([{ id: "a", api: { same: async () => 1 } }, { id: "b", api: { same: async () => 2 } }])).toMatchObject({ status: 500, log: expect.stringMatching(/"same" is also a's/) })
    expect(await refused([{ id: "a", models: [{ name: "Bad", table: "t", primaryKey: "id", fields: { id: { type: "string" } } }] }])).toMatchObject({ status: 500, log: expect.stringMatching(/camelCase/) })
    expect(await refused([echo])).toMatchObject({ status: 200 })
  })

  it("refuses a model named as the user, a spec table's role, Sesame's own models or an object's property", async () => {
    const model = (name: string, fields: Record<string, unknown> = { id: { type: "string" } }) => [{ id: "p", models: [{ name, table: "p_rows", primaryKey: "id", fields }] }]
    // A model named "user" would make its rows' deletion cascade as if a user were deleted.
    for (const name of ["user", "sessions", "twoFactors", "passwords", "constructor", "toString"]) {
      expect(await refused(model(name))).toMatchObject({ status: 500, log: expect.stringMatching(/choose another/) })
    }
    expect(await refused(model("pRows", { id: { type: "string" }, constructor: { type: "string" } }))).toMatchObject({ status: 500, log: expect.stringMatching(/choose another/) })
  })

  it("of one that stores nothing works without an adapter, and warns of nothing", async () => {
    const { logger, lines } = recordingLogger()
    const response = await send(config([echo], { logger }), "/auth/echo?q=hi")
    expect(await response.json()).toEqual({ user: null, q: "hi", url: `${origin}/auth/echo?q=hi` })
    expect(lines.join("\n")).not.toMatch(/plugin-storage-missing/)
  })
})

describe("a plugin's endpoints", () => {
  it("read the signed-in user, and answer private, uncached JSON, or text as they say", async () => {
    const c = config([echo])
    const jar = new CookieJar()
    await signInAlice(c, jar)
    const response = await send(c, "/auth/echo", { jar })
    expect(await response.json()).toMatchObject({ user: "alice@example.com" })
    expect(response.headers.get("cache-control")).toMatch(/no-store/)
    const text = await send(c, "/auth/echo/text")
    expect(text.headers.get("content-type")).toBe("text/plain; charset=utf-8")
    expect(text.headers.get("x-content-type-options")).toBe("nosniff")
    expect(await text.text()).toBe("<p>plain</p>")
  })

  it("take a POST from the app's own page with the CSRF token, and refuse one from another site or without the token", async () => {
    const c = config([echo])
    const jar = new CookieJar()
    const token = await csrfToken(c, jar)
    const ok = await send(c, "/auth/echo/form", { jar, form: { csrfToken: token, said: "hello" } })
    expect(await ok.json()).toEqual({ said: "hello" })
    const crossSite = await send(c, "/auth/echo/form", { jar, form: { csrfToken: token, said: "x" }, headers: { origin: "https://evil.example", "sec-fetch-site": "cross-site" } })
    expect(crossSite.status).toBe(403)
    const noToken = await send(c, "/auth/echo/form", { jar, form: { said: "x" } })
    expect(noToken.status).toBe(302)
    expect(noToken.headers.get("location")).toContain("error=MissingCSRF")
  })

  it("with csrf: false take a same-origin POST without the token, and still refuse another site's", async () => {
    const c = config([echo])
    expect((await send(c, "/auth/echo/beacon", { form: {} })).status).toBe(204)
    expect((await send(c, "/auth/echo/beacon", { form: {}, headers: { origin: "https://evil.example", "sec-fetch-site": "cross-site" } })).status).toBe(403)
  })

  it("answer 400 to a method they do not serve, and nothing else of Sesame changes", async () => {
    const c = config([echo])
    expect((await send(c, "/auth/echo/form")).status).toBe(400)
    expect((await send(c, "/auth/echo/missing")).status).toBe(400)
    expect((await send(c, "/auth/providers")).status).toBe(200)
  })

  it("that throw answer without the error's text or stack, and the error is logged", async () => {
    const { logger, lines } = recordingLogger()
    const c = config([{ id: "faulty", routes: { "GET faulty": { run: () => { throw new Error("secret detail at /srv/app.js:12") } } } }], { logger })
    const response = await send(c, "/auth/faulty")
    expect(response.status).toBeGreaterThanOrEqual(300)
    const body = await response.text()
    expect(body).not.toContain("secret detail")
    expect(body).not.toMatch(/at .*\.js:\d+/)
    expect(lines.join("\n")).toContain("secret detail")
  })

  it("cannot redirect through a Location header or a 3xx status of their own", async () => {
    const c = config(
      [
        {
          id: "sneaky",
          routes: {
            "GET sneaky": { run: () => ({ status: 302, headers: { Location: "https://evil.example/" } }) },
            "GET sneaky/header": { run: () => ({ headers: { location: "https://evil.example/" }, body: { ok: true } }) },
          },
        },
      ],
      { logger: recordingLogger().logger },
    )
    const status = await send(c, "/auth/sneaky")
    expect(status.headers.get("location") ?? "").not.toContain("evil")
    const header = await send(c, "/auth/sneaky/header")
    expect(header.status).toBe(200)
    expect(header.headers.get("location")).toBeNull()
  })

  it("redirect within the app, and never to another origin", async () => {
    const c = config([echo], { logger: recordingLogger().logger })
    const inside = await send(c, `/auth/echo/away?to=${encodeURIComponent("/dashboard")}`)
    expect(inside.status).toBe(302)
    expect(inside.headers.get("location")).toBe(`${origin}/dashboard`)
    for (const to of ["https://evil.example/", "//evil.example/x", "javascript:alert(1)"]) {
      const away = await send(c, `/auth/echo/away?to=${encodeURIComponent(to)}`)
      expect(away.headers.get("location") ?? "").not.toMatch(/evil|javascript/)
      expect(away.status).toBeGreaterThanOrEqual(300)
    }
  })
})

describe("a plugin's event handlers", () => {
  it("run after the app's, see the sign-in, and cannot stop it by throwing", async () => {
    const order: string[] = []
    const { logger, lines } = recordingLogger()
    const c = config(
      [
        { id: "first", events: { signIn: () => void order.push("first") } },
        { id: "broken", events: { signIn: () => { throw new Error("plugin bug") } } },
        { id: "last", events: { signIn: ({ user }, { store }) => void order.push(`last ${user.email} ${store === undefined}`) } },
      ],
      { logger, events: { signIn: () => void order.push("app") } },
    )
    const jar = new CookieJar()
    const response = await signInAlice(c, jar)
    expect(response.status).toBe(302)
    expect(order).toEqual(["app", "first", "last alice@example.com true"])
    expect(lines.join("\n")).toMatch(/EventError/)
    expect((await (await send(c, "/auth/session", { jar })).json()).user.email).toBe("alice@example.com")
  })

  it("get the adapter's store", async () => {
    const adapter = MemoryAdapter()
    const seen: boolean[] = []
    const c = config([{ id: "probe", events: { signIn: (_, { store }) => void seen.push(store !== undefined) } }], { adapter, providers: [aliceCredentials({ createUser: true })] })
    await signInAlice(c, new CookieJar())
    expect(seen).toEqual([true])
  })
})

describe("a plugin asks whether the sign-in is recent (recentSignIn), before a sensitive action", () => {
  const advance = frozenClock("2026-12-02T10:00:00Z")
  const probe: SesameModule = { id: "probe", api: { recent: (request, maxAge?: number) => request.recentSignIn(maxAge) } }

  it.each(["jwt", "database"] as const)("%s sessions: true after the sign-in, false once session.freshAge has passed or for a visitor", async (strategy) => {
    const c = config([probe], { adapter: MemoryAdapter(), session: { strategy }, providers: [aliceCredentials({ createUser: true })] })
    const jar = new CookieJar()
    const asked = (maxAge?: number, cookie = jar.header()) => callModuleApi(new Request(`${origin}/`, { headers: { cookie } }), c, "recent", maxAge)
    expect(await asked(undefined, "")).toBe(false)
    await signInAlice(c, jar)
    expect(await asked()).toBe(true)
    advance(11 * 60_000)
    expect(await asked()).toBe(false)
    expect(await asked(3600)).toBe(true)
    await expect(asked(-1)).rejects.toThrow(TypeError)
  })
})
