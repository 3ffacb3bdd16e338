/**
 * The same server through oauth4webapi, the lower-level client: the code flow with PKCE and DPoP
 * (RFC 9449) over HTTP, userinfo, refresh, introspection and revocation; a DPoP-bound token sent
 * as a plain bearer token is refused. Then RP-initiated logout: the user confirms on the module's
 * page, is signed out of Sesame, and the browser goes back to the client with its `state`.
 */
import * as oauth from "oauth4webapi"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { formOf, redirectUri, startWorld, webSecret, type World } from "./world.js"

let world: World
let as: oauth.AuthorizationServer
const client: oauth.Client = { client_id: "reports" }
const auth = oauth.ClientSecretBasic(webSecret)
const insecure = { [oauth.allowInsecureRequests]: true }

beforeAll(async () => {
  world = await startWorld()
  const issuer = new URL(world.issuer)
  as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { ...insecure, algorithm: "oidc" }))
})
afterAll(() => world.close())

describe("oauth4webapi against the server", () => {
  it("code flow with PKCE and DPoP, userinfo, refresh, introspection, revocation; the bound token is no bearer token", async () => {
    const user = await world.user("four@example.com")
    const verifier = oauth.generateRandomCodeVerifier()
    const state = oauth.generateRandomState()
    const url = new URL(as.authorization_endpoint!)
    url.search = new URLSearchParams({ client_id: "reports", redirect_uri: redirectUri, response_type: "code", scope: "openid email offline_access", code_challenge: await oauth.calculatePKCECodeChallenge(verifier), code_challenge_method: "S256", state, prompt: "consent" }).toString()
    let step = await user.follow(url.href, redirectUri)
    step = await user.decide(step.html!, "allow", redirectUri)
    const params = oauth.validateAuthResponse(as, client, new URL(step.url), state)

    const DPoP = oauth.DPoP(client, await oauth.generateKeyPair("ES256"))
    const tokens = await oauth.processAuthorizationCodeResponse(as, client, await oauth.authorizationCodeGrantRequest(as, client, auth, params, redirectUri, verifier, { ...insecure, DPoP }))
    expect(tokens.token_type.toLowerCase()).toBe("dpop")
    expect(oauth.getValidatedIdTokenClaims(tokens)!.sub).toBe(user.id)

    const info = await oauth.processUserInfoResponse(as, client, user.id, await oauth.userInfoRequest(as, client, tokens.access_token, { ...insecure, DPoP }))
    expect(info.email).toBe("four@example.com")
    // The same token without its proof: refused.
    const bare = await fetch(as.userinfo_endpoint!, { headers: { authorization: `Bearer ${tokens.access_token}` } })
    expect(bare.status).toBe(401)

    const refreshed = await oauth.processRefreshTokenResponse(as, client, await oauth.refreshTokenGrantRequest(as, client, auth, tokens.refresh_token!, { ...insecure, DPoP }))
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token)
    const active = await oauth.processIntrospectionResponse(as, client, await oauth.introspectionRequest(as, client, auth, refreshed.access_token, insecure))
    expect(active).toMatchObject({ active: true, sub: user.id, client_id: "reports" })
    await oauth.processRevocationResponse(await oauth.revocationRequest(as, client, auth, refreshed.refresh_token!, insecure))
    // Revoking the refresh token ends its grant: the access token with it.
    const after = await oauth.processIntrospectionResponse(as, client, await oauth.introspectionRequest(as, client, auth, refreshed.access_token, insecure))
    expect(after.active).toBe(false)
  })

  it("RP-initiated logout: confirmed on the module's page, the user is signed out of the app and sent back with the state", async () => {
    const user = await world.user("leaving@example.com")
    const verifier = oauth.generateRandomCodeVerifier()
    const url = new URL(as.authorization_endpoint!)
    url.search = new URLSearchParams({ client_id: "reports", redirect_uri: redirectUri, response_type: "code", scope: "openid", code_challenge: await oauth.calculatePKCECodeChallenge(verifier), code_challenge_method: "S256", state: "in" }).toString()
    let step = await user.follow(url.href, redirectUri)
    step = await user.decide(step.html!, "allow", redirectUri)
    const params = oauth.validateAuthResponse(as, client, new URL(step.url), "in")
    const tokens = await oauth.processAuthorizationCodeResponse(as, client, await oauth.authorizationCodeGrantRequest(as, client, auth, params, redirectUri, verifier, insecure))

    const signedOut = "https://reports.example/signed-out"
    const end = new URL(as.end_session_endpoint!)
    end.search = new URLSearchParams({ id_token_hint: tokens.id_token!, post_logout_redirect_uri: signedOut, state: "bye" }).toString()
    const confirm = await user.follow(end.href, signedOut)
    expect(confirm.html).toContain("Sign out")
    const back = await user.follow(`${world.origin}/auth/oauth/logout`, signedOut, { form: formOf(confirm.html!, "yes") })
    expect(back.url).toBe(`${signedOut}?state=bye`)
    // Signed out of the app itself: no session, and the next authorization asks to sign in.
    expect(await (await user.fetch(`${world.origin}/auth/session`)).json()).toBeNull()
    const again = await user.fetch(url.href)
    const next = new URL(again.headers.get("location")!, world.origin)
    const interaction = await user.fetch(next.href)
    expect(new URL(interaction.headers.get("location")!, world.origin).pathname).toBe("/auth/signin")
  })
})
