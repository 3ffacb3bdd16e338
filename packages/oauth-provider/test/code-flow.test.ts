/**
 * The authorization code flow with PKCE, end to end over HTTP with openid-client as the client:
 * discovery, the user's sign-in and consent in their browser, the code exchanged, the ID token and
 * userinfo, refresh with rotation, introspection and revocation.
 */
import * as client from "openid-client"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { clientOf, redirectUri, startWorld, webSecret, type World } from "./world.js"

let world: World
beforeAll(async () => {
  world = await startWorld()
})
afterAll(() => world.close())

/** Runs the flow for `browser` up to the code at the client's redirect URI. */
async function authorize(config: client.Configuration, browser: Awaited<ReturnType<World["user"]>>, scope = "openid email offline_access") {
  const verifier = client.randomPKCECodeVerifier()
  const state = client.randomState()
  const url = client.buildAuthorizationUrl(config, { redirect_uri: redirectUri, scope, code_challenge: await client.calculatePKCECodeChallenge(verifier), code_challenge_method: "S256", state, prompt: "consent" })
  let step = await browser.follow(url.href, redirectUri)
  if (step.html !== undefined) {
    expect(step.html).toContain("Allow Reports?")
    // The configuration's client: its name is the site's word.
    expect(step.html).not.toContain("This app was not added by this site")
    step = await browser.decide(step.html, "allow", redirectUri)
  }
  expect(step.url.startsWith(redirectUri), step.html).toBe(true)
  return { callback: new URL(step.url), verifier, state }
}

describe("the authorization code flow (openid-client)", () => {
  it("signs the user in at the client: consent, code, ID token, userinfo", async () => {
    const ada = await world.user("ada@example.com")
    const config = await clientOf(world, "reports", webSecret)
    expect(config.serverMetadata().issuer).toBe(world.issuer)
    const { callback, verifier, state } = await authorize(config, ada)
    const tokens = await client.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: state })
    const claims = tokens.claims()!
    expect(claims.sub).toBe(ada.id)
    expect(claims.iss).toBe(world.issuer)
    expect(claims.aud).toBe("reports")
    const info = await client.fetchUserInfo(config, tokens.access_token, ada.id)
    expect(info).toMatchObject({ sub: ada.id, email: "ada@example.com", email_verified: true })
    expect(tokens.refresh_token).toBeTypeOf("string")
  })

  it("refreshes with rotation, introspects and revokes", async () => {
    const bob = await world.user("bob@example.com")
    const config = await clientOf(world, "reports", webSecret)
    const { callback, verifier, state } = await authorize(config, bob)
    const first = await client.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: state })
    const second = await client.refreshTokenGrant(config, first.refresh_token!)
    expect(second.refresh_token).not.toBe(first.refresh_token)
    const active = await client.tokenIntrospection(config, second.access_token)
    expect(active).toMatchObject({ active: true, sub: bob.id, client_id: "reports" })
    await client.tokenRevocation(config, second.access_token)
    expect((await client.tokenIntrospection(config, second.access_token)).active).toBe(false)
  })
})
