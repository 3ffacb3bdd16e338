/**
 * getAccessToken: provider access tokens, refreshed when expired, once for many callers.
 */
import type { DevIdp } from "@sesame/dev-idp"
import { getAccessToken, type AuthConfig } from "@sesame/core"
import { AccessTokenError, MissingAdapter } from "@sesame/core/errors"
import type { MemoryAdapterInstance } from "@sesame/core/adapters"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { CookieJar, secret } from "../helpers.js"
import { clientSecret, oidc, signIn, startIdp, withAdapter } from "./harness.js"

let idp: DevIdp

beforeAll(async () => {
  idp = await startIdp()
})
afterAll(() => idp.close())

const alice = { provider: "dev", providerAccountId: "alice" } as const

async function signedIn(provider = idp): Promise<{ adapter: MemoryAdapterInstance; config: AuthConfig }> {
  const setup = withAdapter({ providers: [oidc(provider)] })
  await signIn(setup.config, new CookieJar())
  return setup
}

function storedAccount(adapter: MemoryAdapterInstance) {
  return adapter.tables.accounts.get("dev\u0000alice")!
}

/** Marks the stored access token as expired a minute ago. */
function expire(adapter: MemoryAdapterInstance) {
  storedAccount(adapter).expires_at = Math.floor(Date.now() / 1000) - 60
}

async function userinfoStatus(accessToken: string): Promise<number> {
  const metadata = (await (await fetch(`${idp.issuer}/.well-known/openid-configuration`)).json()) as { userinfo_endpoint: string }
  return (await fetch(metadata.userinfo_endpoint, { headers: { authorization: `Bearer ${accessToken}` } })).status
}

describe("getAccessToken", () => {
  it("returns the stored token while it is valid, without asking the provider", async () => {
    const { adapter, config } = await signedIn()
    const before = idp.tokenRequests()
    expect(await getAccessToken(config, alice)).toBe(storedAccount(adapter).access_token)
    expect(idp.tokenRequests()).toBe(before)
  })

  it("refreshes an expired token, stores the rotated tokens, and the new token works at the provider", async () => {
    const { adapter, config } = await signedIn()
    const old = { ...storedAccount(adapter) }
    expire(adapter)
    const refreshes = idp.tokenRequests("refresh_token")
    const token = await getAccessToken(config, alice)
    expect(idp.tokenRequests("refresh_token")).toBe(refreshes + 1)
    expect(token).not.toBe(old.access_token)
    const stored = storedAccount(adapter)
    expect(stored).toMatchObject({ access_token: token, token_type: "bearer", userId: old.userId })
    expect(stored.refresh_token).toBeTruthy()
    expect(stored.refresh_token).not.toBe(old.refresh_token)
    expect(stored.id_token).toBeTruthy()
    expect(stored.expires_at).toBeGreaterThan(Date.now() / 1000 + 3000)
    expect(await userinfoStatus(token)).toBe(200)
    // The next call uses the stored token.
    expect(await getAccessToken(config, alice)).toBe(token)
    expect(idp.tokenRequests("refresh_token")).toBe(refreshes + 1)
  })

  it("20 concurrent callers get the same new token from exactly one refresh request", async () => {
    const { config, adapter } = await signedIn()
    expire(adapter)
    const refreshes = idp.tokenRequests("refresh_token")
    const all = idp.tokenRequests()
    const tokens = await Promise.all(Array.from({ length: 20 }, () => getAccessToken(config, alice)))
    expect(new Set(tokens).size).toBe(1)
    expect(tokens[0]).toBe(storedAccount(adapter).access_token)
    expect(idp.tokenRequests("refresh_token")).toBe(refreshes + 1)
    expect(idp.tokenRequests()).toBe(all + 1)
  })

  it("refreshes a token that really expired (1 second lifetime)", async () => {
    const shortLived = await startIdp({ accessTokenTtl: 1 })
    try {
      const { adapter, config } = await signedIn(shortLived)
      const first = storedAccount(adapter)
      expect(await getAccessToken(config, { ...alice, leeway: 0 })).toBe(first.access_token)
      while (Date.now() / 1000 <= first.expires_at!) await new Promise((r) => setTimeout(r, 100))
      const token = await getAccessToken(config, { ...alice, leeway: 0 })
      expect(token).not.toBe(first.access_token)
      expect(shortLived.tokenRequests("refresh_token")).toBe(1)
    } finally {
      await shortLived.close()
    }
  })

  it("refreshes ahead of expiry within the leeway", async () => {
    const { adapter, config } = await signedIn()
    storedAccount(adapter).expires_at = Math.floor(Date.now() / 1000) + 20
    const before = storedAccount(adapter).access_token
    expect(await getAccessToken(config, alice)).not.toBe(before)
  })

  it("finds the account by user id", async () => {
    const { adapter, config } = await signedIn()
    const { userId, access_token } = storedAccount(adapter)
    expect(await getAccessToken(config, { provider: "dev", userId })).toBe(access_token)
  })

  it("says why when no valid token can be had", async () => {
    const { adapter, config } = await signedIn()
    const code = (promise: Promise<unknown>) =>
      promise.then(
        () => "resolved",
        (e: unknown) => (e instanceof AccessTokenError ? e.code : String(e)),
      )
    expect(await code(getAccessToken(config, { provider: "dev", providerAccountId: "nobody" }))).toBe("AccountNotFound")
    expect(await code(getAccessToken(config, { provider: "dev", userId: "nobody" }))).toBe("AccountNotFound")

    expire(adapter)
    const refreshToken = storedAccount(adapter).refresh_token
    storedAccount(adapter).refresh_token = "revoked-or-made-up"
    const refused = await getAccessToken(config, alice).catch((e: unknown) => e)
    expect(refused).toBeInstanceOf(AccessTokenError)
    expect((refused as AccessTokenError).code).toBe("RefreshFailed")
    expect((refused as AccessTokenError).cause?.err?.message).toContain("invalid_grant")
    // Nothing was overwritten by the failed refresh.
    expect(storedAccount(adapter).refresh_token).toBe("revoked-or-made-up")

    delete storedAccount(adapter).refresh_token
    expect(await code(getAccessToken(config, alice))).toBe("NoRefreshToken")
    storedAccount(adapter).refresh_token = refreshToken
    expect(await code(getAccessToken(config, alice))).toBe("resolved")
  })

  it("a user with two accounts at the provider must name one", async () => {
    const { config, adapter } = withAdapter({ providers: [oidc(idp)] })
    const jar = new CookieJar()
    await signIn(config, jar)
    await signIn(config, jar, "dev", { query: { login_hint: "bob" } })
    const userId = storedAccount(adapter).userId
    await expect(getAccessToken(config, { provider: "dev", userId })).rejects.toMatchObject({ code: "AmbiguousAccount" })
  })

  it("needs an adapter", async () => {
    const config: AuthConfig = { secret, trustHost: true, providers: [oidc(idp, { clientSecret })] }
    await expect(getAccessToken(config, alice)).rejects.toBeInstanceOf(MissingAdapter)
  })
})
