/**
 * With `apiTokens`, the server signs with the app's API-token key ring: its ID tokens and its JWT
 * access tokens carry a key of the set `GET <basePath>/jwks` publishes, which its own `jwks`
 * endpoint answers whole; when the ring's signing key changes, the server signs with the new one.
 */
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify, type JSONWebKeySet } from "jose"
import * as client from "openid-client"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { MemoryAdapter } from "@sesame/core/adapters"
import { exportJWK, generateKeyPair } from "jose"
import { resolveOptions } from "../src/options.js"
import { servers } from "../src/servers.js"
import { throughServer } from "../src/bridge.js"
import { clientOf, defaultOptions, mcpResource, redirectUri, startWorld, webSecret, type World } from "./world.js"

let world: World
beforeAll(async () => {
  world = await startWorld(defaultOptions, { config: { apiTokens: { audience: "https://api.example.com" } } })
})
afterAll(() => world.close())

const keySet = async (url: string) => (await (await fetch(url)).json()) as JSONWebKeySet

describe("the server on the API tokens' key ring", () => {
  it("publishes the app's key set and signs ID tokens and access tokens with its current key", async () => {
    const ada = await world.user("ring@example.com")
    const config = await clientOf(world, "reports", webSecret)
    const appKeys = await keySet(`${world.origin}/auth/jwks`)
    expect(appKeys.keys.length).toBeGreaterThan(0)
    expect(await keySet(config.serverMetadata().jwks_uri!)).toEqual(appKeys)

    const verifier = client.randomPKCECodeVerifier()
    const url = client.buildAuthorizationUrl(config, { redirect_uri: redirectUri, scope: "openid email", code_challenge: await client.calculatePKCECodeChallenge(verifier), code_challenge_method: "S256", state: "k" })
    let step = await ada.follow(url.href, redirectUri)
    step = await ada.decide(step.html!, "allow", redirectUri)
    const tokens = await client.authorizationCodeGrant(config, new URL(step.url), { pkceCodeVerifier: verifier, expectedState: "k" })
    const header = decodeProtectedHeader(tokens.id_token!)
    expect(appKeys.keys.map((key) => key.kid)).toContain(header.kid)
    expect(header.alg).toBe(appKeys.keys.find((key) => key.kid === header.kid)!.alg)

    const worker = await client.discovery(new URL(world.issuer), "worker", "worker-client-secret-0123456789abcdefghij", undefined, { execute: [client.allowInsecureRequests] })
    const access = await client.clientCredentialsGrant(worker, { scope: "tools:read", resource: mcpResource })
    // A resource server holding only the app's published key set verifies the server's access token.
    const { payload } = await jwtVerify(access.access_token, createLocalJWKSet(appKeys), { issuer: world.issuer, audience: mcpResource })
    expect(payload.client_id).toBe("worker")
  })
})

describe("a rotation of the ring", () => {
  it("builds the server again with the new signing key, and keeps it while the key stays", async () => {
    const keys = await Promise.all(["a", "b"].map(async (kid) => ({ kid, alg: "ES256", jwk: await exportJWK((await generateKeyPair("ES256", { extractable: true })).privateKey) })))
    let current = keys[0]!
    const adapter = MemoryAdapter()
    const context = {
      publicAuthUrl: "http://127.0.0.1:1/auth",
      store: adapter.store,
      users: {
        get: async () => null,
        getByEmail: async () => null,
        endSessions: async () => 0,
        create: async () => {
          throw new Error("no")
        },
        accounts: async () => [],
        sessions: async () => [],
        delete: async () => false,
        list: async () => ({ users: [], next: null }),
        inGoodStanding: async () => false,
      },
      sealing: { seal: async (_: string, value: string) => value, open: async (_: string, value: string) => ({ value, rotated: false }) },
      logger: { debug() {}, error() {} },
      signingKeys: { signing: async () => current, published: async () => [] },
    }
    const serverFor = servers(resolveOptions(defaultOptions))
    const first = await serverFor(context)
    expect(await serverFor(context)).toBe(first)
    current = keys[1]!
    const second = await serverFor(context)
    expect(second).not.toBe(first)
    // What each signs with: oidc-provider's own key set holds its one signing key.
    const kids = async (server: typeof first) => ((await (await throughServer(server!, new Request(`${server!.issuer}/jwks`), async () => null)).json()) as JSONWebKeySet).keys.map((key) => key.kid)
    expect(await kids(first)).toEqual(["a"])
    expect(await kids(second)).toEqual(["b"])
  })
})
