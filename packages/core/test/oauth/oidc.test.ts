/**
 * OpenID Connect sign-in against a real OpenID Provider (oidc-provider, through @sesame/dev-idp).
 */
import type { DevIdp } from "@sesame/dev-idp"
import { decode } from "@sesame/core/jwt"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { CookieJar, origin, secret } from "../helpers.js"
import { accountSubject } from "../../src/account/subject.js"
import {
  atProvider,
  callbackUrl,
  client,
  clientSecret,
  deliver,
  expectRejected,
  oauthConfig,
  oidc,
  quietLogger,
  session,
  setCookie,
  signIn,
  startIdp,
  startSignIn,
} from "./harness.js"

let idp: DevIdp

beforeAll(async () => {
  idp = await startIdp({
    clients: [
      client("dev"),
      client("post", { token_endpoint_auth_method: "client_secret_post" }),
      client("jwt-secret", { token_endpoint_auth_method: "client_secret_jwt" }),
      client("public", { client_secret: undefined, token_endpoint_auth_method: "none" }),
    ],
  })
})
afterAll(() => idp.close())

describe("authorization code flow with PKCE and nonce", () => {
  it("signs in: discovery through the issuer, a JWT session whose sub is derived from the provider's account id", async () => {
    const config = oauthConfig({ providers: [oidc(idp)] })
    const jar = new CookieJar()
    const start = await startSignIn(config, jar, "dev", { fields: { callbackUrl: "/dashboard" } })
    expect(start.status).toBe(302)
    const authorization = new URL(start.headers.get("location")!)
    expect(authorization.origin + authorization.pathname).toBe(`${idp.issuer}/auth`)
    const params = authorization.searchParams
    expect(params.get("response_type")).toBe("code")
    expect(params.get("client_id")).toBe("dev")
    expect(params.get("redirect_uri")).toBe(callbackUrl("dev"))
    expect(params.get("scope")).toBe("openid profile email")
    expect(params.get("code_challenge_method")).toBe("S256")
    expect(params.get("code_challenge")).toMatch(/^[\w-]{43}$/)
    expect(params.get("nonce")).toMatch(/^[\w-]{43}$/)
    expect(params.has("state")).toBe(false)

    const answer = await atProvider(authorization.href, callbackUrl("dev"))
    const callback = await deliver(config, jar, answer)
    expect(callback.status).toBe(302)
    expect(callback.headers.get("location")).toBe(`${origin}/dashboard`)
    expect(await session(config, jar)).toMatchObject({ user: { name: "Alice Liddell", email: "alice@example.com", image: null } })
    const token = await decode({ token: jar.get("sesame.session-token"), secret, salt: "sesame.session-token" })
    // Without an adapter, sub is derived from the provider and its account id (never the bare id,
    // which another provider's user may share).
    expect(token?.sub).toBe(await accountSubject("dev", "alice"))

    // The same account signs in with the same sub, every time.
    const again = new CookieJar()
    await signIn(config, again)
    expect((await decode({ token: again.get("sesame.session-token"), secret, salt: "sesame.session-token" }))?.sub).toBe(await accountSubject("dev", "alice"))
  })

  it("keeps each check value in its own sealed, short-lived, HttpOnly cookie, and clears them on the callback", async () => {
    const config = oauthConfig({ providers: [oidc(idp)] })
    const jar = new CookieJar()
    const start = await startSignIn(config, jar, "dev")
    const authorization = new URL(start.headers.get("location")!)
    for (const name of ["sesame.pkce.code_verifier", "sesame.nonce"]) {
      const cookie = setCookie(start, name)!
      expect(cookie).toMatch(/; Max-Age=900; Expires=/)
      expect(cookie).toContain("; HttpOnly")
      expect(cookie).toContain("; SameSite=Lax")
      // Sealed: a JWE, bound to the provider, that reveals nothing of the value.
      const sealed = jar.get(name)!
      expect(sealed.split(".")).toHaveLength(5)
      const opened = await decode<{ value: string; provider: string }>({ token: sealed, secret, salt: name })
      expect(opened?.provider).toBe("dev")
      expect(sealed).not.toContain(opened!.value)
    }
    const nonce = await decode<{ value: string }>({ token: jar.get("sesame.nonce"), secret, salt: "sesame.nonce" })
    expect(authorization.searchParams.get("nonce")).toBe(nonce?.value)
    expect(jar.get("sesame.callback-url")).toBe(`${origin}/`)

    const callback = await deliver(config, jar, await atProvider(authorization.href, callbackUrl("dev")))
    for (const name of ["sesame.pkce.code_verifier", "sesame.nonce"]) {
      expect(setCookie(callback, name)).toMatch(/^[^=]+=; Path=\/; Max-Age=0/)
      expect(jar.get(name)).toBeUndefined()
    }
    expect(jar.get("sesame.session-token")).toBeDefined()
  })

  it("discovers through `wellKnown` as well", async () => {
    const config = oauthConfig({ providers: [oidc(idp, { issuer: undefined, wellKnown: `${idp.issuer}/.well-known/openid-configuration` })] })
    const jar = new CookieJar()
    await signIn(config, jar)
    expect(await session(config, jar)).toMatchObject({ user: { email: "alice@example.com" } })
  })

  it("reads the profile from the userinfo endpoint with idToken: false", async () => {
    const lean = await startIdp({ idTokenClaims: false })
    try {
      const withIdToken = oauthConfig({ providers: [oidc(lean)] })
      const jar = new CookieJar()
      await signIn(withIdToken, jar)
      // The ID token carries only `sub` here, so the session has no name or email...
      expect(await session(withIdToken, jar)).toMatchObject({ user: { name: null, email: null } })
      // ...and the userinfo endpoint has them.
      const fromUserinfo = oauthConfig({ providers: [oidc(lean, { idToken: false })] })
      const jar2 = new CookieJar()
      await signIn(fromUserinfo, jar2)
      expect(await session(fromUserinfo, jar2)).toMatchObject({ user: { name: "Alice Liddell", email: "alice@example.com" } })
    } finally {
      await lean.close()
    }
  })

  it("passes the request's authorization parameters to the provider, but never its own binding parameters", async () => {
    // Without the state and nonce checks, so that a request's `state` or `nonce` would show.
    const config = oauthConfig({ providers: [oidc(idp, { checks: ["pkce"] })] })
    const jar = new CookieJar()
    const start = await startSignIn(config, jar, "dev", {
      query: { login_hint: "bob", redirect_uri: "https://evil.example/steal", prompt: "login", code_challenge_method: "plain" },
      fields: { nonce: "attacker-chosen", state: "attacker-state" },
    })
    const params = new URL(start.headers.get("location")!).searchParams
    expect(params.get("login_hint")).toBe("bob")
    expect(params.get("prompt")).toBe("login")
    expect(params.get("redirect_uri")).toBe(callbackUrl("dev"))
    expect(params.get("code_challenge_method")).toBe("S256")
    expect(params.has("nonce")).toBe(false)
    expect(params.has("state")).toBe(false)
    expect(params.has("csrfToken")).toBe(false)
    expect(params.has("callbackUrl")).toBe(false)
    await deliver(config, jar, await atProvider(start.headers.get("location")!, callbackUrl("dev")))
    expect(await session(config, jar)).toMatchObject({ user: { email: "bob@example.com" } })
  })

  it("uses the provider's authorization params, and the profile callback", async () => {
    const config = oauthConfig({
      providers: [
        oidc(idp, {
          authorization: { params: { scope: "openid email", login_hint: "bob" } },
          profile: (profile) => ({ id: `user-${profile.sub}`, name: String(profile.email).split("@")[0], email: profile.email }),
        }),
      ],
    })
    const jar = new CookieJar()
    const start = await startSignIn(config, jar, "dev")
    expect(new URL(start.headers.get("location")!).searchParams.get("scope")).toBe("openid email")
    await deliver(config, jar, await atProvider(start.headers.get("location")!, callbackUrl("dev")))
    expect(await session(config, jar)).toMatchObject({ user: { name: "bob", email: "bob@example.com" } })
    expect((await decode({ token: jar.get("sesame.session-token"), secret, salt: "sesame.session-token" }))?.sub).toBe(await accountSubject("dev", "user-bob"))
  })
})

describe("client authentication at the token endpoint", () => {
  // Each client is registered at the provider with one method only: a sign-in proves Sesame used it.
  it.each([
    ["client_secret_basic", "dev", {}],
    ["client_secret_post", "post", { client: { token_endpoint_auth_method: "client_secret_post" as const } }],
    ["client_secret_jwt", "jwt-secret", { client: { token_endpoint_auth_method: "client_secret_jwt" as const } }],
    ["none (public client, PKCE)", "public", { clientSecret: undefined, client: { token_endpoint_auth_method: "none" as const } }],
  ])("%s", async (_method, id, overrides) => {
    const config = oauthConfig({ providers: [oidc(idp, { id, clientId: id, ...overrides })] })
    const jar = new CookieJar()
    const callback = await signIn(config, jar, id)
    expect(callback.headers.get("location")).toBe(`${origin}/`)
    expect(await session(config, jar)).toMatchObject({ user: { email: "alice@example.com" } })
  })

  it("private_key_jwt", async () => {
    const { privateKey, publicKey } = await crypto.subtle.generateKey(
      { name: "ECDSA", namedCurve: "P-256" },
      true,
      ["sign", "verify"],
    )
    const { key_ops: _ops, ext: _ext, ...jwk } = await crypto.subtle.exportKey("jwk", publicKey)
    const keyIdp = await startIdp({
      clients: [client("keyed", { client_secret: undefined, token_endpoint_auth_method: "private_key_jwt", jwks: { keys: [{ ...jwk, kid: "k1", alg: "ES256", use: "sig" }] } })],
    })
    try {
      const privateJwk = { ...(await crypto.subtle.exportKey("jwk", privateKey)), alg: "ES256", kid: "k1" }
      for (const key of [privateKey, privateJwk]) {
        const config = oauthConfig({
          providers: [oidc(keyIdp, { id: "keyed", clientId: "keyed", clientSecret: undefined, client: { token_endpoint_auth_method: "private_key_jwt", privateKey: key, privateKeyId: "k1" } })],
        })
        const jar = new CookieJar()
        await signIn(config, jar, "keyed")
        expect(await session(config, jar)).toMatchObject({ user: { email: "alice@example.com" } })
      }
    } finally {
      await keyIdp.close()
    }
  })

  it("a wrong client secret fails the sign-in with OAuthCallbackError", async () => {
    const { logger, errors } = quietLogger()
    const config = oauthConfig({ logger, providers: [oidc(idp, { clientSecret: `${clientSecret}-wrong` })] })
    const jar = new CookieJar()
    await expectRejected(config, jar, await signIn(config, jar), "OAuthCallbackError")
    expect(errors.map((e) => e.name)).toEqual(["OAuthCallbackError"])
  })
})

describe("form_post", () => {
  it("signs in when the provider posts the response back", async () => {
    const config = oauthConfig({ providers: [oidc(idp, { authorization: { params: { response_mode: "form_post" } } })] })
    const jar = new CookieJar()
    const start = await startSignIn(config, jar, "dev")
    const answer = await atProvider(start.headers.get("location")!, callbackUrl("dev"))
    expect(answer.kind).toBe("form")
    if (answer.kind !== "form") return
    expect(answer.action).toBe(callbackUrl("dev"))
    expect(Object.keys(answer.fields).sort()).toEqual(["code", "iss"])
    const callback = await deliver(config, jar, answer)
    expect(callback.headers.get("location")).toBe(`${origin}/`)
    expect(await session(config, jar)).toMatchObject({ user: { email: "alice@example.com" } })
  })

  it("on https, makes the cookies the callback needs SameSite=None; Secure, since the POST comes from the provider's site", async () => {
    const config = oauthConfig({ providers: [oidc(idp, { authorization: { params: { response_mode: "form_post" } } })] })
    const jar = new CookieJar()
    const start = await startSignIn(config, jar, "dev", { base: "https://app.example.com/auth" })
    for (const name of ["__Secure-sesame.pkce.code_verifier", "__Secure-sesame.nonce", "__Secure-sesame.callback-url"]) {
      expect(setCookie(start, name)).toMatch(/; Secure; SameSite=None$/)
    }
    // Without form_post, they stay Lax.
    const plain = oauthConfig({ providers: [oidc(idp)] })
    const lax = await startSignIn(plain, new CookieJar(), "dev", { base: "https://app.example.com/auth" })
    expect(setCookie(lax, "__Secure-sesame.pkce.code_verifier")).toMatch(/; Secure; SameSite=Lax$/)
  })
})

describe("provider errors", () => {
  it("an error from the provider (access_denied) ends on the sign-in page with OAuthCallbackError", async () => {
    const { logger, errors } = quietLogger()
    const config = oauthConfig({ logger, providers: [oidc(idp)] })
    const jar = new CookieJar()
    await expectRejected(config, jar, await signIn(config, jar, "dev", { query: { login_hint: "nobody" } }), "OAuthCallbackError")
    expect(errors[0]?.message).toContain('"access_denied"')
  })
})
