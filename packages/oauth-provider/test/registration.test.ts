/**
 * Dynamic client registration (RFC 7591), on only when the app says so, each registration put to
 * its `allow`; a registered client's secret, and the tokens the server gives, are not readable
 * from a copy of the store.
 */
import * as client from "openid-client"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { recordModel } from "@sesame/oauth-provider"
import { defaultOptions, startWorld, type World } from "./world.js"

let world: World
const asked: unknown[] = []
beforeAll(async () => {
  world = await startWorld({
    ...defaultOptions,
    dynamicRegistration: {
      allow: async (metadata) => {
        asked.push(metadata)
        const uris = metadata.redirect_uris
        return Array.isArray(uris) && uris.every((uri) => typeof uri === "string" && uri.startsWith("http://127.0.0.1:"))
      },
    },
  })
})
afterAll(() => world.close())

const register = (metadata: Record<string, unknown>) =>
  fetch(`${world.issuer}/reg`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(metadata) })

describe("dynamic client registration", () => {
  it("registers a client the app's policy allows, and it completes the code flow (with consent)", async () => {
    const discovery = await (await fetch(`${world.issuer}/.well-known/openid-configuration`)).json()
    expect(discovery.registration_endpoint).toBe(`${world.issuer}/reg`)
    const response = await register({ redirect_uris: ["http://127.0.0.1:9911/cb"], client_name: "Agent X", token_endpoint_auth_method: "client_secret_basic", application_type: "native" })
    expect(response.status).toBe(201)
    const registered = (await response.json()) as { client_id: string; client_secret: string }
    expect(asked.at(-1)).toMatchObject({ client_name: "Agent X" })

    const user = await world.user("dyn@example.com")
    const config = await client.discovery(new URL(world.issuer), registered.client_id, registered.client_secret, undefined, { execute: [client.allowInsecureRequests] })
    const verifier = client.randomPKCECodeVerifier()
    const url = client.buildAuthorizationUrl(config, { redirect_uri: "http://127.0.0.1:9911/cb", scope: "openid email", code_challenge: await client.calculatePKCECodeChallenge(verifier), code_challenge_method: "S256", state: "s1" })
    let step = await user.follow(url.href, "http://127.0.0.1:9911/cb")
    // A registered client is never first party: the user is asked.
    expect(step.html).toContain("Allow Agent X?")
    expect(step.html).toContain("This app was not added by this site")
    step = await user.decide(step.html!, "allow", "http://127.0.0.1:9911/cb")
    const tokens = await client.authorizationCodeGrant(config, new URL(step.url), { pkceCodeVerifier: verifier, expectedState: "s1" })
    expect(tokens.claims()!.sub).toBe(user.id)

    // Nothing in the store is a working secret: the client's secret is sealed, the tokens are kept by their hash.
    const rows = JSON.stringify(await world.adapter.store!.findMany(recordModel))
    expect(rows).not.toContain(registered.client_secret)
    expect(rows).not.toContain(tokens.access_token)
    expect(rows).not.toContain(new URL(step.url).searchParams.get("code")!)
  })

  it("refuses what the policy refuses, and what is not JSON, with RFC 7591's error; nothing is stored", async () => {
    const before = await world.adapter.store!.count(recordModel)
    const refused = await register({ redirect_uris: ["https://evil.example/cb"], client_name: "Evil" })
    expect(refused.status).toBe(400)
    expect(await refused.json()).toMatchObject({ error: "invalid_client_metadata" })
    const garbage = await fetch(`${world.issuer}/reg`, { method: "POST", headers: { "content-type": "application/json" }, body: "not json" })
    expect(garbage.status).toBe(400)
    expect(await world.adapter.store!.count(recordModel)).toBe(before)
  })
})
