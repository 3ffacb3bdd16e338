/**
 * Attacks on the callback: every one must be refused, with no session, a clear error on the
 * sign-in page (never a 500), and the reason in the server log.
 *
 * Each check has a control (the same flow, untouched, succeeds), so that a test fails when the
 * check it covers is removed, not because the flow is broken.
 */
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import type { DevIdp } from "@sesame/dev-idp"
import type { AuthConfig } from "@sesame/core"
import { decode, encode } from "@sesame/core/jwt"
import { decodeJwt, decodeProtectedHeader, importJWK, SignJWT, generateKeyPair, type JWTPayload } from "jose"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { CookieJar, origin, secret, send } from "../helpers.js"
import { atProvider, callbackUrl, client, deliver, expectRejected, oauthConfig, oidc, quietLogger, session, startIdp, startSignIn } from "./harness.js"

let idp: DevIdp

beforeAll(async () => {
  idp = await startIdp({ clients: [client("dev"), client("other")] })
})
afterAll(() => idp.close())

/** A flow stopped at the callback: the browser's cookies and the provider's redirect. */
async function pendingCallback(config: AuthConfig, id = "dev", jar = new CookieJar()) {
  const start = await startSignIn(config, jar, id)
  const answer = await atProvider(start.headers.get("location")!, callbackUrl(id))
  if (answer.kind !== "redirect") throw new Error("expected a redirect")
  return { jar, url: new URL(answer.url) }
}

function setup(checks: ("pkce" | "state" | "nonce")[] = ["pkce", "state", "nonce"]) {
  const log = quietLogger()
  const config = oauthConfig({ logger: log.logger, providers: [oidc(idp, { checks }), oidc(idp, { id: "other", clientId: "other", checks })] })
  return { config, errors: log.errors }
}

/** The last logged error and its causes, as one line. */
function logged(errors: Error[]): string {
  const parts: string[] = []
  let e: unknown = errors.at(-1)
  while (e instanceof Error) {
    parts.push(`${e.name}: ${e.message}`)
    e = e.cause instanceof Error ? e.cause : (e.cause as { err?: unknown } | undefined)?.err
  }
  return parts.join(" <- ")
}

describe("check cookies", () => {
  it("control: the untouched flow signs in", async () => {
    const { config } = setup()
    const { jar, url } = await pendingCallback(config)
    expect((await send(config, url.href, { jar })).headers.get("location")).toBe(`${origin}/`)
    expect(await session(config, jar)).toMatchObject({ user: { email: "alice@example.com" } })
  })

  it.each([["sesame.state"], ["sesame.pkce.code_verifier"], ["sesame.nonce"]])("a missing %s cookie is InvalidCheck", async (name) => {
    const { config, errors } = setup()
    const { jar, url } = await pendingCallback(config)
    jar.cookies.delete(name)
    await expectRejected(config, jar, await send(config, url.href, { jar }), "InvalidCheck")
    expect(logged(errors)).toMatch(/cookie is missing/)
  })

  it.each([["sesame.state"], ["sesame.pkce.code_verifier"], ["sesame.nonce"]])("an altered %s cookie is InvalidCheck", async (name) => {
    const { config, errors } = setup()
    const { jar, url } = await pendingCallback(config)
    const value = jar.cookies.get(name)!
    jar.cookies.set(name, `${value.slice(0, -6)}${value.slice(-6).endsWith("AAAAAA") ? "BBBBBB" : "AAAAAA"}`)
    await expectRejected(config, jar, await send(config, url.href, { jar }), "InvalidCheck")
    expect(logged(errors)).toMatch(/could not be read/)
  })

  it("an expired check cookie is InvalidCheck, even with the right value", async () => {
    const { config, errors } = setup(["pkce"])
    const { jar, url } = await pendingCallback(config)
    const name = "sesame.pkce.code_verifier"
    const opened = await decode<{ value: string; provider: string }>({ token: jar.get(name), secret, salt: name })
    jar.cookies.set(name, await encode({ token: { value: opened!.value, provider: "dev" }, secret, salt: name, maxAge: -60 }))
    await expectRejected(config, jar, await send(config, url.href, { jar }), "InvalidCheck")
    expect(logged(errors)).toMatch(/could not be read/)
  })

  it("a check cookie sealed with another secret is InvalidCheck, even with the right value", async () => {
    const { config } = setup(["pkce"])
    const { jar, url } = await pendingCallback(config)
    const name = "sesame.pkce.code_verifier"
    const opened = await decode<{ value: string; provider: string }>({ token: jar.get(name), secret, salt: name })
    jar.cookies.set(name, await encode({ token: opened!, secret: `${secret}-other`, salt: name, maxAge: 900 }))
    await expectRejected(config, jar, await send(config, url.href, { jar }), "InvalidCheck")
  })

  it("check cookies made for one provider are refused by another provider's callback", async () => {
    const { config, errors } = setup()
    // The browser started a sign-in with "other"; a callback for "dev" (from another browser) arrives.
    const { jar } = await pendingCallback(config, "other")
    const { url } = await pendingCallback(config, "dev")
    await expectRejected(config, jar, await send(config, url.href, { jar }), "InvalidCheck")
    expect(logged(errors)).toMatch(/made for another provider/)
  })

  it("a state parameter other than the cookie's is InvalidCheck", async () => {
    const { config, errors } = setup()
    const { jar, url } = await pendingCallback(config)
    // A valid state of another sign-in (e.g. the attacker's own), so only the comparison can catch it.
    const { url: other } = await pendingCallback(config)
    url.searchParams.set("state", other.searchParams.get("state")!)
    await expectRejected(config, jar, await send(config, url.href, { jar }), "InvalidCheck")
    expect(logged(errors)).toMatch(/state parameter does not match/)
  })

  it("the PKCE verifier of another sign-in is refused by the provider (OAuthCallbackError)", async () => {
    const { config, errors } = setup(["pkce"])
    const { jar, url } = await pendingCallback(config)
    const { jar: otherJar } = await pendingCallback(config)
    jar.cookies.set("sesame.pkce.code_verifier", otherJar.cookies.get("sesame.pkce.code_verifier")!)
    await expectRejected(config, jar, await send(config, url.href, { jar }), "OAuthCallbackError")
    expect(logged(errors)).toMatch(/invalid_grant/)
  })

  it("the nonce of another sign-in does not match the ID token's (OAuthCallbackError)", async () => {
    const { config, errors } = setup(["pkce", "nonce"])
    const { jar, url } = await pendingCallback(config)
    const { jar: otherJar } = await pendingCallback(config)
    jar.cookies.set("sesame.nonce", otherJar.cookies.get("sesame.nonce")!)
    await expectRejected(config, jar, await send(config, url.href, { jar }), "OAuthCallbackError")
    expect(logged(errors)).toMatch(/"nonce"/)
  })
})

describe("replay", () => {
  it("a callback used once cannot be used again: its cookies are gone (InvalidCheck)", async () => {
    const { config } = setup()
    const { jar, url } = await pendingCallback(config)
    await send(config, url.href, { jar })
    const replayJar = new CookieJar()
    for (const [name, value] of jar.cookies) if (name !== "sesame.session-token") replayJar.cookies.set(name, value)
    await expectRejected(config, replayJar, await send(config, url.href, { jar: replayJar }), "InvalidCheck")
  })

  it("a replayed authorization code, even with the original cookies, is refused by the provider (OAuthCallbackError)", async () => {
    const { config, errors } = setup()
    const { jar, url } = await pendingCallback(config)
    const replayJar = new CookieJar()
    for (const [name, value] of jar.cookies) replayJar.cookies.set(name, value)
    expect((await send(config, url.href, { jar })).headers.get("location")).toBe(`${origin}/`)
    await expectRejected(config, replayJar, await send(config, url.href, { jar: replayJar }), "OAuthCallbackError")
    expect(logged(errors)).toMatch(/invalid_grant/)
  })
})

describe("authorization response", () => {
  it("an `iss` other than the provider's (mix-up, RFC 9207) is OAuthCallbackError", async () => {
    const { config, errors } = setup()
    const { jar, url } = await pendingCallback(config)
    url.searchParams.set("iss", "https://attacker.example")
    await expectRejected(config, jar, await send(config, url.href, { jar }), "OAuthCallbackError")
    expect(logged(errors)).toMatch(/"iss"/)
  })

  // `iss` is required because the provider advertises it (authorization_response_iss_parameter_supported).
  it.each([
    ["state", "InvalidCheck"],
    ["iss", "OAuthCallbackError"],
    ["code", "OAuthCallbackError"],
  ])("a callback without its %s parameter is %s", async (parameter, error) => {
    const { config } = setup()
    const { jar, url } = await pendingCallback(config)
    url.searchParams.delete(parameter)
    await expectRejected(config, jar, await send(config, url.href, { jar }), error)
  })
})

/**
 * A man in the middle of the token endpoint: forwards the token request to the real provider, and
 * replaces the ID token in its answer by `forge(header, claims)`.
 */
async function tokenEndpointRewriter(target: string, forge: (claims: JWTPayload, kid: string) => Promise<string>) {
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    const headers = new Headers()
    for (const name of ["authorization", "content-type", "accept"]) {
      const value = req.headers[name]
      if (typeof value === "string") headers.set(name, value)
    }
    const upstream = await fetch(target, { method: "POST", headers, body: Buffer.concat(chunks) })
    const body = (await upstream.json()) as Record<string, unknown>
    if (typeof body.id_token === "string") {
      body.id_token = await forge(decodeJwt(body.id_token), decodeProtectedHeader(body.id_token).kid!)
    }
    res.writeHead(upstream.status, { "content-type": "application/json" }).end(JSON.stringify(body))
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/token`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

describe("ID token", () => {
  const now = () => Math.floor(Date.now() / 1000)
  const signWith = async (claims: JWTPayload, key: CryptoKey | Uint8Array, kid: string) =>
    new SignJWT(claims).setProtectedHeader({ alg: "RS256", kid }).sign(key)
  const providerKey = () => importJWK(idp.signingKey, "RS256")

  const forgeries: [string, (claims: JWTPayload, kid: string) => Promise<string>, RegExp][] = [
    [
      "signed by another key (same kid)",
      async (claims, kid) => signWith(claims, (await generateKeyPair("RS256")).privateKey, kid),
      /signature of the ID token .* does not verify/,
    ],
    ["for another audience", async (claims, kid) => signWith({ ...claims, aud: "someone-else" }, await providerKey(), kid), /"aud"/],
    ["expired", async (claims, kid) => signWith({ ...claims, iat: now() - 7200, exp: now() - 3600 }, await providerKey(), kid), /"exp"/],
    ["from another issuer", async (claims, kid) => signWith({ ...claims, iss: "https://attacker.example" }, await providerKey(), kid), /"iss"/],
    [
      "unsigned (alg none)",
      async (claims) => `${Buffer.from(JSON.stringify({ alg: "none" })).toString("base64url")}.${Buffer.from(JSON.stringify(claims)).toString("base64url")}.`,
      /alg/,
    ],
  ]

  it("control: an ID token re-signed with the provider's key and unchanged claims is accepted", async () => {
    const rewriter = await tokenEndpointRewriter(`${idp.issuer}/token`, async (claims, kid) => signWith(claims, await providerKey(), kid))
    try {
      const { config } = setupWithToken(rewriter.url)
      const { jar, url } = await pendingCallback(config)
      expect((await send(config, url.href, { jar })).headers.get("location")).toBe(`${origin}/`)
      expect(await session(config, jar)).toMatchObject({ user: { email: "alice@example.com" } })
    } finally {
      await rewriter.close()
    }
  })

  it.each(forgeries)("an ID token %s is OAuthCallbackError", async (_name, forge, reason) => {
    const rewriter = await tokenEndpointRewriter(`${idp.issuer}/token`, forge)
    try {
      const { config, errors } = setupWithToken(rewriter.url)
      const { jar, url } = await pendingCallback(config)
      await expectRejected(config, jar, await send(config, url.href, { jar }), "OAuthCallbackError")
      expect(logged(errors)).toMatch(reason)
    } finally {
      await rewriter.close()
    }
  })

  function setupWithToken(tokenUrl: string) {
    const log = quietLogger()
    return { config: oauthConfig({ logger: log.logger, providers: [oidc(idp, { token: tokenUrl })] }), errors: log.errors }
  }
})
