/**
 * A module's own identity provider signing people in (`ModuleRequest.signIn`), with what such a
 * flow needs from the core: a cookie of the module's that rides along the identity provider's
 * cross-site form (`setCookie` with `crossSite`), and an endpoint that takes that form
 * (`crossSite: true`). Beside the flow: the account-linking rules, the `signIn` callback, another
 * module's provider id, a planted second cookie, and the configuration mistakes refused.
 */
import { Auth, callModuleApi, type AuthConfig, type SesameModule } from "@sesame/core"
import { MemoryAdapter } from "@sesame/core/adapters"
import { describe, expect, it } from "vitest"
import { CookieJar, csrfToken, origin, recordingLogger, secret, send } from "../helpers.js"

/**
 * A federation module: `POST fed/start` puts a random binding in its cookie (as a SAML request id
 * would be); the "identity provider" posts back to `POST fed/acs` from its own site with the
 * binding and who it vouches for, and the endpoint signs that person in when the binding matches.
 */
const federation: SesameModule = {
  id: "fed",
  routes: {
    "POST fed/start": {
      run(request) {
        const binding = crypto.randomUUID()
        request.setCookie("binding", binding, { maxAge: 300, crossSite: true })
        return { body: { binding } }
      },
    },
    "POST fed/acs": {
      csrf: false,
      crossSite: true,
      async run(request) {
        const expected = request.cookie("binding")
        if (!expected || request.body.binding !== expected) return { status: 400, body: { error: "not this browser's" } }
        request.setCookie("binding", "", { maxAge: 0, crossSite: true })
        return request.signIn({
          providerId: String(request.body.provider ?? "fed-acme"),
          providerName: "Acme",
          providerAccountId: String(request.body.sub),
          user: { email: String(request.body.email), name: "From Acme" },
          profile: { sub: String(request.body.sub), email: String(request.body.email) },
          emailVerified: request.body.vouch === "yes",
          ...(typeof request.body.recorded === "string" ? { callbackUrl: request.body.recorded } : {}),
        })
      },
    },
  },
}

function setup(overrides: Partial<AuthConfig> = {}) {
  const adapter = MemoryAdapter()
  const { logger, lines } = recordingLogger()
  const config: AuthConfig = { secret, trustHost: true, adapter, providers: [], plugins: [federation], logger, ...overrides }
  return { adapter, config, lines }
}

async function started(config: AuthConfig, jar: CookieJar, base = origin): Promise<{ binding: string; response: Response }> {
  const response = await send(config, `${base}/auth/fed/start`, { jar, form: { csrfToken: await csrfToken(config, jar, `${base}/auth`) }, headers: { origin: base } })
  return { binding: ((await response.clone().json()) as { binding: string }).binding, response }
}

/** The identity provider's form, posted from its own site. */
function fromIdp(config: AuthConfig, jar: CookieJar, fields: Record<string, string>): Promise<Response> {
  return send(config, "/auth/fed/acs", { jar, form: fields, headers: { origin: "https://idp.example", "sec-fetch-site": "cross-site" } })
}

describe("a module's identity provider", () => {
  it("signs the person in from the provider's cross-site form, bound to the browser by the module's cookie", async () => {
    const { adapter, config } = setup()
    const jar = new CookieJar()
    const { binding, response } = await started(config, jar)


    const cookie = response.headers.getSetCookie().find((c) => c.startsWith("sesame.fed.binding="))
    expect(cookie).toMatch(/HttpOnly/i)
    expect(cookie).toMatch(/Max-Age=300/)

    const back = await fromIdp(config, jar, { binding, sub: "grace-1", email: "Grace@Acme.test", vouch: "yes", callbackUrl: `${origin}/somewhere` })
    expect(back.status).toBe(302)
    // The form's callbackUrl, checked as everywhere.
    expect(back.headers.get("location")).toBe(`${origin}/somewhere`)
    expect(((await (await send(config, "/auth/session", { jar })).json()) as { user: unknown }).user).toMatchObject({ email: "grace@acme.test", name: "From Acme" })
    const user = await adapter.getUserByAccount!({ provider: "fed-acme", providerAccountId: "grace-1" })
    expect(user).toMatchObject({ email: "grace@acme.test" })
    expect(user?.emailVerified).toBeInstanceOf(Date)
    expect(await adapter.listAccountsByUserId!(user!.id)).toMatchObject([{ provider: "fed-acme", type: "oauth", providerAccountId: "grace-1" }])
  })

  it("goes where the module recorded, in place of the request's callbackUrl, and never off the app's origin", async () => {
    for (const [recorded, expected] of [
      [`${origin}/recorded`, `${origin}/recorded`],
      ["https://evil.example/", `${origin}/`],
    ]) {
      const { config } = setup()
      const jar = new CookieJar()
      const { binding } = await started(config, jar)
      const back = await fromIdp(config, jar, { binding, sub: "grace-1", email: "grace@acme.test", vouch: "yes", callbackUrl: `${origin}/from-the-form`, recorded: recorded! })
      expect(back.headers.get("location")).toBe(expected)
    }
  })

  it("sets the cookie SameSite=None, Secure and prefixed on https, so that it comes back with the cross-site form", async () => {
    const { config } = setup()
    const { response } = await started(config, new CookieJar(), "https://app.example")
    const cookie = response.headers.getSetCookie().find((c) => c.startsWith("__Secure-sesame.fed.binding="))
    expect(cookie).toMatch(/SameSite=None/i)
    expect(cookie).toMatch(/Secure/)
  })

  it("is not signed in from another browser (no cookie), nor with a cookie planted twice", async () => {
    const { config } = setup()
    const { binding } = await started(config, new CookieJar())
    const other = new CookieJar()
    expect((await fromIdp(config, other, { binding, sub: "grace-1", email: "grace@acme.test", vouch: "yes" })).status).toBe(400)
    const planted = await send(config, "/auth/fed/acs", {
      form: { binding, sub: "grace-1", email: "grace@acme.test", vouch: "yes" },
      cookie: `sesame.fed.binding=${binding}; sesame.fed.binding=${binding}`,
      headers: { origin: "https://idp.example", "sec-fetch-site": "cross-site" },
    })
    expect(planted.status).toBe(400)
  })

  it("links to the existing user of the address only when the provider speaks for it", async () => {
    for (const vouch of ["no", "yes"]) {
      const { adapter, config } = setup()
      const owner = await adapter.createUser!({ id: "owner", email: "grace@acme.test", emailVerified: new Date(), name: "Grace" })
      const jar = new CookieJar()
      const { binding } = await started(config, jar)
      const back = await fromIdp(config, jar, { binding, sub: "grace-1", email: "grace@acme.test", vouch })
      const linked = await adapter.getUserByAccount!({ provider: "fed-acme", providerAccountId: "grace-1" })
      if (vouch === "no") {
        expect(new URL(back.headers.get("location")!).searchParams.get("error")).toBe("OAuthAccountNotLinked")
        expect(linked).toBeNull()
      } else {
        expect(linked?.id).toBe(owner.id)
      }
    }
  })

  it("asks the app's signIn callback, which may refuse", async () => {
    const { config, adapter } = setup({ callbacks: { signIn: ({ account }) => account?.provider !== "fed-acme" } })
    const jar = new CookieJar()
    const { binding } = await started(config, jar)
    const back = await fromIdp(config, jar, { binding, sub: "grace-1", email: "grace@acme.test", vouch: "yes" })
    expect(new URL(back.headers.get("location")!).searchParams.get("error")).toBe("AccessDenied")
    expect(await adapter.getUserByEmail!("grace@acme.test")).toBeNull()
  })

  it("signs in with the module's own providers only", async () => {
    const { config, adapter } = setup()
    const jar = new CookieJar()
    const { binding } = await started(config, jar)
    const back = await fromIdp(config, jar, { binding, provider: "github", sub: "1", email: "grace@acme.test", vouch: "yes" })
    expect(new URL(back.headers.get("location")!).pathname).toBe("/auth/error")
    expect(await adapter.getUserByEmail!("grace@acme.test")).toBeNull()
  })
})

describe("sending the browser to an identity provider", () => {
  const away: SesameModule = {
    id: "away",
    routes: {
      "GET away": {
        run(request) {
          request.setCookie("pending", "1", { maxAge: 60 })
          return request.redirectToIdentityProvider(String(request.query.to))
        },
      },
    },
    api: { fromServer: async (request) => request.redirectToIdentityProvider("https://idp.example/sso") },
  }

  it("goes to an https URL (or http on a loopback host) with the endpoint's cookies", async () => {
    const config: AuthConfig = { secret, trustHost: true, providers: [], plugins: [away] }
    for (const to of ["https://idp.example/sso?SAMLRequest=x", "http://localhost:8080/sso", "http://127.0.0.1:9/sso"]) {
      const response = await send(config, `/auth/away?to=${encodeURIComponent(to)}`)
      expect(response.status).toBe(302)
      expect(response.headers.get("location")).toBe(new URL(to).href)
      expect(response.headers.getSetCookie().some((c) => c.startsWith("sesame.away.pending=1"))).toBe(true)
    }
  })

  it("refuses any other scheme or plain http to another host, and a server function", async () => {
    const { logger } = recordingLogger()
    const config: AuthConfig = { secret, trustHost: true, providers: [], plugins: [away], logger }
    for (const to of ["javascript:alert(1)", "http://idp.example/sso", "data:text/html,x", "//evil.example/", "not a url"]) {
      const response = await send(config, `/auth/away?to=${encodeURIComponent(to)}`)
      const location = response.headers.get("location")
      expect(location === null || new URL(location).origin === origin, to).toBe(true)
    }
    await expect(callModuleApi(new Request(`${origin}/app`), config, "fromServer")).rejects.toThrow(/endpoints can send the browser on/)
  })
})

describe("the configuration of a cross-site endpoint", () => {
  it("is refused unless it is a POST without the CSRF token", async () => {
    for (const route of [{ crossSite: true }, { crossSite: true, csrf: true }]) {
      const { logger, lines } = recordingLogger()
      const module: SesameModule = { id: "fed", routes: { "POST fed/acs": { ...route, run: () => ({}) } } }
      const response = await Auth(new Request(`${origin}/auth/session`), { secret, trustHost: true, providers: [], plugins: [module], logger })
      expect(response.status).toBe(500)
      expect(lines.join("\n")).toMatch(/crossSite/)
    }
  })

  it("leaves the other endpoints of the module behind the same-origin check", async () => {
    const { config } = setup()
    const jar = new CookieJar()
    const token = await csrfToken(config, jar)
    const response = await send(config, "/auth/fed/start", { jar, form: { csrfToken: token }, headers: { origin: "https://idp.example", "sec-fetch-site": "cross-site" } })
    expect(response.status).toBe(403)
  })
})
