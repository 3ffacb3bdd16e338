/**
 * SesameAuth: the endpoints mounted in a real Express app (5 and 4), served over HTTP: under the
 * base path or at the root, with or without body parsers before it (which open nothing to a nested
 * or doubled field or another site's post), and a mount path that does not match the base path
 * refused with an error that says how to fix it.
 */
import type { ErrorRequestHandler } from "express"
import { describe, expect, it } from "vitest"
import { SesameAuth } from "@sesame/express"
import { alice, config, CookieJar, csrfOf, send, serve, signInAlice, versions, type Served } from "./helpers.js"

/** An error handler that answers with the error's message, as an app's own would show it. */
const showError: ErrorRequestHandler = (error: Error, _req, res, _next) => {
  res.status(500).json({ name: error.name, message: error.message })
}

/** A configuration whose session update (`POST /auth/session` with `{ data: { name } }`) renames the user. */
function renamable() {
  return config({ callbacks: { jwt: ({ token, trigger, session }) => (trigger === "update" ? { ...token, name: (session as { name: string }).name } : token) } })
}

/** Renames the signed-in user with a JSON post to the session endpoint; the name the answer carries. */
async function renameThroughJson(served: Served, jar: CookieJar, name: string): Promise<string> {
  const updated = await send(served, "/auth/session", { jar, json: { csrfToken: await csrfOf(served, jar), data: { name } } })
  return ((await updated.json()) as { user: { name: string } }).user.name
}

describe.each(versions)("SesameAuth on $label", ({ express }) => {
  it("serves every endpoint under the base path: providers, csrf, a credentials sign-in, the session, sign-out", async () => {
    const app = express()
    app.use("/auth", SesameAuth(config()))
    const served = await serve(app)
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

  it("passes the rest of the app on when mounted at the root", async () => {
    const app = express()
    app.use(SesameAuth(config()))
    app.get("/", (_req, res) => {
      res.send("the app")
    })
    const served = await serve(app)
    expect(await (await send(served, "/")).text()).toBe("the app")
    expect((await send(served, "/auth/providers")).status).toBe(200)
    expect((await send(served, "/elsewhere")).status).toBe(404)
  })

  it("honours basePath in a nested router", async () => {
    const api = express.Router()
    api.use("/auth", SesameAuth(config({ basePath: "/api/auth" })))
    const app = express()
    app.use("/api", api)
    const served = await serve(app)
    const jar = new CookieJar()
    expect((await signInAlice(served, jar, "/api/auth")).status).toBe(302)
    expect(((await (await send(served, "/api/auth/session", { jar })).json()) as { user: { name: string } }).user.name).toBe(alice.name)
  })

  it("reports a mount path that is not the base path to the app's error handler, naming both", async () => {
    const app = express()
    app.use("/login", SesameAuth(config()))
    app.use(showError)
    const served = await serve(app)
    const response = await send(served, "/login/session")
    expect(response.status).toBe(500)
    const error = (await response.json()) as { name: string; message: string }
    expect(error.name).toBe("TypeError")
    expect(error.message).toContain(`mounted at "/login", but Sesame's base path is "/auth"`)
    expect(error.message).toContain(`basePath: "/login"`)
  })

  it("takes the mount path as matched, whatever its case", async () => {
    const app = express()
    app.use("/auth", SesameAuth(config()))
    app.use(showError)
    const served = await serve(app)
    // Express matched "/AUTH" to the mount; the core's base path is "/auth", so the request is not its.
    expect((await send(served, "/AUTH/providers")).status).toBe(404)
  })

  it("refuses a configuration that is not an object when it is made", () => {
    expect(() => SesameAuth(undefined as never)).toThrow(TypeError)
  })

  describe("bodies", () => {
    it.each([
      ["no parser: it parses its own", []],
      ["express.urlencoded() and express.json() before it: it takes what they left", ["urlencoded", "json"]],
      ["only express.urlencoded() before it: it reads the JSON body itself (Express 4 leaves req.body = {})", ["urlencoded"]],
    ] as const)("%s", async (_label, parsers) => {
      const app = express()
      for (const parser of parsers) app.use(parser === "json" ? express.json() : express.urlencoded({ extended: false }))
      app.use("/auth", SesameAuth(renamable()))
      const served = await serve(app)
      const jar = new CookieJar()
      // A form (the credentials sign-in), then JSON (the session update).
      expect((await signInAlice(served, jar)).headers.get("location")).not.toContain("error")
      expect(jar.cookies.has("sesame.session-token")).toBe(true)
      expect(await renameThroughJson(served, jar, "Alice Updated")).toBe("Alice Updated")
    })

    it("with a parser before it (qs), a nested field, a doubled CSRF token and another site's post are refused with a 4xx, never a 500", async () => {
      const app = express()
      app.use(express.urlencoded({ extended: true }))
      app.use("/auth", SesameAuth(config()))
      const served = await serve(app)
      const jar = new CookieJar()
      const csrfToken = await csrfOf(served, jar)
      const nested = await send(served, "/auth/callback/credentials", { jar, form: { csrfToken, "username[a]": "alice", password: alice.password } })
      expect(nested.status).toBe(400)
      // qs makes a repeated field an array: refused as the core refuses a repeated field.
      const body = `csrfToken=${csrfToken}&csrfToken=x&username=alice&password=${encodeURIComponent(alice.password)}`
      const doubled = await send(served, "/auth/callback/credentials", { jar, body, headers: { "content-type": "application/x-www-form-urlencoded" } })
      expect(doubled.status).toBe(400)
      const crossSite = await send(served, "/auth/callback/credentials", { jar, form: { csrfToken, username: "alice", password: alice.password }, headers: { origin: "https://evil.example" } })
      expect(crossSite.status).toBe(403)
      expect(jar.cookies.has("sesame.session-token")).toBe(false)
    })
  })
})
