/**
 * Threat: a built-in capability's endpoint (two-factor setup and disable, password sign-up and
 * reset, native apps' confirmation, …) that lost the dispatcher's checks when the capabilities
 * began declaring their own rows (`feature.ts`, issue 32): another site's page posting to it with a
 * valid CSRF pair (a planted cookie), or the app's own origin posting without the token.
 *
 * Every POST row the capabilities declare is taken from the table itself, so a row added later is
 * attacked too: from another site it is refused with 403 before it runs; without the CSRF token it
 * ends in `MissingCSRF`, unless its row says it needs none (the native app's code exchange, which
 * an app posts with its PKCE verifier). Beside them, the same post with the token from the app's own
 * page is not refused for its token.
 */
import type { AuthConfig } from "@sesame/core"
import { MemoryAdapter } from "@sesame/core/adapters"
import Email from "@sesame/core/providers/email"
import Passkey from "@sesame/core/providers/passkey"
import Password from "@sesame/core/providers/password"
import { describe, expect, it } from "vitest"
import { featureRoutes } from "../../src/config/features.js"
import { actionOf } from "../../src/http/request.js"
import type { ProviderType } from "../../src/types.js"
import { aliceCredentials, CookieJar, csrfToken, origin, secret, send } from "../helpers.js"

/** Every capability on: passwords, email, passkeys, two-factor (the memory adapter has a store), API tokens, native apps. */
function everything(): AuthConfig {
  return {
    secret,
    trustHost: true,
    adapter: MemoryAdapter(),
    experimental: { enableWebAuthn: true },
    providers: [aliceCredentials(), Password({ sendEmail: () => {} }), Email({ sendVerificationRequest: () => {} }), Passkey()],
    apiTokens: { audience: "https://api.example" },
    nativeApps: { redirectUris: ["com.example.app:/callback"] },
  }
}

/** A provider of the kind a row serves, by the id the providers above get. */
const providerOfKind: Partial<Record<ProviderType, string>> = { password: "password", email: "email", webauthn: "passkey" }

/** The capabilities' POST rows, each as a path to post to. */
function capabilityPosts(): { key: string; path: string; csrf: boolean }[] {
  return Object.entries(featureRoutes())
    .filter(([key]) => key.startsWith("POST "))
    .map(([key, row]) => {
      const { action, withProvider } = actionOf(key)
      const kind = row.provider?.kinds?.[0]
      const provider = withProvider ? providerOfKind[kind ?? "password"] : undefined
      return { key, path: `/auth/${action}${provider ? `/${provider}` : ""}`, csrf: row.csrf !== undefined }
    })
}

const errorOf = (response: Response) => (response.headers.get("location") ? new URL(response.headers.get("location")!, origin).searchParams.get("error") : null)

describe("every POST endpoint a built-in capability declares", () => {
  const posts = capabilityPosts()

  it("is found in the table: the capabilities' forms are all there", () => {
    const keys = posts.map((p) => p.key)
    for (const key of ["POST signup/:provider", "POST two-factor/setup", "POST two-factor/disable", "POST reauthenticate", "POST native/authorize", "POST native/token"]) {
      expect(keys).toContain(key)
    }
  })

  it.each(posts.map((p) => [p.key, p] as const))("%s: from another site, with a valid CSRF pair, refused with 403 before it runs", async (_key, { path }) => {
    const config = everything()
    const jar = new CookieJar()
    const token = await csrfToken(config, jar)
    const response = await send(config, path, {
      jar,
      form: { csrfToken: token, email: "alice@example.com", password: "a long enough passphrase 1" },
      headers: { origin: "https://evil.example", "sec-fetch-site": "cross-site" },
    })
    expect(response.status).toBe(403)
    expect(((await response.json()) as { error: string }).error).toBe("CrossSiteRequest")
    expect(response.headers.getSetCookie()).toEqual([])
  })

  it.each(posts.map((p) => [p.key, p] as const))("%s: from the app's origin without the CSRF token, MissingCSRF unless its row needs none", async (_key, { path, csrf }) => {
    const config = everything()
    const jar = new CookieJar()
    await csrfToken(config, jar)
    const headers = { origin, "sec-fetch-site": "same-origin" }
    const form = { email: "alice@example.com", password: "a long enough passphrase 1" }
    const without = await send(config, path, { jar, form, headers })
    if (csrf) {
      expect(errorOf(without)).toBe("MissingCSRF")
      // The legitimate post, with the token, is not refused for it.
      const withToken = await send(config, path, { jar, form: { ...form, csrfToken: await csrfToken(config, jar) }, headers })
      expect(errorOf(withToken)).not.toBe("MissingCSRF")
      expect(withToken.status).not.toBe(403)
    } else {
      expect(path).toBe("/auth/native/token")
      expect(errorOf(without)).not.toBe("MissingCSRF")
    }
  })
})
