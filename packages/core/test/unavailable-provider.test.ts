/**
 * One provider's missing settings (an OIDC provider copied without its client id, a deployment
 * that lacks one provider's variables) leave that provider unavailable: its own endpoints answer
 * the `Configuration` error and the log names the exact variables to set, while the other
 * providers sign in and sessions are read as before, in development and in production.
 */
import type { DevIdp } from "@sesame/dev-idp"
import type { AuthConfig, OIDCConfig } from "@sesame/core"
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest"
import { aliceCredentials, CookieJar, csrfToken, origin, recordingLogger, secret, send, signInAlice } from "./helpers.js"
import { client, clientSecret, oidc, session, signIn, startIdp } from "./oauth/harness.js"

let idp: DevIdp

beforeAll(async () => {
  idp = await startIdp({ clients: [client("dev"), client("my-idp")] })
})
afterAll(() => idp.close())
afterEach(() => vi.unstubAllEnvs())

/** The README's example provider, copied without the settings it takes from the environment. */
const copied: OIDCConfig = { id: "my-idp", name: "My IdP", type: "oidc" }

function noProviderVariables() {
  for (const name of ["AUTH_MY_IDP_ID", "AUTH_MY_IDP_SECRET", "AUTH_MY_IDP_ISSUER"]) vi.stubEnv(name, undefined)
}

function app(providers: AuthConfig["providers"] = [aliceCredentials(), oidc(idp), copied]) {
  const { lines, logger } = recordingLogger()
  const config: AuthConfig = { secret, trustHost: true, providers, logger }
  return { config, log: lines }
}

/** Follows a redirect to the error page and returns its status, asserting it is the `Configuration` error. */
async function expectConfigurationError(config: AuthConfig, response: Response): Promise<void> {
  expect(response.status).toBe(302)
  const location = response.headers.get("location")!
  expect(location).toBe(`${origin}/auth/error?error=Configuration`)
  const page = await send(config, location)
  expect(page.status).toBe(500)
  expect(await page.text()).not.toContain("AUTH_MY_IDP")
}

describe("a provider whose settings are missing", () => {
  it("does not stop the others: credentials and another OIDC provider sign in, sessions are read", async () => {
    noProviderVariables()
    const { config } = app()
    const alice = new CookieJar()
    expect((await signInAlice(config, alice)).headers.get("location")).toBe(`${origin}/`)
    expect(await session(config, alice)).toMatchObject({ user: { name: "Alice" } })
    const viaIdp = new CookieJar()
    expect((await signIn(config, viaIdp)).headers.get("location")).toBe(`${origin}/`)
    expect(await session(config, viaIdp)).toMatchObject({ user: { email: "alice@example.com" } })
  })

  it("is left off the providers list and the sign-in page", async () => {
    noProviderVariables()
    const { config } = app()
    const list = await send(config, "/auth/providers")
    expect(list.status).toBe(200)
    expect(Object.keys((await list.json()) as object)).toEqual(["credentials", "dev"])
    const page = await send(config, "/auth/signin")
    expect(page.status).toBe(200)
    const html = await page.text()
    expect(html).toContain("Sign in with Dev IdP")
    expect(html).not.toContain("/auth/signin/my-idp")
  })

  it("answers the Configuration error on its own endpoints, and the log names the provider and AUTH_MY_IDP_ID, _SECRET, _ISSUER", async () => {
    noProviderVariables()
    const { config, log } = app()
    // Said as soon as the configuration is used, before anyone tries the provider.
    expect((await send(config, "/auth/session")).status).toBe(200)
    const said = log.join("\n")
    expect(said).toMatch(/Provider "my-idp" is unavailable: it has no client id, client secret and issuer\. Set AUTH_MY_IDP_ID, AUTH_MY_IDP_SECRET and AUTH_MY_IDP_ISSUER/)
    expect(said).not.toContain("AUTH_<ID>")

    const jar = new CookieJar()
    const token = await csrfToken(config, jar)
    log.length = 0
    await expectConfigurationError(config, await send(config, "/auth/signin/my-idp", { jar, form: { csrfToken: token } }))
    await expectConfigurationError(config, await send(config, "/auth/signin/my-idp", { jar }))
    await expectConfigurationError(config, await send(config, "/auth/callback/my-idp?code=forged&state=forged", { jar }))
    expect(jar.get("sesame.session-token")).toBeUndefined()
    expect(log.filter((line) => line.includes('Provider "my-idp" is unavailable') && line.includes("AUTH_MY_IDP_ID"))).toHaveLength(3)
    // An id that is no provider at all is still a 404.
    expect((await send(config, "/auth/signin/nobody", { jar, form: { csrfToken: token } })).status).toBe(404)
  })

  it("names only what is missing", async () => {
    noProviderVariables()
    vi.stubEnv("AUTH_MY_IDP_ISSUER", idp.issuer)
    const { config, log } = app([aliceCredentials(), { ...copied, clientSecret }])
    await send(config, "/auth/session")
    const said = log.join("\n")
    expect(said).toMatch(/Provider "my-idp" is unavailable: it has no client id\. Set AUTH_MY_IDP_ID in the environment \(or `clientId` in the provider's options\)/)
    expect(said).not.toContain("AUTH_MY_IDP_SECRET")
    expect(said).not.toContain("AUTH_MY_IDP_ISSUER")
  })

  it("works once its variables are set", async () => {
    vi.stubEnv("AUTH_MY_IDP_ID", "my-idp")
    vi.stubEnv("AUTH_MY_IDP_SECRET", clientSecret)
    vi.stubEnv("AUTH_MY_IDP_ISSUER", idp.issuer)
    const { config, log } = app()
    const jar = new CookieJar()
    expect((await signIn(config, jar, "my-idp")).headers.get("location")).toBe(`${origin}/`)
    expect(await session(config, jar)).toMatchObject({ user: { email: "alice@example.com" } })
    expect(log.join("\n")).not.toContain("unavailable")
  })

  it("is handled the same way in production", async () => {
    noProviderVariables()
    vi.stubEnv("NODE_ENV", "production")
    vi.stubEnv("AUTH_URL", origin)
    const { config, log } = app()
    const jar = new CookieJar()
    expect((await signInAlice(config, jar)).headers.get("location")).toBe(`${origin}/`)
    expect(await session(config, jar)).toMatchObject({ user: { name: "Alice" } })
    await expectConfigurationError(config, await send(config, "/auth/signin/my-idp"))
    expect(log.join("\n")).toContain("AUTH_MY_IDP_ID")
  })

  it("fails the configuration as a whole when no provider is left, with the same message", async () => {
    noProviderVariables()
    const { config, log } = app([copied])
    const response = await send(config, "/auth/session")
    expect(response.status).toBe(500)
    expect(log.join("\n")).toMatch(/Provider "my-idp" is unavailable: .*AUTH_MY_IDP_ID/)
    expect((await send(config, "/auth/signin")).status).toBe(500)
  })
})
