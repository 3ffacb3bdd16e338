/**
 * A plugin's part of the session (`SesameModule.session`): under the plugin's id in `GET session`
 * and `auth()`, asked at every read with database sessions and at sign-in with JWT sessions (kept
 * in the token, asked again only when it is re-issued: `session-parts.test.ts`); a plugin that throws is logged and left out without ending the session; an
 * id that would take a key of the session or a claim of its token is refused.
 */
import { Auth, type AuthConfig, type SesameModule } from "@sesame/core"
import { MemoryAdapter } from "@sesame/core/adapters"
import { describe, expect, it } from "vitest"
import { CookieJar, aliceCredentials, origin, recordingLogger, secret, send, signInAlice } from "../helpers.js"

function config(plugins: SesameModule[], overrides: Partial<AuthConfig> = {}): AuthConfig {
  return { secret, trustHost: true, providers: [aliceCredentials({ createUser: true })], plugins, ...overrides }
}

/** A plugin whose part says who it was asked for, why, and how many times it has been asked. */
function counting(id = "plan") {
  const asked: string[] = []
  const module: SesameModule = {
    id,
    session: ({ user, trigger }) => {
      asked.push(trigger)
      return { tier: "pro", email: user.email ?? null, asked: asked.length }
    },
  }
  return { module, asked }
}

const read = async (c: AuthConfig, jar: CookieJar) => (await (await send(c, "/auth/session", { jar })).json()) as Record<string, unknown> | null

describe("a plugin's part of the session", () => {
  it("database sessions: asked at every read, with the stored user", async () => {
    const { module, asked } = counting()
    const c = config([module], { adapter: MemoryAdapter() })
    const jar = new CookieJar()
    await signInAlice(c, jar)
    expect(await read(c, jar)).toMatchObject({ user: { email: "alice@example.com" }, plan: { tier: "pro", email: "alice@example.com", asked: 1 } })
    expect(await read(c, jar)).toMatchObject({ plan: { asked: 2 } })
    expect(asked).toEqual(["read", "read"])
  })

  it("JWT sessions: asked once, at sign-in, and carried in the token", async () => {
    const { module, asked } = counting()
    const c = config([module])
    const jar = new CookieJar()
    await signInAlice(c, jar)
    expect(await read(c, jar)).toMatchObject({ plan: { tier: "pro", email: "alice@example.com", asked: 1 } })
    expect(await read(c, jar)).toMatchObject({ plan: { asked: 1 } })
    expect(asked).toEqual(["signIn"])
  })

  it("reaches the app's session callback, which may keep or drop it", async () => {
    const { module } = counting()
    const seen: unknown[] = []
    const c = config([module], {
      adapter: MemoryAdapter(),
      callbacks: {
        session: ({ session }) => {
          seen.push((session as unknown as Record<string, unknown>).plan)
          return { user: session.user, expires: session.expires }
        },
      },
    })
    const jar = new CookieJar()
    await signInAlice(c, jar)
    const session = await read(c, jar)
    expect(seen).toEqual([expect.objectContaining({ tier: "pro" })])
    expect(session).not.toHaveProperty("plan")
  })

  it("a plugin that throws is logged as EventError and left out; the session and the other plugins' parts stay", async () => {
    for (const adapter of [MemoryAdapter(), undefined]) {
      const { logger, lines } = recordingLogger()
      const broken: SesameModule = {
        id: "broken",
        session: () => {
          throw new Error("the plugin's database is down")
        },
      }
      const { module } = counting()
      const c = config([broken, module], { logger, ...(adapter ? { adapter } : {}) })
      const jar = new CookieJar()
      await signInAlice(c, jar)
      const session = await read(c, jar)
      expect(session).toMatchObject({ user: { email: "alice@example.com" }, plan: { tier: "pro" } })
      expect(session).not.toHaveProperty("broken")
      expect(lines.join("\n")).toMatch(/EventError.*"broken"'s `session` threw/)
    }
  })

  it("an id that would take a key of the session, a claim of its token or a user field's claim is refused", async () => {
    for (const [id, fields] of [["expires", undefined], ["user", undefined], ["factors", undefined], ["sub", undefined], ["plan", { plan: { type: "string", optional: true } }]] as const) {
      const { logger, lines } = recordingLogger()
      const response = await Auth(new Request(`${origin}/auth/session`), config([counting(id).module], { logger, ...(fields ? { adapter: MemoryAdapter(), user: { fields } } : {}) }))
      expect(response.status, id).toBe(500)
      expect(lines.join("\n"), id).toMatch(/key Sesame or `user.fields` uses/)
    }
  })

  it("a plugin whose models the adapter cannot store is off: not asked", async () => {
    const { module, asked } = counting()
    const stored: SesameModule = { ...module, models: [{ name: "planRow", table: "plan_rows", primaryKey: "id", fields: { id: { type: "string" } } }] }
    const { store: _, ...withoutStore } = MemoryAdapter()
    const c = config([stored], { adapter: withoutStore, logger: recordingLogger().logger })
    const jar = new CookieJar()
    await signInAlice(c, jar)
    expect(await read(c, jar)).not.toHaveProperty("plan")
    expect(asked).toEqual([])
  })
})
