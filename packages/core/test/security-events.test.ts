/**
 * The `security` event (`security-events.ts`): every core type once per action, through the
 * endpoints and the server functions (the scenario in `security/scenario.ts`), with who acted,
 * whose account, the IP (the last `X-Forwarded-For` entry, with `trustHost` only) and the user
 * agent, and never a secret; and what plugins report through `securityEvent`.
 */
import { callModuleApi, setUserFields, type AuthConfig, type CoreSecurityEventType, type SecurityEvent, type SesameModule } from "@sesame/core"
import { MemoryAdapter } from "@sesame/core/adapters"
import { CredentialsSignin } from "@sesame/core/errors"
import type { DevIdp } from "@sesame/dev-idp"
import { afterAll, describe, expect, it } from "vitest"
import { aliceCredentials, CookieJar, csrfToken, jwtConfig, origin, request, send, signInAlice } from "./helpers.js"
import { client, startIdp } from "./oauth/harness.js"
import { clientHeaders, clientIp, securityScenario, typesOf } from "./security/scenario.js"

const coreTypes: CoreSecurityEventType[] = [
  "sign-in",
  "sign-in.failed",
  "sign-in.throttled",
  "sign-out",
  "user.created",
  "user.updated",
  "user.deleted",
  "password.changed",
  "two-factor.changed",
  "passkey.added",
  "passkey.removed",
  "account.linked",
  "account.unlinked",
  "session.revoked",
  "sessions.revoked",
]

const idpAccount = { id: `linked-${crypto.randomUUID().slice(0, 8)}`, email: "ada.elsewhere@example.com", name: "Ada" }
const idp: DevIdp = await startIdp({ clients: [client("dev")], accounts: [idpAccount] })

afterAll(async () => {
  await idp.close()
})

describe("the security event through a user's life", () => {
  // One user's life, step by step (each step needs the ones before it): each a test of its own.
  const events: SecurityEvent[] = []
  const world = securityScenario({ adapter: MemoryAdapter(), idp, idpAccount, onEvent: (event) => void events.push(event) })
  for (const step of world.steps) {
    it(`${step.name}: ${step.expect.join(", ")}, once each, with the client's IP and user agent`, async () => {
      const before = events.length
      await step.run()
      const caused = events.slice(before)
      expect(typesOf(caused)).toEqual([...step.expect].sort())
      for (const event of caused) {
        expect(event.ip).toBe(clientIp)
        expect(event.userAgent).toBe(clientHeaders["user-agent"])
        expect(event.at).toBeInstanceOf(Date)
        expect(Date.now() - event.at.getTime()).toBeLessThan(60_000)
      }
      step.check?.(caused)
    })
  }

  it("has sent each core type, and none of the secrets the life used", () => {
    expect([...new Set(events.map((e) => e.type))].sort()).toEqual([...coreTypes].sort())
    // The events carry names, counts and flags only.
    const text = JSON.stringify(events)
    expect(world.secrets.size).toBeGreaterThan(20)
    for (const value of world.secrets) expect(text.includes(value), `a secret reached an event: ${value.slice(0, 4)}…`).toBe(false)
  })
})

/** A configuration on the memory adapter with the alice credentials provider, recording the events. */
function recorded(overrides: Partial<AuthConfig> = {}) {
  const events: SecurityEvent[] = []
  const config = jwtConfig({ events: { security: (event) => void events.push(event) }, logger: { error: () => {}, warn: () => {}, debug: () => {} }, ...overrides })
  return { events, config }
}

describe("the common fields", () => {
  it("names no IP when the configuration does not trust the proxy, whatever X-Forwarded-For says", async () => {
    const { events, config } = recorded({ trustHost: undefined })
    const jar = new CookieJar()
    const token = await csrfToken(config, jar)
    await send(config, "/auth/callback/credentials", { jar, form: { csrfToken: token, username: "alice", password: "correct horse" }, headers: clientHeaders })
    expect(events).toHaveLength(1)
    expect(events[0]).toMatchObject({ type: "sign-in", ip: null, userAgent: clientHeaders["user-agent"], userId: "1", actorId: "1", provider: "credentials" })
  })

  it("cuts a long user agent to 256 characters", async () => {
    const { events, config } = recorded()
    const jar = new CookieJar()
    const token = await csrfToken(config, jar)
    await send(config, "/auth/callback/credentials", { jar, form: { csrfToken: token, username: "alice", password: "correct horse" }, headers: { "user-agent": "x".repeat(1000) } })
    expect(events[0]!.userAgent).toBe("x".repeat(256))
    expect(events[0]!.ip).toBeNull()
  })

  it("a JWT session's sign-out names its user; a sign-out without a session sends none", async () => {
    const { events, config } = recorded()
    const jar = new CookieJar()
    await signInAlice(config, jar)
    const token = await csrfToken(config, jar)
    await send(config, "/auth/signout", { jar, form: { csrfToken: token }, headers: clientHeaders })
    expect(typesOf(events)).toEqual(["sign-in", "sign-out"])
    expect(events[1]).toMatchObject({ userId: "1", actorId: "1", ip: clientIp })
    const nobody = new CookieJar()
    await send(config, "/auth/signout", { jar: nobody, form: { csrfToken: await csrfToken(config, nobody) } })
    expect(events).toHaveLength(2)
  })

  it("setUserFields is the app's own code: no actor, IP or user agent", async () => {
    const adapter = MemoryAdapter()
    const { events, config } = recorded({ adapter, user: { fields: { role: { type: "string", default: "member" } } } })
    await adapter.createUser({ id: "u1", email: "u1@example.com", emailVerified: null, name: null, image: null })
    await setUserFields(config, "u1", { role: "admin" })
    expect(events).toEqual([{ type: "user.updated", at: expect.any(Date), actorId: null, userId: "u1", ip: null, userAgent: null, details: { fields: ["role"] } }])
  })
})

describe("credentials sign-ins", () => {
  it("a refusal is one sign-in.failed; the refusal that locks the account adds sign-in.throttled; a refused attempt is sign-in.failed `throttled`", async () => {
    const { events, config } = recorded({ providers: [aliceCredentials({ throttle: { freeAttempts: 2, lockoutAfter: 2, lockout: 90 } })] })
    const wrong = async () => {
      const jar = new CookieJar()
      return send(config, "/auth/callback/credentials", { jar, form: { csrfToken: await csrfToken(config, jar), username: "alice", password: "nope" }, headers: clientHeaders })
    }
    await wrong()
    expect(typesOf(events)).toEqual(["sign-in.failed"])
    expect(events[0]).toMatchObject({ provider: "credentials", reason: "credentials", userId: null, actorId: null, ip: clientIp })
    await wrong()
    expect(typesOf(events.slice(1))).toEqual(["sign-in.failed", "sign-in.throttled"])
    expect(events.find((e) => e.type === "sign-in.throttled")?.details).toEqual({ retryAfter: 90 })
    const refused = await wrong()
    expect(refused.headers.get("retry-after")).not.toBeNull()
    expect(events.slice(3)).toMatchObject([{ type: "sign-in.failed", reason: "throttled", details: { retryAfter: expect.any(Number) } }])
    expect(JSON.stringify(events)).not.toContain("nope")
  })

  it("a CredentialsSignin code is the reason; a malformed request is no attempt", async () => {
    class Locked extends CredentialsSignin {
      override code = "locked"
    }
    const { events, config } = recorded({
      providers: [
        aliceCredentials({
          authorize: () => {
            throw new Locked()
          },
        }),
      ],
    })
    const jar = new CookieJar()
    await send(config, "/auth/callback/credentials", { jar, form: { csrfToken: await csrfToken(config, jar), username: "alice", password: "x" } })
    expect(events).toMatchObject([{ type: "sign-in.failed", reason: "locked", provider: "credentials" }])
    // GET is refused as a bad request before anyone tries anything.
    await send(config, "/auth/callback/credentials", { jar })
    expect(events).toHaveLength(1)
  })
})

describe("plugins' security events", () => {
  function probe(seen: SecurityEvent[]): SesameModule {
    return {
      id: "probe",
      routes: {
        "GET probe/act": {
          async run(request) {
            await request.securityEvent({ type: "probe.thing-done", userId: "someone", details: { count: 2, names: ["a", "b"] } })
            return { body: { ok: true } }
          },
        },
        "GET probe/bad": {
          async run(request) {
            const refusals: string[] = []
            for (const event of [{ type: "sign-in", userId: null }, { type: "Probe", userId: null }, { type: "probe.x", userId: null, details: { nested: { a: 1 } } }]) {
              await request.securityEvent(event as never).catch((error: Error) => void refusals.push(error.message))
            }
            return { body: { refusals } }
          },
        },
      },
      events: { security: (event) => void seen.push(event) },
      api: {
        async act(request) {
          await request.securityEvent({ type: "probe.by-server", userId: null, actorId: "scim:conn-1" })
        },
      },
    }
  }

  it("fills in the time, the IP, the user agent and the signed-in actor, and reaches the app and every module", async () => {
    const seen: SecurityEvent[] = []
    const { events, config } = recorded({ plugins: [probe(seen)] })
    const jar = new CookieJar()
    await signInAlice(config, jar)
    const response = await send(config, "/auth/probe/act", { jar, headers: clientHeaders })
    expect(response.status).toBe(200)
    const event = events.at(-1)!
    expect(event).toEqual({ type: "probe.thing-done", at: expect.any(Date), actorId: "1", userId: "someone", ip: clientIp, userAgent: clientHeaders["user-agent"], details: { count: 2, names: ["a", "b"] } })
    expect(seen.at(-1)).toEqual(event)
    // A server function: the request's client, and the actor the module names.
    await callModuleApi(request("/", { jar, headers: clientHeaders }), config, "act")
    expect(events.at(-1)).toMatchObject({ type: "probe.by-server", actorId: "scim:conn-1", userId: null, ip: clientIp })
  })

  it("refuses the core's types, an unprefixed type and details that are not plain values", async () => {
    const { config } = recorded({ plugins: [probe([])] })
    const body = (await (await send(config, "/auth/probe/bad")).json()) as { refusals: string[] }
    expect(body.refusals).toHaveLength(3)
    expect(body.refusals[0]).toMatch(/one of Sesame's own/)
    expect(body.refusals[1]).toMatch(/prefixed/)
    expect(body.refusals[2]).toMatch(/detail "nested"/)
  })

  it("an event handler's context reports with no request: no IP, user agent or actor", async () => {
    const { events, config } = recorded({
      plugins: [
        {
          id: "joiner",
          events: {
            async signIn({ user }, context) {
              await context.securityEvent?.({ type: "joiner.joined", userId: String(user.id) })
            },
          },
        },
      ],
    })
    await signInAlice(config, new CookieJar())
    expect(events.find((e) => e.type === "joiner.joined")).toEqual({ type: "joiner.joined", at: expect.any(Date), actorId: null, userId: "1", ip: null, userAgent: null })
  })

  it("a module's users.endSessions is sessions.revoked, by no one signed in", async () => {
    const adapter = MemoryAdapter()
    const { events, config } = recorded({
      adapter,
      session: { strategy: "database" },
      providers: [aliceCredentials()],
      plugins: [
        {
          id: "ban",
          api: {
            async ban(request, userId: string) {
              await request.users!.endSessions(userId)
            },
          },
        },
      ],
    })
    await adapter.createUser({ id: "1", email: "alice@example.com", emailVerified: null, name: "Alice", image: null })
    await signInAlice(config, new CookieJar())
    await callModuleApi(new Request(`${origin}/`), config, "ban", "1")
    expect(events.at(-1)).toMatchObject({ type: "sessions.revoked", userId: "1", actorId: null, ip: null, details: { count: 1 } })
  })
})
