/**
 * An `oauth` provider configured by its endpoints, with an `issuer` beside them: the ID token that
 * comes with the tokens is checked against that issuer, as Auth.js does; another issuer is refused.
 * (It was checked against a placeholder, so every such provider whose token endpoint returned an
 * ID token failed.)
 */
import type { OAuth2Config } from "@sesame/core"
import type { DevIdp } from "@sesame/dev-idp"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { CookieJar } from "../helpers.js"
import { clientSecret, expectRejected, oauthConfig, session, signIn, startIdp } from "./harness.js"

let idp: DevIdp
let endpoints: { authorization_endpoint: string; token_endpoint: string; userinfo_endpoint: string; jwks_uri: string }

beforeAll(async () => {
  idp = await startIdp()
  endpoints = (await (await fetch(`${idp.issuer}/.well-known/openid-configuration`)).json()) as typeof endpoints
})
afterAll(() => idp.close())

function byEndpoints(issuer: string): OAuth2Config {
  return {
    id: "dev",
    name: "Dev (endpoints)",
    type: "oauth",
    clientId: "dev",
    clientSecret,
    issuer,
    authorization: { url: endpoints.authorization_endpoint, params: { scope: "openid email profile" } },
    token: endpoints.token_endpoint,
    userinfo: endpoints.userinfo_endpoint,
    jwks_endpoint: endpoints.jwks_uri,
    profile: (profile) => ({ id: String(profile.sub), name: String(profile.name), email: String(profile.email) }),
  }
}

describe("an oauth provider by endpoints, with an issuer", () => {
  it("checks the ID token against the configured issuer and signs in", async () => {
    const errors: Error[] = []
    const config = oauthConfig({ providers: [byEndpoints(idp.issuer)], logger: { error: (e) => void errors.push(e), warn: () => {}, debug: () => {} } })
    const jar = new CookieJar()
    const done = await signIn(config, jar, "dev", { query: { login_hint: "alice" } })
    expect(errors.map((e) => `${e.message} ${String((e as { cause?: unknown }).cause)}`)).toEqual([])
    expect(done.headers.get("location")).not.toMatch(/error=/)
    expect((await session(config, jar))?.user).toMatchObject({ email: "alice@example.com" })
  })

  it("refuses an ID token from another issuer than the configured one", async () => {
    const config = oauthConfig({ providers: [byEndpoints("https://someone-else.example")], logger: { error: () => {}, warn: () => {}, debug: () => {} } })
    const jar = new CookieJar()
    await expectRejected(config, jar, await signIn(config, jar, "dev", { query: { login_hint: "alice" } }), "OAuthCallbackError")
  })
})
