/**
 * OAuth/OIDC provider configuration: what is refused when the configuration is resolved (with a
 * message naming the fix), and what comes from the environment.
 */
import type { DevIdp } from "@sesame/dev-idp"
import type { AuthConfig, OAuthConfig } from "@sesame/core"
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest"
import { CookieJar, secret, send } from "../helpers.js"
import { clientSecret, oidc, session, signIn, startIdp } from "./harness.js"

let idp: DevIdp

beforeAll(async () => {
  idp = await startIdp()
})
afterAll(() => idp.close())
afterEach(() => vi.unstubAllEnvs())

/** The configuration error a provider causes, as logged ("" when there is none). */
async function problem(provider: OAuthConfig): Promise<string> {
  const errors: Error[] = []
  const config: AuthConfig = { secret, trustHost: true, logger: { error: (e) => void errors.push(e) }, providers: [provider] }
  const res = await send(config, "/auth/providers")
  return res.status === 500 ? `${errors[0]?.name}: ${errors[0]?.message}` : ""
}

const base = { id: "x", name: "X", clientId: "id", clientSecret: "secret" }

describe("oauth and oidc provider configuration", () => {
  it("a valid provider resolves", async () => {
    expect(await problem({ ...base, type: "oidc", issuer: "https://idp.example" })).toBe("")
    expect(await problem({ ...base, type: "oauth", authorization: "https://a.example/auth", token: "https://a.example/token", userinfo: "https://a.example/me" })).toBe("")
  })

  it.each<[string, OAuthConfig, RegExp]>([
    ["an OIDC provider without issuer", { ...base, type: "oidc", authorization: "https://a.example/auth", token: "https://a.example/token" }, /InvalidProvider: .*no issuer\. Set AUTH_X_ISSUER/],
    ["a plain OAuth provider without endpoints", { ...base, type: "oauth", authorization: "https://a.example/auth" }, /InvalidEndpoints: .*`token`, `userinfo`/],
    ["an http URL that is not on this machine", { ...base, type: "oidc", issuer: "http://idp.example" }, /InvalidEndpoints: .*https URL \(http only for localhost\)/],
    // A path is under the issuer (as Mastodon's endpoints), which may come from the environment.
    ["a URL that is not one", { ...base, type: "oauth", authorization: "/auth", token: "https://a.example/token", userinfo: "https://a.example/me" }, /InvalidProvider: .*no issuer\. Set AUTH_X_ISSUER/],
    ["a URL that is not one, with an issuer", { ...base, type: "oauth", issuer: "https://a.example", authorization: "//auth", token: "https://a.example/token", userinfo: "https://a.example/me" }, /InvalidEndpoints: .*absolute URL/],
    ["no client id", { ...base, clientId: undefined, type: "oidc", issuer: "https://idp.example" }, /InvalidProvider: .*no client id\. Set AUTH_X_ID /],
    ["no client secret", { ...base, clientSecret: undefined, type: "oidc", issuer: "https://idp.example" }, /InvalidProvider: .*no client secret\. Set AUTH_X_SECRET /],
    [
      "a public client without PKCE",
      { ...base, clientSecret: undefined, type: "oidc", issuer: "https://idp.example", checks: ["state"], client: { token_endpoint_auth_method: "none" } },
      /InvalidProvider: .*must use the "pkce" check/,
    ],
    ["nonce on a plain OAuth provider", { ...base, type: "oauth", issuer: "https://a.example", checks: ["nonce"] as never }, /InvalidProvider: .*"nonce" needs an ID token/],
    ["an unknown check", { ...base, type: "oidc", issuer: "https://idp.example", checks: ["magic"] as never }, /InvalidProvider: .*`checks`/],
    ["private_key_jwt without a key", { ...base, type: "oidc", issuer: "https://idp.example", client: { token_endpoint_auth_method: "private_key_jwt" } }, /InvalidProvider: .*privateKey/],
    ["an unknown client authentication", { ...base, type: "oidc", issuer: "https://idp.example", client: { token_endpoint_auth_method: "magic" as never } }, /InvalidProvider: .*token_endpoint_auth_method/],
  ])("refuses %s", async (_name, provider, message) => {
    expect(await problem(provider)).toMatch(message)
  })

  it("a bad redirectProxyUrl is a configuration error", async () => {
    const errors: Error[] = []
    const config: AuthConfig = { secret, trustHost: true, redirectProxyUrl: "ftp://proxy", logger: { error: (e) => void errors.push(e) }, providers: [] }
    expect((await send(config, "/auth/providers")).status).toBe(500)
    expect(errors[0]?.message).toMatch(/redirectProxyUrl/)
  })

  it("reads AUTH_<ID>_ID, _SECRET and _ISSUER from the environment", async () => {
    vi.stubEnv("AUTH_DEV_ID", "dev")
    vi.stubEnv("AUTH_DEV_SECRET", clientSecret)
    vi.stubEnv("AUTH_DEV_ISSUER", idp.issuer)
    const config: AuthConfig = { secret, trustHost: true, providers: [{ id: "dev", name: "Dev", type: "oidc" }] }
    const jar = new CookieJar()
    await signIn(config, jar)
    expect(await session(config, jar)).toMatchObject({ user: { email: "alice@example.com" } })
  })

  it("lists OAuth providers with their sign-in and callback URLs", async () => {
    const config: AuthConfig = { secret, trustHost: true, providers: [oidc(idp)] }
    expect(await (await send(config, "/auth/providers")).json()).toEqual({
      dev: { id: "dev", name: "Dev IdP", type: "oidc", signinUrl: "http://localhost:3000/auth/signin/dev", callbackUrl: "http://localhost:3000/auth/callback/dev" },
    })
  })

  it("shows a button per OAuth provider on the sign-in page, posting to signin/:id", async () => {
    const config: AuthConfig = { secret, trustHost: true, providers: [oidc(idp)] }
    const page = await (await send(config, "/auth/signin")).text()
    expect(page).toContain('action="http://localhost:3000/auth/signin/dev" method="POST"')
    expect(page).toContain("Sign in with Dev IdP")
  })

  it("a provider that cannot be reached ends on the sign-in page (OAuthSignInError), not in a 500", async () => {
    const errors: Error[] = []
    const config: AuthConfig = {
      secret,
      trustHost: true,
      logger: { error: (e) => void errors.push(e) },
      providers: [oidc(idp, { issuer: "http://127.0.0.1:9/nothing-here" })],
    }
    const jar = new CookieJar()
    const { csrfToken } = (await (await send(config, "/auth/csrf", { jar })).json()) as { csrfToken: string }
    const res = await send(config, "/auth/signin/dev", { jar, form: { csrfToken } })
    expect(res.status).toBe(302)
    expect(res.headers.get("location")).toBe("http://localhost:3000/auth/signin?error=OAuthSignInError")
    expect(errors[0]?.name).toBe("OAuthSignInError")
  })
})
