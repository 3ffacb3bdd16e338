/**
 * Redirect proxy: a preview deployment signs in through the one callback URL the provider knows,
 * on the stable deployment, which forwards the callback back.
 */
import type { DevIdp } from "@sesame/dev-idp"
import type { AuthConfig } from "@sesame/core"
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest"
import { CookieJar, origin, send } from "../helpers.js"
import { atProvider, callbackUrl, client, deliver, expectRejected, oauthConfig, oidc, quietLogger, session, startIdp, startSignIn } from "./harness.js"

const stable = `${origin}/auth`
const preview = "http://preview-42.localhost:3001/auth"

let idp: DevIdp

beforeAll(async () => {
  // The provider knows the stable deployment's callback URLs only.
  idp = await startIdp({ clients: [client("dev"), client("other")] })
})
afterAll(() => idp.close())
afterEach(() => vi.unstubAllEnvs())

function deployment(overrides: Partial<AuthConfig> = {}) {
  const log = quietLogger()
  const config = oauthConfig({
    logger: log.logger,
    redirectProxyUrl: stable,
    // The stable deployment forwards callbacks only to origins its app trusts.
    trustedOrigins: [new URL(preview).origin],
    providers: [oidc(idp), oidc(idp, { id: "other", clientId: "other" })],
    ...overrides,
  })
  return { config, errors: log.errors }
}

/** Starts a sign-in on the preview deployment and plays the provider: returns the callback on the stable one. */
async function previewSignIn(config: AuthConfig, jar: CookieJar, id = "dev") {
  const start = await startSignIn(config, jar, id, { base: preview })
  const authorization = new URL(start.headers.get("location")!)
  const answer = await atProvider(authorization.href, callbackUrl(id, stable))
  if (answer.kind !== "redirect") throw new Error("expected a redirect")
  return { authorization, callback: new URL(answer.url) }
}

describe("redirect proxy", () => {
  it("the preview deployment signs in through the stable deployment's callback", async () => {
    const previewApp = deployment()
    const stableApp = deployment()
    const previewJar = new CookieJar()
    const stableJar = new CookieJar()

    const { authorization, callback } = await previewSignIn(previewApp.config, previewJar)
    expect(authorization.searchParams.get("redirect_uri")).toBe(callbackUrl("dev", stable))
    // `state` is added on its own: it carries the way back.
    expect(authorization.searchParams.get("state")).toBeTruthy()

    const forwarded = await send(stableApp.config, callback.href, { jar: stableJar })
    expect(forwarded.status).toBe(302)
    const target = new URL(forwarded.headers.get("location")!)
    expect(`${target.origin}${target.pathname}`).toBe(`${preview}/callback/dev`)
    expect(Object.fromEntries(target.searchParams)).toEqual(Object.fromEntries(callback.searchParams))
    expect(stableJar.cookies.size).toBe(0)

    const done = await send(previewApp.config, target.href, { jar: previewJar })
    expect(done.headers.get("location")).toBe("http://preview-42.localhost:3001/")
    const previewSession = await send(previewApp.config, `${preview}/session`, { jar: previewJar })
    expect(await previewSession.json()).toMatchObject({ user: { email: "alice@example.com" } })
  })

  it("on the stable deployment itself, sign-in uses its own callback and is not forwarded", async () => {
    const stableApp = deployment()
    const jar = new CookieJar()
    const start = await startSignIn(stableApp.config, jar, "dev")
    expect(new URL(start.headers.get("location")!).searchParams.get("redirect_uri")).toBe(callbackUrl("dev", stable))
    const answer = await atProvider(start.headers.get("location")!, callbackUrl("dev", stable))
    expect((await deliver(stableApp.config, jar, answer)).headers.get("location")).toBe(`${origin}/`)
    expect(await session(stableApp.config, jar)).toMatchObject({ user: { email: "alice@example.com" } })
  })

  it("takes the proxy URL from AUTH_REDIRECT_PROXY_URL", async () => {
    vi.stubEnv("AUTH_REDIRECT_PROXY_URL", stable)
    const { config } = deployment({ redirectProxyUrl: undefined })
    const start = await startSignIn(config, new CookieJar(), "dev", { base: preview })
    const params = new URL(start.headers.get("location")!).searchParams
    expect(params.get("redirect_uri")).toBe(callbackUrl("dev", stable))
    expect(params.get("state")).toBeTruthy()
  })

  it("forwards only what a deployment with the secret wrote: a made-up state is handled, and refused, locally", async () => {
    const stableApp = deployment()
    const { callback } = await previewSignIn(deployment().config, new CookieJar())
    const sealed = callback.searchParams.get("state")!
    // A character in the middle: every one of its six bits is data (the last character of a
    // base64url part may carry only padding bits, so changing it can leave the bytes the same).
    const middle = Math.floor(sealed.length / 2)
    const altered = `${sealed.slice(0, middle)}${sealed[middle] === "A" ? "B" : "A"}${sealed.slice(middle + 1)}`
    for (const state of ["not-a-sealed-state", altered]) {
      const attempt = new URL(callback)
      attempt.searchParams.set("state", state)
      const jar = new CookieJar()
      await expectRejected(stableApp.config, jar, await send(stableApp.config, attempt.href, { jar }), "InvalidCheck")
    }
  })

  it("does not forward a state sealed with another secret", async () => {
    const stranger = deployment({ secret: "another-deployment-secret-0123456789-abcdef" })
    const { callback } = await previewSignIn(stranger.config, new CookieJar())
    const stableApp = deployment()
    const jar = new CookieJar()
    await expectRejected(stableApp.config, jar, await send(stableApp.config, callback.href, { jar }), "InvalidCheck")
  })

  it("does not forward a state made for another provider", async () => {
    const { callback } = await previewSignIn(deployment().config, new CookieJar(), "other")
    const stableApp = deployment()
    const misrouted = new URL(callbackUrl("dev", stable))
    misrouted.search = callback.search
    const jar = new CookieJar()
    await expectRejected(stableApp.config, jar, await send(stableApp.config, misrouted.href, { jar }), "InvalidCheck")
  })

  it("form_post sign-ins keep the deployment's own callback (a POST is not forwarded)", async () => {
    const { config } = deployment({ providers: [oidc(idp, { authorization: { params: { response_mode: "form_post" } } })] })
    const start = await startSignIn(config, new CookieJar(), "dev", { base: preview })
    expect(new URL(start.headers.get("location")!).searchParams.get("redirect_uri")).toBe(`${preview}/callback/dev`)
  })
})
