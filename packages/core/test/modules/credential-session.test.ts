/**
 * Plugins' sessions from their own credentials (`SesameModule.credentialSession`) and their word
 * on whether a user may still act (`userStanding`, asked through `users.inGoodStanding`), through
 * `Auth()` and the integrations' `readSession`. Beside each, what must not count: a request with a
 * session cookie, a POST, an answer naming no stored user, a plugin that throws.
 */
import { Auth, type AuthConfig, type ModuleContext, type SesameModule } from "@sesame/core"
import { MemoryAdapter } from "@sesame/core/adapters"
import { StorageUnavailable } from "@sesame/core/errors"
import { readSession } from "@sesame/core/integration"
import { describe, expect, it } from "vitest"
import { CookieJar, aliceCredentials, origin, recordingLogger, secret, send, signInAlice } from "../helpers.js"

const later = () => new Date(Date.now() + 3_600_000)

/** A plugin whose credential is `X-Ticket: <user id>`, answering `answer` instead when given. */
function tickets(answer?: (ticket: string) => unknown): SesameModule {
  return {
    id: "tickets",
    credentialSession: (request) => {
      const ticket = request.headers.get("x-ticket")
      if (!ticket) return null
      return (answer ? answer(ticket) : { userId: ticket, expires: later(), part: { ticket: true } }) as never
    },
  }
}

async function world(plugins: SesameModule[], strategy: "jwt" | "database" = "database") {
  const adapter = MemoryAdapter()
  await adapter.createUser!({ id: "1", name: "Alice", email: "alice@example.com", emailVerified: null })
  await adapter.createUser!({ id: "2", name: "Bob", email: "bob@example.com", emailVerified: null })
  const { lines, logger } = recordingLogger()
  const config: AuthConfig = { secret, trustHost: true, adapter, session: { strategy }, providers: [aliceCredentials()], plugins, logger }
  const session = async (headers: Record<string, string>) => (await send(config, "/auth/session", { headers })).json()
  return { adapter, config, lines, session }
}

describe("credentialSession", () => {
  it("stands for a session on GET session and readSession, with the stored user, the expiry and the plugin's part", async () => {
    const { config, session } = await world([tickets()])
    const expected = { user: { id: "2", name: "Bob", email: "bob@example.com", image: null }, tickets: { ticket: true } }
    expect(await session({ "x-ticket": "2" })).toMatchObject(expected)
    const read = await readSession(config, new Request(`${origin}/api`, { headers: { "x-ticket": "2" } }))
    expect(read.session).toMatchObject(expected)
    expect(await session({})).toBeNull()
  })

  it.each(["jwt", "database"] as const)("never with a session cookie (%s): the browser's session wins, even a stale one", async (strategy) => {
    const { config, session } = await world([tickets()], strategy)
    const jar = new CookieJar()
    await signInAlice(config, jar)
    expect((await session({ "x-ticket": "2", cookie: jar.header() })).user.email).toBe("alice@example.com")
    const stale = jar.header().replace(/(session-token=)[^;]+/, "$1stale")
    expect(await session({ "x-ticket": "2", cookie: stale })).toBeNull()
  })

  it("never on a POST: the session update, with its CSRF token, sees none", async () => {
    const { config } = await world([tickets()])
    const jar = new CookieJar()
    const { csrfToken } = await (await send(config, "/auth/csrf", { jar })).json()
    const posted = await send(config, "/auth/session", { jar, json: { csrfToken, data: {} }, headers: { "x-ticket": "2", origin } })
    expect(await posted.json()).toBeNull()
  })

  it("an answer naming no stored user is no session; a malformed answer or a throw is logged and is none", async () => {
    const missing = await world([tickets(() => ({ userId: "nobody", expires: later() }))])
    expect(await missing.session({ "x-ticket": "x" })).toBeNull()
    const expired = await world([tickets(() => ({ userId: "1", expires: new Date(Date.now() - 1000) }))])
    expect(await expired.session({ "x-ticket": "x" })).toBeNull()
    expect(expired.lines.join("\n")).toMatch(/credentialSession` must answer/)
    const throwing = await world([tickets(() => { throw new Error("ticket office closed") })])
    expect(await throwing.session({ "x-ticket": "x" })).toBeNull()
    expect(throwing.lines.join("\n")).toMatch(/ticket office closed/)
  })

  it("a storage outage is the request's 503, not a signed-out answer", async () => {
    const { config } = await world([tickets(() => { throw new StorageUnavailable("The database restarts.") })])
    const response = await send(config, "/auth/session", { headers: { "x-ticket": "1" } })
    expect(response.status).toBe(503)
  })

  it("must be a function", async () => {
    const config: AuthConfig = { secret, trustHost: true, adapter: MemoryAdapter(), providers: [aliceCredentials()], plugins: [{ id: "broken", credentialSession: "yes" as never }] }
    const response = await Auth(new Request(`${origin}/auth/session`), config)
    expect(response.status).toBe(500)
  })
})

describe("userStanding and users.inGoodStanding", () => {
  it("is true for a stored user no plugin holds back, false for one held back or unknown; a throw is false and logged; an outage throws", async () => {
    let held = new Set<string>(["2"])
    let fail: Error | null = null
    const asked: string[] = []
    let context: ModuleContext | undefined
    const gate: SesameModule = {
      id: "gate",
      userStanding(userId) {
        asked.push(userId)
        if (fail) throw fail
        return !held.has(userId)
      },
      api: {
        grab: async (request) => {
          context = request
        },
      },
    }
    const { config, lines } = await world([gate])
    const { callModuleApi } = await import("@sesame/core")
    await callModuleApi(new Request(`${origin}/app`), config, "grab")
    const users = context!.users!
    expect(await users.inGoodStanding("1")).toBe(true)
    expect(await users.inGoodStanding("2")).toBe(false)
    expect(await users.inGoodStanding("nobody")).toBe(false)
    expect(asked).toEqual(["1", "2"])
    held = new Set()
    expect(await users.inGoodStanding("2")).toBe(true)
    fail = new Error("gate jammed")
    expect(await users.inGoodStanding("1")).toBe(false)
    expect(lines.join("\n")).toMatch(/gate jammed/)
    fail = new StorageUnavailable("The database restarts.")
    await expect(users.inGoodStanding("1")).rejects.toMatchObject({ name: "StorageUnavailable" })
  })
})
