/**
 * The plugin's endpoints in a real Fastify app, over a listening server and through `inject`:
 * under the base path, also inside a prefix; a prefix the base path is not under, a configuration
 * that is not an object, and a `request.session` decorated by another plugin refused when the app
 * loads; bodies as Fastify parses them (JSON, a form with `@fastify/formbody`) or leaves them to the
 * core (a form without it), with a doubled field, a nested value and another site's post refused
 * with a 4xx and broken JSON answered by Fastify; and the headers the app's hooks set kept on the
 * core's answers.
 */
import formbody from "@fastify/formbody"
import Fastify from "fastify"
import fastifyPlugin from "fastify-plugin"
import { describe, expect, it } from "vitest"
import { sesame } from "@sesame/fastify"
import { alice, appWith, config, CookieJar, csrfOf, send, signInAlice, transports, type Served } from "./helpers.js"

/** A configuration whose session update (`POST /auth/session` with `{ data: { name } }`) renames the user. */
function renamable() {
  return config({ callbacks: { jwt: ({ token, trigger, session }) => (trigger === "update" ? { ...token, name: (session as { name: string }).name } : token) } })
}

/** Renames the signed-in user with a JSON post to the session endpoint; the name the answer carries. */
async function renameThroughJson(served: Served, jar: CookieJar, name: string): Promise<string> {
  const updated = await send(served, "/auth/session", { jar, json: { csrfToken: await csrfOf(served, jar), data: { name } } })
  return ((await updated.json()) as { user: { name: string } }).user.name
}

describe.each(transports)("the sesame plugin, reached by $label", ({ serve }) => {
  it("serves every endpoint under the base path: providers, csrf, a credentials sign-in, the session, sign-out", async () => {
    const served = await serve(await appWith(config()))
    const providers = (await (await send(served, "/auth/providers")).json()) as Record<string, { callbackUrl: string }>
    expect(providers.credentials?.callbackUrl).toBe(`${served.origin}/auth/callback/credentials`)

    const jar = new CookieJar()
    const signedIn = await signInAlice(served, jar)
    expect(signedIn.status).toBe(302)
    expect(jar.cookies.has("sesame.session-token")).toBe(true)
    const session = (await (await send(served, "/auth/session", { jar })).json()) as { user: { email: string } }
    expect(session.user.email).toBe(alice.email)

    await send(served, "/auth/signout", { jar, form: { csrfToken: await csrfOf(served, jar) } })
    expect(jar.cookies.has("sesame.session-token")).toBe(false)
    expect(await (await send(served, "/auth/session", { jar })).json()).toBeNull()
  })

  it("leaves the rest of the app to Fastify: its routes, and its 404", async () => {
    const app = await appWith(config())
    app.get("/", async () => "the app")
    const served = await serve(app)
    expect(await (await send(served, "/")).text()).toBe("the app")
    expect((await send(served, "/auth/providers")).status).toBe(200)
    const missing = await send(served, "/elsewhere")
    expect(missing.status).toBe(404)
    expect(await missing.json()).toMatchObject({ statusCode: 404 })
  })

  it("answers HEAD as the core does", async () => {
    const served = await serve(await appWith(config()))
    const head = await send(served, "/auth/providers", { method: "HEAD" })
    expect(head.status).toBe(200)
    expect(await head.text()).toBe("")
  })

  it("puts the endpoints at the base path when registered inside a prefix", async () => {
    const app = Fastify()
    await app.register(async (api) => {
      await api.register(sesame, { config: config({ basePath: "/api/auth" }) })
    }, { prefix: "/api" })
    const served = await serve(app)
    const jar = new CookieJar()
    expect((await signInAlice(served, jar, "/api/auth")).status).toBe(302)
    expect(((await (await send(served, "/api/auth/session", { jar })).json()) as { user: { name: string } }).user.name).toBe(alice.name)
  })

  it("keeps the headers the app's hooks set on the core's answers; the core's own replace those of the same name", async () => {
    const app = await appWith(config())
    app.addHook("onRequest", async (_request, reply) => {
      reply.header("x-frame-options", "DENY").header("cache-control", "public, max-age=600")
    })
    const served = await serve(app)
    const session = await send(served, "/auth/session")
    expect(session.headers.get("x-frame-options")).toBe("DENY")
    // The session depends on the visitor's cookies: the core's Cache-Control, never the hook's.
    expect(session.headers.get("cache-control")).toBe("private, no-cache, no-store")
  })

  describe("bodies", () => {
    it.each([
      ["no form parser: the core reads the form itself; Fastify parses the JSON, and the core takes it", false],
      ["@fastify/formbody registered before the plugin: the core takes the form it parsed, and the JSON", true],
    ] as const)("%s", async (_label, withFormbody) => {
      const app = Fastify()
      if (withFormbody) await app.register(formbody)
      await app.register(sesame, { config: renamable() })
      const served = await serve(app)
      const jar = new CookieJar()
      // A form (the credentials sign-in), then JSON (the session update).
      expect((await signInAlice(served, jar)).headers.get("location")).not.toContain("error")
      expect(jar.cookies.has("sesame.session-token")).toBe(true)
      expect(await renameThroughJson(served, jar, "Alice Updated")).toBe("Alice Updated")
    })

    it.each([false, true])("with @fastify/formbody: %s, a doubled field and another site's post are refused with a 4xx, a nested value is no sign-in, never a 500", async (withFormbody) => {
      const app = Fastify()
      if (withFormbody) await app.register(formbody)
      await app.register(sesame, { config: config() })
      const served = await serve(app)
      const jar = new CookieJar()
      const csrfToken = await csrfOf(served, jar)
      const body = `csrfToken=${csrfToken}&csrfToken=x&username=alice&password=${encodeURIComponent(alice.password)}`
      const doubled = await send(served, "/auth/callback/credentials", { jar, body, headers: { "content-type": "application/x-www-form-urlencoded" } })
      expect(doubled.status).toBe(400)
      // A nested value is no text: the credentials are refused, as the core refuses them.
      const nested = await send(served, "/auth/callback/credentials", { jar, json: { csrfToken, username: { a: "alice" }, password: alice.password } })
      expect(nested.status).toBeLessThan(500)
      expect(nested.headers.get("location")).toContain("error=CredentialsSignin")
      const crossSite = await send(served, "/auth/callback/credentials", { jar, form: { csrfToken, username: "alice", password: alice.password }, headers: { origin: "https://evil.example" } })
      expect(crossSite.status).toBe(403)
      expect(jar.cookies.has("sesame.session-token")).toBe(false)
    })

    it("answers broken JSON as Fastify does (400 with its error code), before the core", async () => {
      const served = await serve(await appWith(config()))
      const broken = await send(served, "/auth/session", { body: '{"csrfToken":', headers: { "content-type": "application/json" } })
      expect(broken.status).toBe(400)
      expect(((await broken.json()) as { code: string }).code).toMatch(/^FST_/)
    })

    it("leaves the app's own routes to Fastify's parsing: a form without a parser is still Fastify's 415 there", async () => {
      const app = await appWith(config())
      app.post("/app-form", async (request) => request.body)
      const served = await serve(app)
      expect((await send(served, "/app-form", { form: { a: "1" } })).status).toBe(415)
      expect((await send(served, "/auth/csrf", { form: { a: "1" } })).status).not.toBe(415)
    })
  })
})

describe("the sesame plugin, refused when the app loads", () => {
  it("a prefix the base path is not under, naming both and the fix", async () => {
    const app = Fastify()
    const loading = app.register(async (scope) => {
      await scope.register(sesame, { config: config() })
    }, { prefix: "/login" })
    const error = await Promise.resolve(loading).then(() => null, (caught: unknown) => caught as Error)
    expect(error).toBeInstanceOf(TypeError)
    expect(error!.message).toContain(`registered under the prefix "/login", but Sesame's base path is "/auth"`)
    expect(error!.message).toContain(`basePath: "/login/auth"`)
  })

  it("a configuration that is not an object", async () => {
    const app = Fastify()
    await expect(app.register(sesame, { config: undefined as never })).rejects.toThrow(TypeError)
  })

  it("a request.session decorated already (by @fastify/session or the like)", async () => {
    const app = Fastify()
    await app.register(fastifyPlugin(async (instance) => void instance.decorateRequest("session", null)))
    await expect(app.register(sesame, { config: config() })).rejects.toThrow(/decorated already/)
  })
})
