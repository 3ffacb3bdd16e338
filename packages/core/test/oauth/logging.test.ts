/**
 * OAuth flows never log a secret: not the authorization code, the PKCE verifier, the state, the
 * nonce, the tokens or the client secret, even with debug on and when the flow fails on them
 * (oauth4webapi's errors carry the values they checked).
 */
import type { DevIdp } from "@sesame/dev-idp"
import { getAccessToken } from "@sesame/core"
import { decode } from "@sesame/core/jwt"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { CookieJar, recordingLogger, secret, send } from "../helpers.js"
import { atProvider, callbackUrl, clientSecret, deliver, oidc, startIdp, startSignIn, withAdapter } from "./harness.js"

let idp: DevIdp

beforeAll(async () => {
  idp = await startIdp()
})
afterAll(() => idp.close())

describe("logging in OAuth flows", () => {
  it("contains no code, verifier, state, nonce, token or client secret", async () => {
    const { lines, logger } = recordingLogger()
    const { adapter, config } = withAdapter({ debug: true, logger, providers: [oidc(idp, { checks: ["pkce", "state", "nonce"] })] })
    const secrets = new Set<string>([secret, clientSecret])

    /** Starts a sign-in and stops at the callback, noting every secret value of the flow. */
    async function pending(jar = new CookieJar()) {
      const start = await startSignIn(config, jar, "dev")
      const answer = await atProvider(start.headers.get("location")!, callbackUrl("dev"))
      if (answer.kind !== "redirect") throw new Error("expected a redirect")
      const url = new URL(answer.url)
      secrets.add(url.searchParams.get("code")!).add(url.searchParams.get("state")!)
      for (const name of ["sesame.pkce.code_verifier", "sesame.state", "sesame.nonce"]) {
        secrets.add(jar.get(name)!)
        secrets.add((await decode<{ value: string }>({ token: jar.get(name), secret, salt: name }))!.value)
      }
      return { jar, url }
    }

    // A sign-in that works, a refresh that works and one the provider refuses.
    const ok = await pending()
    const replay = new CookieJar()
    for (const [name, value] of ok.jar.cookies) replay.cookies.set(name, value)
    await send(config, ok.url.href, { jar: ok.jar })
    const account = () => adapter.tables.accounts.get("dev\u0000alice")!
    const tokens = () => [account().access_token, account().refresh_token, account().id_token].forEach((t) => t && secrets.add(t))
    tokens()
    account().expires_at = 0
    await getAccessToken(config, { provider: "dev", providerAccountId: "alice" })
    tokens()
    account().expires_at = 0
    account().refresh_token = "refresh-token-that-the-provider-refuses"
    tokens()
    await getAccessToken(config, { provider: "dev", providerAccountId: "alice" }).catch((error: unknown) => logger.error(error as Error))
    // The code again, with the same cookies.
    await send(config, ok.url.href, { jar: replay })
    // A nonce and a verifier from another flow (the errors hold the ID token claims and the token response).
    const a = await pending()
    const b = await pending()
    a.jar.cookies.set("sesame.nonce", b.jar.cookies.get("sesame.nonce")!)
    await send(config, a.url.href, { jar: a.jar })
    const c = await pending()
    const d = await pending()
    c.jar.cookies.set("sesame.pkce.code_verifier", d.jar.cookies.get("sesame.pkce.code_verifier")!)
    await send(config, c.url.href, { jar: c.jar })
    // A mix-up attempt (the error holds the callback parameters, code included).
    const e = await pending()
    e.url.searchParams.set("iss", "https://attacker.example")
    await send(config, e.url.href, { jar: e.jar })
    for (const value of ok.jar.cookies.values()) if (value.length > 20) secrets.add(decodeURIComponent(value))

    const log = lines.join("\n")
    expect(lines.length).toBeGreaterThan(8)
    expect(log).toContain("AccessTokenError: Refreshing the access token")
    expect(log).toContain("invalid_grant")
    expect(log).toContain('"nonce"')
    for (const value of secrets) expect(log).not.toContain(value)
  })
})
