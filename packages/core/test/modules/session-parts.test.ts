/**
 * A plugin's part of the session that it sets itself (`keepsSessionPart`,
 * `ModuleRequest.setSessionPart`): the active team of a member of several, as the organizations
 * module keeps the active organization. Set from an endpoint, carried by a JWT (re-issued at once)
 * or kept in the store for a database session, asked back as `previous` so the plugin can check it
 * still holds; never what the browser says (a JWT `update()`), never for a planted cookie, and gone
 * with the session.
 */
import { Auth, callModuleApi, modelsOf, type AuthConfig, type ModuleRequest, type SesameModule } from "@sesame/core"
import { MemoryAdapter } from "@sesame/core/adapters"
import { decode } from "@sesame/core/jwt"
import { describe, expect, it } from "vitest"
import { sessionPartModel } from "../../src/modules/session-parts.js"
import { CookieJar, aliceCredentials, csrfToken, frozenClock, origin, recordingLogger, secret, send, signInAlice, users } from "../helpers.js"
import { ada, app, enrol, post } from "../two-factor/harness.js"

/** Teams by member: what the plugin checks the active team against. */
type Teams = Map<string, Set<string>>

/** A plugin that keeps each session's active team, among the teams its user belongs to. */
function activeTeam(teams: Teams): SesameModule {
  const member = (userId: string | undefined, team: unknown) => typeof team === "string" && !!userId && (teams.get(userId)?.has(team) ?? false)
  const choose = async (request: ModuleRequest, team: unknown) => {
    const user = await request.user()
    if (!user) return { status: 401, body: { error: "not signed in" } }
    // Another team's id: refused before anything is set.
    if (!member(user.id, team)) return { status: 403, body: { error: "not a member" } }
    return { body: { set: await request.setSessionPart({ team: team as string }) } }
  }
  return {
    id: "team",
    keepsSessionPart: true,
    session: ({ user, previous }) => {
      const team = (previous as { team?: unknown } | undefined)?.team
      return member(user.id, team) ? { team: team as string } : undefined
    },
    routes: { "POST team/active": { run: (request) => choose(request, request.body.team) } },
    api: {
      chooseTeam: async (request: ModuleRequest, team: string) => (await request.setSessionPart({ team })) as boolean,
      leaveTeam: async (request: ModuleRequest) => (await request.setSessionPart(undefined)) as boolean,
    },
  }
}

/** A configuration where Alice is a stored user, as members are, whichever the strategy. */
async function setup(strategy: "jwt" | "database", overrides: Partial<AuthConfig> = {}) {
  const teams: Teams = new Map()
  const adapter = MemoryAdapter()
  await adapter.createUser({ id: users.alice.id, name: users.alice.name, email: users.alice.email, emailVerified: new Date() })
  const config: AuthConfig = {
    secret,
    trustHost: true,
    adapter,
    session: { strategy },
    providers: [aliceCredentials({ createUser: true })],
    plugins: [activeTeam(teams)],
    ...overrides,
  }
  return { teams, adapter, config }
}

const read = async (c: AuthConfig, jar: CookieJar) => (await (await send(c, "/auth/session", { jar })).json()) as Record<string, unknown> | null

async function choose(c: AuthConfig, jar: CookieJar, team: string) {
  return send(c, "/auth/team/active", { jar, form: { csrfToken: await csrfToken(c, jar), team } })
}

async function aliceId(adapter: ReturnType<typeof MemoryAdapter>) {
  return (await adapter.getUserByEmail("alice@example.com"))!.id
}

describe.each(["database", "jwt"] as const)("a part the plugin sets itself, %s sessions", (strategy) => {
  it("is set from the plugin's endpoint and read back in the session", async () => {
    const { teams, adapter, config } = await setup(strategy)
    const jar = new CookieJar()
    await signInAlice(config, jar)
    teams.set(await aliceId(adapter), new Set(["red", "blue"]))
    expect(await read(config, jar)).not.toHaveProperty("team")
    expect((await choose(config, jar, "red")).status).toBe(200)
    expect(await read(config, jar)).toMatchObject({ user: { email: "alice@example.com" }, team: { team: "red" } })
    expect((await choose(config, jar, "blue")).status).toBe(200)
    expect(await read(config, jar)).toMatchObject({ team: { team: "blue" } })
  })

  it("another team's id is refused and changes nothing", async () => {
    const { teams, adapter, config } = await setup(strategy)
    const jar = new CookieJar()
    await signInAlice(config, jar)
    teams.set(await aliceId(adapter), new Set(["red"]))
    await choose(config, jar, "red")
    expect((await choose(config, jar, "green")).status).toBe(403)
    expect(await read(config, jar)).toMatchObject({ team: { team: "red" } })
  })

  it("a visitor who is not signed in sets nothing", async () => {
    const { config } = await setup(strategy)
    const jar = new CookieJar()
    expect((await choose(config, jar, "red")).status).toBe(401)
    expect(await read(config, jar)).toBeNull()
  })

  it("each session has its own: a second browser of the same user keeps its choice", async () => {
    const { teams, adapter, config } = await setup(strategy)
    const laptop = new CookieJar()
    const phone = new CookieJar()
    await signInAlice(config, laptop)
    await signInAlice(config, phone)
    teams.set(await aliceId(adapter), new Set(["red", "blue"]))
    await choose(config, laptop, "red")
    await choose(config, phone, "blue")
    expect(await read(config, laptop)).toMatchObject({ team: { team: "red" } })
    expect(await read(config, phone)).toMatchObject({ team: { team: "blue" } })
  })

  it("a second session cookie planted next to the browser's own sets nothing", async () => {
    const { teams, adapter, config } = await setup(strategy)
    const victim = new CookieJar()
    await signInAlice(config, victim)
    teams.set(await aliceId(adapter), new Set(["red"]))
    const name = "sesame.session-token"
    const token = await csrfToken(config, victim)
    const cookie = `${victim.header()}; ${name}=planted`
    const response = await send(config, "/auth/team/active", { headers: { cookie }, form: { csrfToken: token, team: "red" } })
    expect(response.status).toBe(401)
    expect(await read(config, victim)).not.toHaveProperty("team")
  })
})

describe("a removed member loses the part", () => {
  it("database sessions: at the next read", async () => {
    const { teams, adapter, config } = await setup("database")
    const jar = new CookieJar()
    await signInAlice(config, jar)
    const id = await aliceId(adapter)
    teams.set(id, new Set(["red"]))
    await choose(config, jar, "red")
    teams.get(id)!.delete("red")
    expect(await read(config, jar)).not.toHaveProperty("team")
  })

  it("JWT sessions: at the next re-issue of the token (every read with updateAge 0), not before", async () => {
    for (const updateAge of [0, 86_400]) {
      const { teams, adapter, config } = await setup("jwt", { session: { strategy: "jwt", updateAge } })
      const jar = new CookieJar()
      await signInAlice(config, jar)
      const id = await aliceId(adapter)
      teams.set(id, new Set(["red"]))
      await choose(config, jar, "red")
      teams.get(id)!.delete("red")
      const session = await read(config, jar)
      if (updateAge === 0) expect(session).not.toHaveProperty("team")
      else expect(session).toMatchObject({ team: { team: "red" } })
    }
  })
})

describe("the browser cannot set the part", () => {
  it("a JWT update() naming another team, even through a jwt callback that copies what the browser sends, keeps the plugin's own", async () => {
    const { teams, adapter, config } = await setup("jwt", {
      callbacks: { jwt: ({ token, trigger, session }) => (trigger === "update" ? { ...token, ...(session as object) } : token) },
    })
    const jar = new CookieJar()
    await signInAlice(config, jar)
    teams.set(await aliceId(adapter), new Set(["red"]))
    await choose(config, jar, "red")
    const updated = await send(config, "/auth/session", { jar, json: { csrfToken: await csrfToken(config, jar), data: { team: { team: "green" }, name: "Alice A." } } })
    expect(updated.status).toBe(200)
    expect(await updated.json()).toMatchObject({ team: { team: "red" } })
    const claims = await decode({ token: jar.get("sesame.session-token")!, secret, salt: "sesame.session-token" })
    expect(claims).toMatchObject({ team: { team: "red" }, name: "Alice A." })
  })

  it("an update naming a team the user is not in, before the plugin set any, adds none", async () => {
    const { config } = await setup("jwt", {
      callbacks: { jwt: ({ token, trigger, session }) => (trigger === "update" ? { ...token, ...(session as object) } : token) },
    })
    const jar = new CookieJar()
    await signInAlice(config, jar)
    const updated = await send(config, "/auth/session", { jar, json: { csrfToken: await csrfToken(config, jar), data: { team: { team: "green" } } } })
    expect(await updated.json()).not.toHaveProperty("team")
  })
})

describe("server functions", () => {
  it("database sessions: set and removed through the plugin's server function", async () => {
    const { teams, adapter, config } = await setup("database")
    const jar = new CookieJar()
    await signInAlice(config, jar)
    teams.set(await aliceId(adapter), new Set(["red"]))
    const request = () => new Request(`${origin}/dashboard`, { headers: { cookie: jar.header() } })
    expect(await callModuleApi(request(), config, "chooseTeam", "red")).toBe(true)
    expect(await read(config, jar)).toMatchObject({ team: { team: "red" } })
    expect(await callModuleApi(request(), config, "leaveTeam")).toBe(true)
    expect(await read(config, jar)).not.toHaveProperty("team")
    expect(await callModuleApi(new Request(`${origin}/dashboard`), config, "chooseTeam", "red")).toBe(false)
  })

  it("JWT sessions: a TypeError, since a server function sends no cookie", async () => {
    const { teams, adapter, config } = await setup("jwt")
    const jar = new CookieJar()
    await signInAlice(config, jar)
    teams.set(await aliceId(adapter), new Set(["red"]))
    const request = new Request(`${origin}/dashboard`, { headers: { cookie: jar.header() } })
    await expect(callModuleApi(request, config, "chooseTeam", "red")).rejects.toThrow(/from one of its endpoints/)
  })

  it("a plugin that does not say keepsSessionPart cannot set a part; a value that is not JSON is refused", async () => {
    const set = (value: unknown) => async (request: ModuleRequest) => request.setSessionPart(value as never)
    const undeclared: SesameModule = { id: "loose", session: () => undefined, api: { loose: set({ a: 1 }) } }
    const declared: SesameModule = { id: "strict", keepsSessionPart: true, session: () => undefined, api: { dated: set({ at: new Date() }), nan: set({ n: Number.NaN }) } }
    const config: AuthConfig = { secret, trustHost: true, adapter: MemoryAdapter(), providers: [aliceCredentials({ createUser: true })], plugins: [undeclared, declared] }
    const jar = new CookieJar()
    await signInAlice(config, jar)
    const request = () => new Request(`${origin}/`, { headers: { cookie: jar.header() } })
    await expect(callModuleApi(request(), config, "loose")).rejects.toThrow(/keepsSessionPart/)
    await expect(callModuleApi(request(), config, "dated")).rejects.toThrow(/must be JSON/)
    await expect(callModuleApi(request(), config, "nan")).rejects.toThrow(/must be JSON/)
  })
})

describe("the store's rows live as long as their session", () => {
  it("sign-out removes them; a new sign-in in the same browser starts without the part", async () => {
    const { teams, adapter, config } = await setup("database")
    const jar = new CookieJar()
    await signInAlice(config, jar)
    teams.set(await aliceId(adapter), new Set(["red"]))
    await choose(config, jar, "red")
    expect(await adapter.store!.count(sessionPartModel)).toBe(1)
    await send(config, "/auth/signout", { jar, form: { csrfToken: await csrfToken(config, jar) } })
    expect(await adapter.store!.count(sessionPartModel)).toBe(0)
    await choose(config, jar, "red")
    await signInAlice(config, jar)
    expect(await adapter.store!.count(sessionPartModel)).toBe(0)
    expect(await read(config, jar)).not.toHaveProperty("team")
  })

})

describe("a step-up", () => {
  const advance = frozenClock("2026-12-02T10:00:00Z")

  it("replaces the database session with a new one, and the part goes with it", async () => {
    const teams: Teams = new Map()
    const a = app({ overrides: { plugins: [activeTeam(teams)] } })
    const user = await ada(a)
    teams.set(user.id, new Set(["red"]))
    const { jar, authenticator } = await enrol(a)
    await choose(a.config, jar, "red")
    advance(11 * 60_000)
    const before = jar.get("sesame.session-token")
    const done = await post(a.config, "/auth/reauthenticate", { code: authenticator.code(), callbackUrl: `${origin}/settings` }, jar)
    expect(done.location).toBe(`${origin}/settings`)
    expect(jar.get("sesame.session-token")).not.toBe(before)
    expect(await read(a.config, jar)).toMatchObject({ user: { email: "ada@example.com" }, team: { team: "red" } })
    expect(await a.adapter.store!.count(sessionPartModel)).toBe(1)
  })
})

describe("configuration", () => {
  it("keepsSessionPart needs session; the core's model reaches migrate only when a plugin keeps parts", async () => {
    const keeper = activeTeam(new Map())
    const { logger, lines } = recordingLogger()
    const response = await Auth(new Request(`${origin}/auth/session`), { secret, trustHost: true, adapter: MemoryAdapter(), providers: [], logger, plugins: [{ id: "bare", keepsSessionPart: true }] })
    expect(response.status).toBe(500)
    expect(lines.join("\n")).toMatch(/`keepsSessionPart` needs `session`/)
    expect(modelsOf({ plugins: [keeper] }).map((m) => m.name)).toEqual(["sessionPart"])
    expect(modelsOf({ plugins: [{ id: "plain", session: () => undefined }] })).toEqual([])
  })

  it("without a store (an Auth.js adapter) a plugin that keeps parts is off; sign-in and sessions work", async () => {
    const { store: _store, ...withoutStore } = MemoryAdapter()
    const teams: Teams = new Map()
    const config: AuthConfig = { secret, trustHost: true, adapter: withoutStore, providers: [aliceCredentials({ createUser: true })], plugins: [activeTeam(teams)] }
    const jar = new CookieJar()
    await signInAlice(config, jar)
    expect(await read(config, jar)).toMatchObject({ user: { email: "alice@example.com" } })
    expect((await choose(config, jar, "red")).status).toBe(400)
  })
})
