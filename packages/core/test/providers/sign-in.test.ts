/**
 * Built-in providers signing in end to end through `Auth()`, against services on 127.0.0.1:
 * GitHub with a private email, Google-style OpenID Connect and Apple-style `form_post` against a
 * real OpenID Provider (`@sesame/dev-idp`, with each provider's options pointed at it), and
 * Microsoft Entra ID's tenant issuers, single-tenant and multi-tenant.
 */
import type { DevIdp } from "@sesame/dev-idp"
import Apple from "@sesame/core/providers/apple"
import GitHub from "@sesame/core/providers/github"
import Google from "@sesame/core/providers/google"
import MicrosoftEntraID from "@sesame/core/providers/microsoft-entra-id"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { CookieJar, origin } from "../helpers.js"
import { accounts, atProvider, callbackUrl, client, clientSecret, deliver, expectRejected, quietLogger, session, signIn, startIdp, startSignIn, withAdapter } from "../oauth/harness.js"
import { gitHubUser, startEntra, startGitHub, tenants, type Emulator } from "./emulators.js"

describe("GitHub", () => {
  const credentials = { clientId: "gh-client", clientSecret: "gh-secret-0123456789", redirectUri: callbackUrl("github") }
  let github: Emulator
  beforeAll(async () => {
    github = await startGitHub(credentials)
  })
  afterAll(() => github.close())

  it("signs in with the private email from /user/emails (primary and verified), on GitHub Enterprise Server URLs", async () => {
    const provider = GitHub({ clientId: credentials.clientId, clientSecret: credentials.clientSecret, enterprise: { baseUrl: github.base } })
    const { adapter, config } = withAdapter({ providers: [provider] })
    const jar = new CookieJar()
    const start = await startSignIn(config, jar, "github")
    const authorization = new URL(start.headers.get("location")!)
    expect(`${authorization.origin}${authorization.pathname}`).toBe(`${github.base}/login/oauth/authorize`)
    expect(authorization.searchParams.get("scope")).toBe("read:user user:email")
    expect(authorization.searchParams.get("state")).toBeTruthy()
    const callback = await deliver(config, jar, await atProvider(authorization.href, callbackUrl("github")))
    expect(callback.headers.get("location")).toBe(`${origin}/`)
    expect(await session(config, jar)).toMatchObject({ user: { name: gitHubUser.name, email: "octocat@example.com", image: gitHubUser.avatar_url } })
    expect([...adapter.tables.accounts.values()][0]).toMatchObject({ provider: "github", type: "oauth", providerAccountId: "583231" })
    expect(github.requests).toContain("/api/v3/user/emails")
  })
})

describe("OpenID Connect against a real OpenID Provider", () => {
  let idp: DevIdp
  beforeAll(async () => {
    idp = await startIdp({ clients: [client("google"), client("apple", { token_endpoint_auth_method: "client_secret_post" })] })
  })
  afterAll(() => idp.close())

  it("Google: discovery, PKCE and nonce, the profile from the ID token", async () => {
    const { adapter, config } = withAdapter({ providers: [Google({ issuer: idp.issuer, clientId: "google", clientSecret })] })
    const jar = new CookieJar()
    const start = await startSignIn(config, jar, "google")
    const authorization = new URL(start.headers.get("location")!)
    expect(authorization.searchParams.get("scope")).toBe("openid profile email")
    expect(authorization.searchParams.get("nonce")).toBeTruthy()
    expect(authorization.searchParams.get("code_challenge_method")).toBe("S256")
    await deliver(config, jar, await atProvider(authorization.href, callbackUrl("google")))
    expect(await session(config, jar)).toMatchObject({ user: { name: accounts[0]!.name, email: accounts[0]!.email } })
    expect([...adapter.tables.accounts.values()][0]).toMatchObject({ provider: "google", type: "oidc", providerAccountId: accounts[0]!.id })
  })

  // The dev IdP plays Apple: form_post, client_secret_post, state and nonce; Apple's page adds the
  // `user` form field on the first sign-in, so the test adds it to the form the IdP answered with.
  const apple = () =>
    Apple({ issuer: idp.issuer, clientId: "apple", clientSecret, authorization: { params: { scope: "openid email" } } })

  it("Apple: a form_post callback, the name from the `user` field of the first sign-in, the email from the ID token", async () => {
    const { adapter, config } = withAdapter({ providers: [apple()] })
    const jar = new CookieJar()
    const start = await startSignIn(config, jar, "apple")
    const authorization = new URL(start.headers.get("location")!)
    expect(authorization.searchParams.get("response_mode")).toBe("form_post")
    expect(authorization.searchParams.has("code_challenge")).toBe(false)
    const answer = await atProvider(authorization.href, callbackUrl("apple"))
    if (answer.kind !== "form") throw new Error("expected a form_post answer")
    // What Apple posts on a first sign-in; the email in it is not the signed one and is ignored.
    answer.fields.user = JSON.stringify({ name: { firstName: "Alice", lastName: "Pleasance" }, email: "someone-else@example.com" })
    const callback = await deliver(config, jar, answer)
    expect(callback.headers.get("location")).toBe(`${origin}/`)
    expect(await session(config, jar)).toMatchObject({ user: { name: "Alice Pleasance", email: accounts[0]!.email } })

    // Later sign-ins carry no `user`: the user keeps the name from the first one.
    const again = new CookieJar()
    const response = await signIn(config, again, "apple")
    expect(response.headers.get("location")).toBe(`${origin}/`)
    expect(await session(config, again)).toMatchObject({ user: { name: "Alice Pleasance", email: accounts[0]!.email } })
    expect(adapter.tables.users.size).toBe(1)
  })

  it("Apple: a form_post whose state was tampered with is refused", async () => {
    const { logger } = quietLogger()
    const { config } = withAdapter({ logger, providers: [apple()] })
    const jar = new CookieJar()
    const start = await startSignIn(config, jar, "apple")
    const answer = await atProvider(start.headers.get("location")!, callbackUrl("apple"))
    if (answer.kind !== "form") throw new Error("expected a form_post answer")
    await expectRejected(config, jar, await deliver(config, jar, { ...answer, fields: { ...answer.fields, state: "forged" } }), "InvalidCheck")
  })
})

describe("Microsoft Entra ID tenant issuers", () => {
  const credentials = { clientId: "entra-client", clientSecret: "entra-secret-0123456789", redirectUri: callbackUrl("microsoft-entra-id") }
  let entra: Awaited<ReturnType<typeof startEntra>>
  beforeAll(async () => {
    entra = await startEntra(credentials)
  })
  afterAll(() => entra.close())

  const provider = (tenantId: string) =>
    MicrosoftEntraID({ clientId: credentials.clientId, clientSecret: credentials.clientSecret, issuer: `${entra.base}/${tenantId}/v2.0` })

  it("a single tenant: the issuer is the tenant's", async () => {
    const { config } = withAdapter({ providers: [provider(tenants.contoso)] })
    const jar = new CookieJar()
    await signIn(config, jar, "microsoft-entra-id")
    expect(await session(config, jar)).toMatchObject({ user: { name: "Ada Lovelace", email: `ada@${tenants.contoso.slice(0, 8)}.example` } })
  })

  it("the common endpoint: users of any tenant, each ID token checked against its own tenant's issuer", async () => {
    const { adapter, config } = withAdapter({ providers: [provider("common")] })
    for (const tenant of [tenants.contoso, tenants.fabrikam]) {
      entra.state.signInTenant = tenant
      const jar = new CookieJar()
      const response = await signIn(config, jar, "microsoft-entra-id")
      expect(response.headers.get("location")).toBe(`${origin}/`)
    }
    expect([...adapter.tables.accounts.values()].map((a) => a.providerAccountId).sort()).toEqual(
      [tenants.contoso, tenants.fabrikam].map((t) => `pairwise-subject-of-${t.slice(0, 8)}`).sort(),
    )
  })

  it("the common endpoint: an ID token naming another tenant's issuer than its tid is refused", async () => {
    const { logger, errors } = quietLogger()
    const { config } = withAdapter({ logger, providers: [provider("common")] })
    entra.state.signInTenant = tenants.contoso
    entra.state.forgeIssuer = `${entra.base}/${tenants.fabrikam}/v2.0`
    const jar = new CookieJar()
    await expectRejected(config, jar, await signIn(config, jar, "microsoft-entra-id"), "OAuthCallbackError")
    expect(errors.map((e) => e.message).join(" ")).toMatch(/Exchanging the authorization code/)
  })

  it("a tenant issuer that is not the one discovery names is refused (no template for a real tenant)", async () => {
    const { logger } = quietLogger()
    const { config } = withAdapter({ logger, providers: [provider(tenants.contoso)] })
    entra.state.signInTenant = tenants.contoso
    entra.state.forgeIssuer = `${entra.base}/{tenantid}/v2.0`
    const jar = new CookieJar()
    await expectRejected(config, jar, await signIn(config, jar, "microsoft-entra-id"), "OAuthCallbackError")
  })
})
