/**
 * A module's own providers (`SesameModule.providers`): found by id at request time, started from
 * the module's endpoint (`signInWith`), finished at `callback/<id>` by the same code as configured
 * providers, with their checks and account-linking rules. Beside each flow, what must not work:
 * a provider of another module or none, the request's own fields sent on to the provider, a
 * callback without the browser's check cookies, settings under another id.
 */
import type { DevIdp } from "@sesame/dev-idp"
import { callModuleApi, type AuthConfig, type OIDCConfig, type SesameModule } from "@sesame/core"
import { MemoryAdapter } from "@sesame/core/adapters"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { CookieJar, csrfToken, origin, send } from "../helpers.js"
import { accounts, atProvider, client, clientSecret, deliver, expectRejected, oauthConfig, quietLogger, session, startIdp } from "../oauth/harness.js"

let idp: DevIdp

beforeAll(async () => {
  idp = await startIdp({ clients: [client("tenants-acme"), client("tenants-globex")] })
})
afterAll(() => idp?.close())

/**
 * A module keeping one tenant's provider per name, which vouches for the addresses of its tenant's
 * domain only (`vouchesFor`), and starting its sign-ins from `POST tenants/start`.
 */
function tenants(options: { vouchesFor?: string; settings?: (id: string) => OIDCConfig | null } = {}) {
  const finds: string[] = []
  const kept = new Map<string, OIDCConfig>()
  const settings = (id: string): OIDCConfig | null => {
    if (options.settings) return options.settings(id)
    if (id !== "tenants-acme" && id !== "tenants-globex") return null
    const made = kept.get(id) ?? {
      id,
      name: `Tenant ${id}`,
      type: "oidc",
      issuer: idp.issuer,
      clientId: id,
      clientSecret,
      checks: ["pkce", "state", "nonce"],
      allowDangerousEmailAccountLinking: true,
      isEmailVerified: (profile) => typeof profile.email === "string" && !!options.vouchesFor && profile.email.endsWith(`@${options.vouchesFor}`),
    }
    kept.set(id, made)
    return made
  }
  const module: SesameModule = {
    id: "tenants",
    providers: {
      find(id) {
        finds.push(id)
        return settings(id)
      },
    },
    routes: {
      "POST tenants/start": {
        run: (request) => request.signInWith(String(request.body.provider), { login_hint: String(request.body.email ?? "") }),
      },
      "POST tenants/other": { run: (request) => request.signInWith("github") },
    },
    api: {
      async startFromServer(request) {
        return request.signInWith("tenants-acme")
      },
    },
  }
  return { module, finds }
}

function setup(module: SesameModule, overrides: Partial<AuthConfig> = {}) {
  const adapter = MemoryAdapter()
  const { logger, errors } = quietLogger()
  const config = oauthConfig({ adapter, plugins: [module], logger, ...overrides })
  return { adapter, config, errors }
}

async function start(config: AuthConfig, jar: CookieJar, fields: Record<string, string>): Promise<Response> {
  const token = await csrfToken(config, jar)
  return send(config, "/auth/tenants/start", { jar, form: { csrfToken: token, ...fields } })
}

/** The whole flow for `provider`, signing in as the IdP's account `login` (its id: the dev IdP's `login_hint`). */
async function signInThrough(config: AuthConfig, jar: CookieJar, provider: string, login: string): Promise<Response> {
  const started = await start(config, jar, { provider, email: login, callbackUrl: `${origin}/dashboard` })
  expect(started.status).toBe(302)
  const location = new URL(started.headers.get("location")!)
  const answer = await atProvider(location.href, location.searchParams.get("redirect_uri")!)
  return deliver(config, jar, answer)
}

describe("a module's own provider", () => {
  it("signs in through the module's endpoint and the core's callback, with Sesame's checks, to the request's callbackUrl", async () => {
    const { module, finds } = tenants({ vouchesFor: "example.com" })
    const { config } = setup(module)
    const jar = new CookieJar()
    const started = await start(config, jar, { provider: "tenants-acme", email: "alice", callbackUrl: `${origin}/dashboard`, secret: "not for the IdP" })
    expect(started.status).toBe(302)
    const location = new URL(started.headers.get("location")!)
    expect(location.origin).toBe(new URL(idp.issuer).origin)
    const params = location.searchParams
    expect(params.get("client_id")).toBe("tenants-acme")
    expect(params.get("redirect_uri")).toBe(`${origin}/auth/callback/tenants-acme`)
    expect(params.get("login_hint")).toBe("alice")
    expect(params.get("code_challenge_method")).toBe("S256")
    expect(params.get("state")).toBeTruthy()
    expect(params.get("nonce")).toBeTruthy()
    // The request's own fields are the module's, never the provider's.
    expect([...params.keys()].filter((key) => ["secret", "provider", "email", "csrfToken", "callbackUrl"].includes(key))).toEqual([])

    const answer = await atProvider(location.href, params.get("redirect_uri")!)
    const callback = await deliver(config, jar, answer)
    expect(callback.status).toBe(302)
    expect(callback.headers.get("location")).toBe(`${origin}/dashboard`)
    expect((await session(config, jar))?.user).toMatchObject({ email: accounts[0]!.email, name: accounts[0]!.name })
    expect(finds).toEqual(["tenants-acme", "tenants-acme"])
  })

  it("is stored as an account of that provider, which the next sign-in finds", async () => {
    const { module } = tenants({ vouchesFor: "example.com" })
    const { config, adapter } = setup(module)
    await signInThrough(config, new CookieJar(), "tenants-acme", "alice")
    const user = await adapter.getUserByEmail("alice@example.com")
    expect(user?.emailVerified).toBeInstanceOf(Date)
    expect(await adapter.getUserByAccount({ provider: "tenants-acme", providerAccountId: "alice" })).toMatchObject({ id: user!.id })
    const again = new CookieJar()
    await signInThrough(config, again, "tenants-acme", "alice")
    expect((await session(config, again))?.user).toMatchObject({ email: "alice@example.com" })
  })

  it("asks the module's `admit` before anything is stored: what it refuses signs no one in and creates nothing; what it lets through signs in", async () => {
    const asked: { email: unknown; linked: boolean; provider: string }[] = []
    let open = true
    const { module } = tenants({ vouchesFor: "example.com" })
    module.providers!.admit = (signIn) => {
      asked.push({ email: signIn.user.email, linked: signIn.linked, provider: signIn.account.provider })
      return open
    }
    const { config, adapter } = setup(module)
    open = false
    const refused = await signInThrough(config, new CookieJar(), "tenants-acme", "alice")
    expect(new URL(refused.headers.get("location")!).searchParams.get("error")).toBe("AccessDenied")
    expect(await adapter.getUserByEmail("alice@example.com")).toBeNull()

    open = true
    const jar = new CookieJar()
    await signInThrough(config, jar, "tenants-acme", "alice")
    expect((await session(config, jar))?.user).toMatchObject({ email: "alice@example.com" })
    // The account is linked now: the next sign-in is asked about its stored user.
    open = false
    const later = new CookieJar()
    const again = await signInThrough(config, later, "tenants-acme", "alice")
    expect(new URL(again.headers.get("location")!).searchParams.get("error")).toBe("AccessDenied")
    expect(await session(config, later)).toBeNull()
    expect(asked).toEqual([
      { email: "alice@example.com", linked: false, provider: "tenants-acme" },
      { email: "alice@example.com", linked: false, provider: "tenants-acme" },
      { email: "alice@example.com", linked: true, provider: "tenants-acme" },
    ])
  })

  it("refuses the sign-in when `admit` throws, creating nothing", async () => {
    const { module } = tenants({ vouchesFor: "example.com" })
    module.providers!.admit = () => {
      throw new Error("the module's store is down")
    }
    const { config, adapter } = setup(module)
    const refused = await signInThrough(config, new CookieJar(), "tenants-acme", "alice")
    expect(new URL(refused.headers.get("location")!).searchParams.get("error")).toBe("AccessDenied")
    expect(await adapter.getUserByEmail("alice@example.com")).toBeNull()
  })

  it("links to an existing user by address only where the module's provider vouches for it", async () => {
    // acme vouches for example.com: the existing alice@example.com gets the account.
    const vouching = setup(tenants({ vouchesFor: "example.com" }).module)
    const alice = await vouching.adapter.createUser({ id: "u-alice", email: "alice@example.com", emailVerified: new Date(), name: "Alice" })
    await signInThrough(vouching.config, new CookieJar(), "tenants-acme", "alice")
    expect(await vouching.adapter.getUserByAccount({ provider: "tenants-acme", providerAccountId: "alice" })).toMatchObject({ id: alice.id })

    // A provider that does not vouch for the address never takes the existing user over.
    const other = setup(tenants({ vouchesFor: "acme.test" }).module)
    await other.adapter.createUser({ id: "u-alice", email: "alice@example.com", emailVerified: new Date(), name: "Alice" })
    const jar = new CookieJar()
    const callback = await signInThrough(other.config, jar, "tenants-acme", "alice")
    await expectRejected(other.config, jar, callback, "OAuthAccountNotLinked")
    expect(await other.adapter.getUserByAccount({ provider: "tenants-acme", providerAccountId: "alice" })).toBeNull()
  })

  it("refuses a callback that the browser did not start (no check cookies), and a code handed to another browser", async () => {
    const { module } = tenants({ vouchesFor: "example.com" })
    const { config } = setup(module)
    const victim = new CookieJar()
    const started = await start(config, victim, { provider: "tenants-acme", email: "alice" })
    const location = new URL(started.headers.get("location")!)
    const answer = await atProvider(location.href, location.searchParams.get("redirect_uri")!)
    const attacker = new CookieJar()
    const callback = await deliver(config, attacker, answer)
    await expectRejected(config, attacker, callback, "InvalidCheck")
  })

  it("answers 404 for an id no module has, and for a provider of another tenant's name the module does not know", async () => {
    const { module } = tenants()
    const { config } = setup(module)
    for (const path of ["/auth/callback/tenants-nobody?code=x&state=y", "/auth/callback/other-acme?code=x&state=y"]) {
      const response = await send(config, path)
      expect(response.status, path).toBe(404)
    }
  })

  it("starts sign-ins with its own providers only, and only from an endpoint", async () => {
    const { module } = tenants()
    const { config } = setup(module, { providers: [{ id: "github", name: "GitHub", type: "oauth", clientId: "x", clientSecret: "y", authorization: "https://github.example/authorize", token: "https://github.example/token", userinfo: "https://github.example/user" }] })
    const jar = new CookieJar()
    const token = await csrfToken(config, jar)
    const other = await send(config, "/auth/tenants/other", { jar, form: { csrfToken: token } })
    // The module's mistake ends on the app's error page, never at the other provider.
    expect(other.status).toBe(302)
    expect(new URL(other.headers.get("location")!).pathname).toBe("/auth/error")
    expect(other.headers.getSetCookie().filter((cookie) => /state|pkce|nonce/.test(cookie))).toEqual([])
    await expect(callModuleApi(new Request(`${origin}/dashboard`), config, "startFromServer", [])).rejects.toThrow(/from one of its endpoints/)
  })

  it("is the module's mistake when its settings name another id: the request fails, nothing is signed in", async () => {
    const { module } = tenants({ settings: (id) => (id === "tenants-acme" ? { id: "tenants-globex", name: "Globex", type: "oidc", issuer: idp.issuer, clientId: "tenants-globex", clientSecret } : null) })
    const { config } = setup(module)
    const response = await send(config, "/auth/callback/tenants-acme?code=x&state=y")
    expect(response.status).toBeGreaterThanOrEqual(300)
    expect(response.headers.get("location") ?? "").toMatch(/error=Configuration/)
  })

  it("keeps its POST behind the dispatcher's checks: another site's form is refused", async () => {
    const { module } = tenants()
    const { config } = setup(module)
    const jar = new CookieJar()
    const token = await csrfToken(config, jar)
    const response = await send(config, "/auth/tenants/start", { jar, form: { csrfToken: token, provider: "tenants-acme" }, headers: { origin: "https://evil.example", "sec-fetch-site": "cross-site" } })
    expect(response.status).toBe(403)
    expect(response.headers.get("location")).toBeNull()
  })
})
