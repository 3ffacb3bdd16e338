/**
 * Every endpoint while the storage cannot be reached, through `Auth()` with an adapter that fails
 * as a driver does when its server restarts (`@sesame/testing`'s `outage`): `503` with
 * `Retry-After`, no cookie set or cleared, nothing of the driver's error in the body; the
 * unavailable page for a browser, JSON for a script; the session as it was once the storage is back.
 */
import type { AuthConfig } from "@sesame/core"
import { Auth } from "@sesame/core"
import { MemoryAdapter } from "@sesame/core/adapters"
import { StorageUnavailable } from "@sesame/core/errors"
import { isStorageUnavailable, readSession, unavailableAnswer } from "@sesame/core/integration"
import { argon2id } from "@sesame/core/password"
import Email from "@sesame/core/providers/email"
import Password from "@sesame/core/providers/password"
import { checkUnavailable, connectionRefused, outage } from "@sesame/testing"
import { describe, expect, it, vi } from "vitest"
import { aliceCredentials, CookieJar, csrfToken, emailLinkConfig, origin, recordingLogger, request, secret, send, signInAlice } from "../helpers.js"

const html = { accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8" }

function setup(strategy: "database" | "jwt" = "database") {
  const storage = outage(MemoryAdapter())
  const log = recordingLogger()
  const config: AuthConfig = {
    secret,
    trustHost: true,
    adapter: storage.adapter,
    session: { strategy },
    providers: [
      aliceCredentials({ createUser: true }),
      Email({ sendVerificationRequest: () => {} }),
      Password({ sendEmail: () => {}, hasher: argon2id({ memoryCost: 64, timeCost: 1 }) }),
    ],
    logger: log.logger,
  }
  return { storage, config, log }
}

/** Sesame's 503 (see `checkUnavailable`): the page or JSON; its body. */
async function expectUnavailable(response: Response, kind: "page" | "json"): Promise<string> {
  const { problems, body } = await checkUnavailable(response, kind)
  expect(problems).toEqual([])
  return body
}

describe("while the storage is down", () => {
  it("a live database session reads as 503, never as signed out, and is there again afterwards", async () => {
    const { storage, config } = setup()
    const jar = new CookieJar()
    await signInAlice(config, jar)
    const before = await (await send(config, "/auth/session", { jar })).json()
    expect(before.user.name).toBe("Alice")

    storage.down()
    await expectUnavailable(await send(config, "/auth/session", { jar }), "json")
    expect(jar.get("sesame.session-token")).toBeDefined()

    storage.up()
    const after = await send(config, "/auth/session", { jar })
    expect(after.status).toBe(200)
    expect((await after.json()).user).toEqual(before.user)
  })

  it("each endpoint that needs the storage answers 503, as a page to a browser and as JSON to a script", async () => {
    const { storage, config } = setup()
    const jar = new CookieJar()
    await signInAlice(config, jar)
    const csrf = await csrfToken(config, jar)
    storage.down()
    const posts: [string, Record<string, string>][] = [
      ["/auth/signout", {}],
      ["/auth/signin/email", { email: "bob@example.com" }],
      ["/auth/callback/credentials", { username: "alice", password: "correct horse" }],
      ["/auth/callback/password", { email: "ada@example.com", password: "a long enough password" }],
      ["/auth/signup/password", { email: "ada@example.com", password: "a long enough password", name: "Ada" }],
      ["/auth/forgot-password/password", { email: "ada@example.com" }],
    ]
    for (const [path, form] of posts) {
      await expectUnavailable(await send(config, path, { jar, form: { csrfToken: csrf, ...form }, headers: html }), "page")
      await expectUnavailable(await send(config, path, { jar, form: { csrfToken: csrf, ...form } }), "json")
    }
    await expectUnavailable(await send(config, "/auth/session", { jar, json: { csrfToken: csrf, data: { name: "A" } } }), "json")
    // The email link's page asks for a click first (no storage yet); the click is what needs it.
    const link = "/auth/callback/email?token=abc&email=bob%40example.com"
    expect((await send(config, link, { jar, headers: html })).status).toBe(200)
    await expectUnavailable(await send(config, link, { jar, form: { csrfToken: csrf, token: "abc", email: "bob@example.com" }, headers: html }), "page")
    // After a posted form, "Try again" goes back to the sign-in page: a link cannot post it again.
    const posted = await expectUnavailable(await send(config, "/auth/callback/credentials", { jar, form: { csrfToken: csrf, username: "alice", password: "correct horse" }, headers: html }), "page")
    expect(posted).toContain(`href="${origin}/auth/signin`)
    // The client's signIn() asks for redirects as JSON: it gets JSON.
    const client = await send(config, "/auth/signin/email", { jar, form: { csrfToken: csrf, email: "bob@example.com" }, headers: { ...html, "x-auth-return-redirect": "1" } })
    await expectUnavailable(client, "json")

    // The session lived through all of it, sign-out included.
    storage.up()
    expect((await (await send(config, "/auth/session", { jar })).json()).user.name).toBe("Alice")
  })

  it("what needs no storage goes on: the CSRF token, the providers, the sign-in page", async () => {
    const { storage, config } = setup()
    storage.down()
    expect((await send(config, "/auth/csrf")).status).toBe(200)
    expect((await send(config, "/auth/providers")).status).toBe(200)
    expect((await send(config, "/auth/signin", { headers: html })).status).toBe(200)
    expect(storage.refused.size).toBe(0)
  })

  it("the page is in the visitor's language", async () => {
    const { storage, config } = setup()
    storage.down()
    const jar = new CookieJar()
    const csrf = await csrfToken(config, jar)
    const response = await send(config, "/auth/signin/email", { jar, form: { csrfToken: csrf, email: "bob@example.com" }, headers: { ...html, "accept-language": "de-DE,de;q=0.9" } })
    expect(response.status).toBe(503)
    expect(response.headers.get("content-language")).toBe("de")
    expect(await response.text()).toContain("Gleich noch einmal versuchen")
  })

  it("JWT sessions are read without the storage", async () => {
    const { storage, config } = setup("jwt")
    const jar = new CookieJar()
    await signInAlice(config, jar)
    storage.down()
    const response = await send(config, "/auth/session", { jar })
    expect(response.status).toBe(200)
    expect((await response.json()).user.name).toBe("Alice")
  })

  it("an integration's session read throws StorageUnavailable, and its answer is the 503", async () => {
    const { storage, config } = setup()
    const jar = new CookieJar()
    await signInAlice(config, jar)
    storage.down()
    const page = request("/account", { jar, headers: html })
    const error = await readSession(config, page).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(StorageUnavailable)
    expect(isStorageUnavailable(error)).toBe(true)
    const answer = unavailableAnswer(config, page, error as StorageUnavailable)
    expect(answer.status).toBe(503)
    expect(answer.headers["Retry-After"]).toBe("3")
    expect(answer.body).toContain('href="/account"')
    const api = unavailableAnswer(config, request("/api/me", { headers: { accept: "application/json" } }), error as StorageUnavailable)
    expect(JSON.parse(api.body)).toMatchObject({ error: "StorageUnavailable" })
    storage.up()
    expect((await readSession(config, request("/account", { jar }))).session?.user?.name).toBe("Alice")
  })
})

describe("the log", () => {
  it("one line when the outage begins and one when it ends, however many requests failed", async () => {
    const { storage, config, log } = setup()
    const jar = new CookieJar()
    await signInAlice(config, jar)
    storage.down()
    for (let i = 0; i < 5; i++) expect((await send(config, "/auth/session", { jar })).status).toBe(503)
    storage.up()
    expect((await send(config, "/auth/session", { jar })).status).toBe(200)
    expect((await send(config, "/auth/session", { jar })).status).toBe(200)
    expect(log.lines.filter((line) => line.startsWith("StorageUnavailable"))).toHaveLength(1)
    expect(log.lines.filter((line) => line === "storage-available-again")).toHaveLength(1)
    expect(log.lines.join("\n")).not.toMatch(/SessionTokenError|CallbackRouteError/)
  })

  it("an app's callback that reaches the same storage itself adds no line to the outage; first, it is the outage's line", async () => {
    // What the soak's app does: its session callback reads the store through the adapter object it
    // holds, not through Sesame, so its failure never passes through Sesame's outage tracking.
    function appReadingTheStore() {
      const app = setup("jwt")
      app.config.callbacks = {
        async session({ session, token }) {
          await app.storage.adapter.getUser!(token.sub!)
          return session
        },
      }
      return app
    }
    const lines = (log: { lines: string[] }) => log.lines.filter((line) => line.startsWith("StorageUnavailable"))

    // Before Sesame itself met the outage, the callback's failure is the only word of it: logged.
    const alone = appReadingTheStore()
    const jar = new CookieJar()
    await signInAlice(alone.config, jar)
    alone.storage.down()
    expect((await send(alone.config, "/auth/session", { jar })).status).toBe(503)
    expect(lines(alone.log)).toHaveLength(1)
    // Sesame's own operation then meets the same outage: no second line, and its end is logged once.
    const aloneForm = { csrfToken: await csrfToken(alone.config, jar), username: "alice", password: "correct horse" }
    expect((await send(alone.config, "/auth/callback/credentials", { jar, form: aloneForm })).status).toBe(503)
    expect(lines(alone.log)).toHaveLength(1)
    alone.storage.up()
    await signInAlice(alone.config, jar)
    expect(alone.log.lines.filter((line) => line === "storage-available-again")).toHaveLength(1)

    // Sesame's own operation met the outage first: one line, and the callback's failures add none.
    const { storage, config, log } = appReadingTheStore()
    await signInAlice(config, jar)
    const form = { csrfToken: await csrfToken(config, jar), username: "alice", password: "correct horse" }
    storage.down()
    expect((await send(config, "/auth/callback/credentials", { jar, form })).status).toBe(503)
    for (let i = 0; i < 3; i++) expect((await send(config, "/auth/session", { jar })).status).toBe(503)
    expect(lines(log)).toHaveLength(1)
    storage.up()
    expect((await send(config, "/auth/session", { jar })).status).toBe(200)
    // The callback's success says nothing to Sesame; its own next operation ends the outage.
    expect(log.lines.filter((line) => line === "storage-available-again")).toHaveLength(0)
    await signInAlice(config, jar)
    expect(log.lines.filter((line) => line === "storage-available-again")).toHaveLength(1)
  })

  it("the built-in logger prints the outage on one line, without a stack", async () => {
    const storage = outage(MemoryAdapter())
    const config: AuthConfig = { secret, trustHost: true, adapter: storage.adapter, providers: [aliceCredentials({ createUser: true })] }
    const jar = new CookieJar()
    await signInAlice(config, jar)
    const error = vi.spyOn(console, "error").mockImplementation(() => {})
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {})
    try {
      storage.down()
      await send(config, "/auth/session", { jar })
      await send(config, "/auth/session", { jar })
      storage.up()
      await send(config, "/auth/session", { jar })
      expect(error.mock.calls.map((c) => String(c[0]))).toEqual(["[sesame][error] StorageUnavailable: The storage could not be reached: connect ECONNREFUSED 127.0.0.1:5432"])
      expect(warn.mock.calls.map((c) => String(c[0])).filter((l) => l.includes("storage-available-again"))).toHaveLength(1)
    } finally {
      error.mockRestore()
      warn.mockRestore()
    }
  })
})

describe("trying again", () => {
  /** The memory adapter whose `method` fails the next `calls.left` times with `error()`, then works; `calls.count` counts its calls. */
  function failingOnce(method: "getSessionAndUser" | "createSession", error: () => Error, times = 1) {
    const adapter = MemoryAdapter()
    const original = (adapter[method] as (...args: unknown[]) => Promise<unknown>).bind(adapter)
    const calls = { count: 0, left: times }
    ;(adapter as unknown as Record<string, unknown>)[method] = async (...args: unknown[]) => {
      calls.count++
      if (calls.left > 0) {
        calls.left--
        throw error()
      }
      return original(...args)
    }
    return { adapter, calls }
  }
  const died = () => new Error("Connection terminated unexpectedly")

  it("a read that meets a connection that died with the server is tried again, and the visitor sees nothing", async () => {
    const { adapter, calls } = failingOnce("getSessionAndUser", died, 0)
    const config: AuthConfig = { secret, trustHost: true, adapter, providers: [aliceCredentials({ createUser: true })], logger: recordingLogger().logger }
    const jar = new CookieJar()
    await signInAlice(config, jar)
    Object.assign(calls, { count: 0, left: 1 })
    const response = await send(config, "/auth/session", { jar })
    expect(response.status).toBe(200)
    expect((await response.json()).user.name).toBe("Alice")
    expect(calls.count).toBe(2)
  })

  it("a read is tried again at most twice, then answered 503", async () => {
    const { adapter, calls } = failingOnce("getSessionAndUser", died, 0)
    const config: AuthConfig = { secret, trustHost: true, adapter, providers: [aliceCredentials({ createUser: true })], logger: recordingLogger().logger }
    const jar = new CookieJar()
    await signInAlice(config, jar)
    Object.assign(calls, { count: 0, left: 100 })
    expect((await send(config, "/auth/session", { jar })).status).toBe(503)
    expect(calls.count).toBe(3)
  })

  it("a write that may have run is not run again", async () => {
    const { adapter, calls } = failingOnce("createSession", died)
    const config: AuthConfig = { secret, trustHost: true, adapter, providers: [aliceCredentials({ createUser: true })], logger: recordingLogger().logger }
    const jar = new CookieJar()
    const response = await signInAlice(config, jar)
    expect(response.status).toBe(503)
    expect(calls.count).toBe(1)
    expect(jar.get("sesame.session-token")).toBeUndefined()
    expect(adapter.tables.sessions.size).toBe(0)
  })

  it("a write whose connection was refused never ran, and is tried again", async () => {
    const { adapter, calls } = failingOnce("createSession", connectionRefused)
    const config: AuthConfig = { secret, trustHost: true, adapter, providers: [aliceCredentials({ createUser: true })], logger: recordingLogger().logger }
    const jar = new CookieJar()
    const response = await signInAlice(config, jar)
    expect(response.status).toBe(302)
    expect(calls.count).toBe(2)
    expect(adapter.tables.sessions.size).toBe(1)
    expect((await (await send(config, "/auth/session", { jar })).json()).user.name).toBe("Alice")
  })

  it("a sign-in link used up by an attempt the storage could not finish is put back: trying again signs in", async () => {
    const { adapter, calls } = failingOnce("createSession", died, 0)
    const { config, links } = emailLinkConfig(adapter)
    const jar = new CookieJar()
    const csrf = await csrfToken(config, jar)
    await send(config, "/auth/signin/email", { jar, form: { csrfToken: csrf, email: "bob@example.com" } })
    const link = new URL(links[0]!)
    const form = { csrfToken: csrf, token: link.searchParams.get("token")!, email: "bob@example.com" }
    // The link is used, then the session cannot be stored: the connection died under it.
    calls.left = 1
    const failed = await send(config, `${link.pathname}${link.search}`, { jar, form })
    expect(failed.status).toBe(503)
    expect(jar.get("sesame.session-token")).toBeUndefined()
    // The "try again" the 503 asks for: the link works.
    const again = await send(config, `${link.pathname}${link.search}`, { jar, form })
    expect(again.status).toBe(302)
    expect(again.headers.get("location")).not.toContain("error=")
    expect((await (await send(config, "/auth/session", { jar })).json()).user.email).toBe("bob@example.com")
    // And only once: a third use is refused.
    const third = await send(config, `${link.pathname}${link.search}`, { jar, form })
    expect(third.headers.get("location")).toContain("error=Verification")
  })

  it("a link is put back through a restart that resets connections, once: trying again signs in, a third use does not", async () => {
    // Rows without a unique key, so that a second copy would show; the session cannot be stored
    // once, then the put-back meets the restart: a write that ran but whose connection reset before
    // the answer, one reset before it ran, one on a client node-postgres knew was dead, then the server is back.
    const adapter = MemoryAdapter()
    const rows: { identifier: string; token: string; expires: Date }[] = []
    const reset = () => Object.assign(new Error("read ECONNRESET"), { code: "ECONNRESET" })
    const notRun = (error: Error) => (rows.pop(), error)
    const restart = [() => reset(), () => notRun(reset()), () => notRun(new Error("Client has encountered a connection error and is not queryable"))]
    let restarting = false
    adapter.createVerificationToken = async (row) => {
      rows.push({ ...row })
      const failure = restarting ? restart.shift() : undefined
      if (failure) throw failure()
      return row
    }
    adapter.useVerificationToken = async ({ identifier, token }) => {
      const at = rows.findIndex((r) => r.identifier === identifier && r.token === token)
      return at < 0 ? null : rows.splice(at, 1)[0]!
    }
    const createSession = adapter.createSession.bind(adapter)
    let failSession = 1
    adapter.createSession = async (session) => {
      if (failSession-- > 0) {
        restarting = true
        throw died()
      }
      return createSession(session)
    }
    const { config, links } = emailLinkConfig(adapter)
    const jar = new CookieJar()
    const csrf = await csrfToken(config, jar)
    await send(config, "/auth/signin/email", { jar, form: { csrfToken: csrf, email: "carol@example.com" } })
    const link = new URL(links[0]!)
    const form = { csrfToken: csrf, token: link.searchParams.get("token")!, email: "carol@example.com" }
    expect((await send(config, `${link.pathname}${link.search}`, { jar, form })).status).toBe(503)
    await vi.waitFor(() => expect(restart).toHaveLength(0), { timeout: 2_000 })
    await vi.waitFor(() => expect(rows).toHaveLength(1), { timeout: 2_000 })

    const again = await send(config, `${link.pathname}${link.search}`, { jar, form })
    expect(again.headers.get("location")).not.toContain("error=")
    expect((await (await send(config, "/auth/session", { jar })).json()).user.email).toBe("carol@example.com")
    expect((await send(config, `${link.pathname}${link.search}`, { jar, form })).headers.get("location")).toContain("error=Verification")
    expect(rows).toHaveLength(0)
  })

  it("a failure that is not an outage stays what it was (the configuration error), and is not tried again", async () => {
    const { adapter, calls } = failingOnce("createSession", () => Object.assign(new Error('relation "sessions" does not exist'), { code: "42P01" }))
    const config: AuthConfig = { secret, trustHost: true, adapter, providers: [aliceCredentials({ createUser: true })], logger: recordingLogger().logger }
    const response = await signInAlice(config, new CookieJar())
    expect(response.status).toBe(302)
    expect(response.headers.get("location")).toContain("error=Configuration")
    expect(calls.count).toBe(1)
  })
})

it("Auth() itself never throws for an outage", async () => {
  const { storage, config } = setup()
  const jar = new CookieJar()
  await signInAlice(config, jar)
  storage.down()
  await expect(Auth(request("/auth/session", { jar }), config)).resolves.toBeInstanceOf(Response)
})
