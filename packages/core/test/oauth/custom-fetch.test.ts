/**
 * A provider's own `fetch` (`[customFetch]`): every request Sesame makes to the provider goes
 * through it (discovery, the token endpoint, userinfo, the key set), so an app can send them
 * through a proxy or refuse addresses inside its network; a fetch that refuses ends the sign-in.
 */
import { customFetch } from "@sesame/core"
import type { DevIdp } from "@sesame/dev-idp"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { CookieJar } from "../helpers.js"
import { expectRejected, oidc, quietLogger, session, signIn, startIdp, withAdapter } from "./harness.js"

let idp: DevIdp
beforeAll(async () => {
  idp = await startIdp()
})
afterAll(() => idp?.close())

describe("a provider's own fetch", () => {
  it("carries every request to the provider", async () => {
    const seen: string[] = []
    const recording = ((url: string | URL | Request, init?: RequestInit) => {
      seen.push(new URL(url instanceof Request ? url.url : url).pathname)
      return fetch(url, init)
    }) as typeof fetch
    const { config } = withAdapter({ providers: [{ ...oidc(idp, { idToken: false }), [customFetch]: recording }] })
    const jar = new CookieJar()
    await signIn(config, jar)
    expect((await session(config, jar))?.user).toMatchObject({ email: "alice@example.com" })
    expect(seen).toContain("/.well-known/openid-configuration")
    expect(seen.some((path) => path.includes("token"))).toBe(true)
    expect(seen.some((path) => path.includes("me") || path.includes("userinfo"))).toBe(true)
  })

  it("ends the sign-in when it refuses, and nothing reaches the provider's token endpoint", async () => {
    const before = idp.tokenRequests()
    const refusing = ((url: string | URL | Request, init?: RequestInit) => {
      const path = new URL(url instanceof Request ? url.url : url).pathname
      if (path.includes("token")) return Promise.reject(new TypeError("refused: inside the network"))
      return fetch(url, init)
    }) as typeof fetch
    const { logger } = quietLogger()
    const { config } = withAdapter({ providers: [{ ...oidc(idp), [customFetch]: refusing }], logger })
    const jar = new CookieJar()
    await expectRejected(config, jar, await signIn(config, jar), "OAuthCallbackError")
    expect(idp.tokenRequests()).toBe(before)
  })
})
