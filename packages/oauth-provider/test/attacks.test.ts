/**
 * Attacks on the authorization server, each made over HTTP against a real server and shown to
 * fail, most beside the legitimate request that succeeds:
 * - PKCE left out, downgraded to `plain`, or answered with the wrong verifier;
 * - redirect URIs that are almost the registered one (a web client's, a native client's loopback
 *   one, a post-logout one), at the authorization and token endpoints;
 * - an authorization code replayed or raced, a refresh token reused after rotation or raced (the
 *   grant's tokens all stop working);
 * - one client introspecting, revoking or redeeming another client's tokens and codes;
 * - one user reading or revoking another user's consents; a revoked consent, or a deleted user,
 *   whose tokens still work;
 * - an interaction begun in the attacker's browser completed in the victim's (login CSRF, consent
 *   phishing), with no interaction cookie, a forged one, or the attacker's own planted;
 * - a forged `Host` / `X-Forwarded-*` naming another issuer;
 * - markup in the query reflected by the module's pages;
 * - dynamic client registration and client ID URLs, which are off by default;
 * - a device code redeemed by another client; a token for one resource used at another; the
 *   client credentials grant by a public client or with a wrong secret.
 * Requests are made by hand (`attack-helpers.ts`): a client library would refuse most of them first.
 */
import { protectedResource } from "@sesame/oauth-provider/mcp"
import { recordModel } from "@sesame/oauth-provider"
import { createLocalJWKSet, decodeJwt, jwtVerify, type JSONWebKeySet } from "jose"
import { createHmac } from "node:crypto"
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest"
import {
  answerDevice,
  authorizationRequest,
  authorize,
  clientNamed,
  decide,
  deviceAuthorization,
  endedOnError,
  exchange,
  interactionUid,
  introspect,
  isConsentPage,
  metadataOf,
  pollDevice,
  postAs,
  rawGet,
  refresh,
  revoke,
  stringsOf,
  token,
  tokensFor,
  userinfoStatus,
  walk,
  type Client,
} from "./attack-helpers.js"
import { Browser, defaultOptions, formOf, mcpResource, redirectUri, startWorld, type World } from "./world.js"

const reports = clientNamed("reports")
const intranet = clientNamed("intranet")
const worker = clientNamed("worker")
const cli = clientNamed("cli")
/** A second public client with the device grant: a device code of "cli" redeemed by another device client. */
const tv: Client = { clientId: "tv" }
const otherResource = "https://other.example/api"

let world: World
let emails = 0
/** A new user of the world, signed in in a browser of their own. */
const someone = (name: string) => world.user(`${name}-${++emails}@example.com`)

beforeAll(async () => {
  world = await startWorld({
    ...defaultOptions,
    clients: [...defaultOptions.clients!, { clientId: "tv", name: "Living-room TV", applicationType: "native", grantTypes: ["urn:ietf:params:oauth:grant-type:device_code"] }],
  })
  // The configuration is resolved now, before a describe below stubs AUTH_URL for a world of its own.
  await fetch(`${world.origin}/auth/csrf`)
})
afterAll(() => world?.close())

describe("PKCE (S256, every client)", () => {
  it("refuses an authorization request without code_challenge: no code reaches the client", async () => {
    const ada = await someone("pkce-none")
    const { url } = await authorizationRequest(world, reports, { code_challenge: undefined, code_challenge_method: undefined })
    const steps = await walk(ada, url.href)
    // The redirect URI is the registered one, so the refusal goes back to the client (RFC 6749 §4.1.2.1), with no code.
    expect(steps.left?.href.startsWith(`${redirectUri}?`)).toBe(true)
    expect(steps.left?.searchParams.get("error")).toBe("invalid_request")
    expect(steps.left?.searchParams.get("error_description")).toMatch(/PKCE/)
    expect(steps.left?.searchParams.has("code")).toBe(false)
  })

  it("refuses code_challenge_method=plain", async () => {
    const ada = await someone("pkce-plain")
    const verifier = "a-plain-verifier-that-is-long-enough-0123456789abcdefghijkl"
    const { url } = await authorizationRequest(world, reports, { code_challenge: verifier, code_challenge_method: "plain" })
    const steps = await walk(ada, url.href)
    expect(steps.left?.href.startsWith(`${redirectUri}?`)).toBe(true)
    expect(steps.left?.searchParams.get("error")).toBe("invalid_request")
    expect(steps.left?.searchParams.has("code")).toBe(false)
    expect((await metadataOf(world)).code_challenge_methods_supported).toEqual(["S256"])
  })

  it("refuses a code exchanged with a wrong code_verifier or none (invalid_grant); the right one still works", async () => {
    const ada = await someone("pkce-verifier")
    const { code, verifier } = await authorize(world, ada, reports)
    expect(code).toBeTypeOf("string")
    const wrong = await exchange(world, reports, code!, { code_verifier: `${verifier.slice(0, -1)}${verifier.endsWith("A") ? "B" : "A"}`, redirect_uri: redirectUri })
    expect(wrong).toMatchObject({ status: 400, body: { error: "invalid_grant" } })
    const none = await exchange(world, reports, code!, { redirect_uri: redirectUri })
    expect(none).toMatchObject({ status: 400, body: { error: "invalid_grant" } })
    const right = await exchange(world, reports, code!, { code_verifier: verifier, redirect_uri: redirectUri })
    expect(right.status).toBe(200)
  })
})

describe("redirect URIs are compared exactly", () => {
  const variants = [
    "https://reports.example/callback/",
    "https://reports.example/callback?x=1",
    "https://reports.example/callback#",
    "https://REPORTS.example/callback",
    "https://reports.example.evil.com/callback",
    "https://reports.example/callbackx",
    "http://reports.example/callback",
  ]

  it.each(variants)("an authorization request with redirect_uri %s ends on the error page, sending nothing there", async (variant) => {
    const ada = await someone("redirect")
    const { url } = await authorizationRequest(world, reports, { redirect_uri: variant })
    const steps = await walk(ada, url.href)
    expect(steps.left, `sent to ${steps.left?.href}`).toBeUndefined()
    expect(endedOnError(steps, "invalid_redirect_uri"), steps.url).toBe(true)
    expect(steps.status).toBe(400)
  })

  it.each(["http://localhost:8765/callback", "http://[::1]:8765/callback", "http://127.0.0.2:8765/callback", "https://127.0.0.1:8765/callback", "http://127.0.0.1:8765/callback/", "http://127.0.0.1:8765/other"])(
    "a native client's loopback redirect URI may change its port alone (RFC 8252 §7.3): %s is refused",
    async (variant) => {
      const ada = await someone("loopback")
      const { url } = await authorizationRequest(world, cli, { redirect_uri: variant })
      const steps = await walk(ada, url.href)
      expect(steps.left).toBeUndefined()
      expect(endedOnError(steps, "invalid_redirect_uri"), steps.url).toBe(true)
    },
  )

  it("the registered redirect URI itself gets the code (the legitimate request)", async () => {
    const ada = await someone("redirect-ok")
    const { callback, code } = await authorize(world, ada, reports)
    expect(callback.href.startsWith(`${redirectUri}?`)).toBe(true)
    expect(code).toBeTypeOf("string")
  })

  it("refuses a code exchanged with another redirect_uri than the authorization's (invalid_grant)", async () => {
    const ada = await someone("redirect-token")
    const { code, verifier } = await authorize(world, ada, reports)
    for (const other of ["https://reports.example/callback/", "https://evil.example/callback"]) {
      const answer = await exchange(world, reports, code!, { code_verifier: verifier, redirect_uri: other })
      expect(answer, other).toMatchObject({ status: 400, body: { error: "invalid_grant" } })
    }
    // (Leaving redirect_uri out is oidc-provider's allowOmittingSingleRegisteredRedirectUri: the one registered URI, which the code was for.)
    expect((await exchange(world, reports, code!, { code_verifier: verifier, redirect_uri: redirectUri })).status).toBe(200)
  })

  it("a post-logout redirect URI that is not registered does not lead the browser there", async () => {
    const ada = await someone("logout-redirect")
    for (const target of ["https://evil.example/", "https://reports.example/signed-out/", "https://reports.example/signed-outx"]) {
      const steps = await walk(ada, `${world.issuer}/session/end?${new URLSearchParams({ client_id: "reports", post_logout_redirect_uri: target })}`, { headers: { accept: "text/html" } })
      expect(steps.left, target).toBeUndefined()
      expect(endedOnError(steps, "invalid_request"), `${target}: ${steps.url} ${steps.status}`).toBe(true)
    }
  })
})

describe("authorization codes are used once", () => {
  it("a replayed code is refused, and the tokens of its first exchange are revoked", async () => {
    const ada = await someone("code-replay")
    const { code, verifier } = await authorize(world, ada, reports)
    const first = await exchange(world, reports, code!, { code_verifier: verifier, redirect_uri: redirectUri })
    expect(first.status).toBe(200)
    expect(first.body.refresh_token).toBeTypeOf("string")
    expect((await introspect(world, reports, first.body.access_token)).active).toBe(true)

    const again = await exchange(world, reports, code!, { code_verifier: verifier, redirect_uri: redirectUri })
    expect(again).toMatchObject({ status: 400, body: { error: "invalid_grant" } })
    expect((await introspect(world, reports, first.body.access_token)).active).toBe(false)
    expect((await introspect(world, reports, first.body.refresh_token)).active).toBe(false)
    expect(await refresh(world, reports, first.body.refresh_token)).toMatchObject({ status: 400, body: { error: "invalid_grant" } })
    expect(await userinfoStatus(world, first.body.access_token)).toBe(401)
  })

  it("of two exchanges of one code at the same time, at most one succeeds, and its tokens are revoked", async () => {
    const ada = await someone("code-race")
    const { code, verifier } = await authorize(world, ada, reports)
    const answers = await Promise.all([1, 2, 3].map(() => exchange(world, reports, code!, { code_verifier: verifier, redirect_uri: redirectUri })))
    const won = answers.filter((a) => a.status === 200)
    expect(won.length).toBeLessThanOrEqual(1)
    for (const lost of answers.filter((a) => a.status !== 200)) expect(lost).toMatchObject({ status: 400, body: { error: "invalid_grant" } })
    // The losers held the same code: the grant is no one's, the winner's tokens included.
    for (const { body } of won) {
      expect((await introspect(world, reports, body.access_token)).active).toBe(false)
      expect((await refresh(world, reports, body.refresh_token)).status).toBe(400)
    }
  })
})

describe("refresh tokens rotate, and a reused one revokes the family", () => {
  it("a refresh token used again after rotation is refused, and the rotated refresh and access tokens stop working too", async () => {
    const ada = await someone("refresh-reuse")
    const first = await tokensFor(world, ada, reports)
    const rotated = await refresh(world, reports, first.refresh_token)
    expect(rotated.status).toBe(200)
    expect(rotated.body.refresh_token).not.toBe(first.refresh_token)
    expect((await introspect(world, reports, rotated.body.access_token)).active).toBe(true)

    const reused = await refresh(world, reports, first.refresh_token)
    expect(reused).toMatchObject({ status: 400, body: { error: "invalid_grant" } })
    expect(await refresh(world, reports, rotated.body.refresh_token)).toMatchObject({ status: 400, body: { error: "invalid_grant" } })
    expect((await introspect(world, reports, rotated.body.access_token)).active).toBe(false)
    expect((await introspect(world, reports, first.access_token)).active).toBe(false)
    expect(await userinfoStatus(world, rotated.body.access_token)).toBe(401)
  })

  it("of two refreshes with one refresh token at the same time, at most one succeeds", async () => {
    const ada = await someone("refresh-race")
    const first = await tokensFor(world, ada, reports)
    const answers = await Promise.all([1, 2].map(() => refresh(world, reports, first.refresh_token)))
    const won = answers.filter((a) => a.status === 200)
    expect(won.length).toBeLessThanOrEqual(1)
    for (const lost of answers.filter((a) => a.status !== 200)) expect(lost).toMatchObject({ status: 400, body: { error: "invalid_grant" } })
    // Two holders of one refresh token: the family is no one's, the winner's new tokens included.
    for (const { body } of won) {
      expect((await introspect(world, reports, body.access_token)).active).toBe(false)
      expect((await refresh(world, reports, body.refresh_token)).status).toBe(400)
    }
  })
})

describe("a client acts on its own tokens and codes only", () => {
  it("another client's introspection says inactive, while the owner's says active", async () => {
    const ada = await someone("cross-introspect")
    const theirs = await tokensFor(world, ada, intranet)
    expect((await introspect(world, intranet, theirs.access_token)).active).toBe(true)
    const seen = await introspect(world, reports, theirs.access_token)
    expect(seen).toEqual({ active: false })
    expect(await introspect(world, reports, theirs.refresh_token)).toEqual({ active: false })
  })

  it("another client's revocation leaves the token working for its owner", async () => {
    const ada = await someone("cross-revoke")
    const theirs = await tokensFor(world, ada, intranet)
    await revoke(world, reports, theirs.access_token)
    await revoke(world, reports, theirs.refresh_token)
    expect((await introspect(world, intranet, theirs.access_token)).active).toBe(true)
    expect(await userinfoStatus(world, theirs.access_token)).toBe(200)
    const refreshed = await refresh(world, intranet, theirs.refresh_token)
    expect(refreshed.status).toBe(200)
  })

  it("another client cannot use a refresh token it was not given", async () => {
    const ada = await someone("cross-refresh")
    const theirs = await tokensFor(world, ada, intranet)
    expect(await refresh(world, reports, theirs.refresh_token)).toMatchObject({ status: 400, body: { error: "invalid_grant" } })
    expect((await refresh(world, intranet, theirs.refresh_token)).status).toBe(200)
  })

  it("a code issued to one client cannot be exchanged by another; the owner still can", async () => {
    const ada = await someone("cross-code")
    const { code, verifier, redirectUri: intranetRedirect } = await authorize(world, ada, intranet)
    for (const redirect of [intranetRedirect, redirectUri]) {
      const stolen = await exchange(world, reports, code!, { code_verifier: verifier, redirect_uri: redirect })
      expect(stolen, redirect).toMatchObject({ status: 400, body: { error: "invalid_grant" } })
    }
    const publicThief = await exchange(world, cli, code!, { code_verifier: verifier, redirect_uri: intranetRedirect })
    expect(publicThief.status).toBe(400)
    expect(publicThief.body.access_token).toBeUndefined()
    const owner = await exchange(world, intranet, code!, { code_verifier: verifier, redirect_uri: intranetRedirect })
    expect(owner.status).toBe(200)
    expect(decodeJwt(owner.body.id_token).sub).toBe(ada.id)
  })
})

describe("a user sees and revokes their own consents only", () => {
  it("the server functions and the consents page show the caller's consents, not another user's", async () => {
    const ada = await someone("consents-a")
    const bob = await someone("consents-b")
    await tokensFor(world, ada, reports)
    expect((await ada.api("oauthConsents")).map((c: { clientId: string }) => c.clientId)).toEqual(["reports"])
    expect(await bob.api("oauthConsents")).toEqual([])

    const adaPage = await walk(ada, `${world.origin}/auth/oauth/consents`)
    const bobPage = await walk(bob, `${world.origin}/auth/oauth/consents`)
    expect(adaPage.status).toBe(200)
    expect(adaPage.html).toContain("Reports")
    expect(bobPage.status).toBe(200)
    expect(bobPage.html).not.toContain("Reports")
    expect(bobPage.html).not.toContain('value="reports"')
  })

  it("revoking through the server function or the page acts on the caller's consent alone", async () => {
    const ada = await someone("revoke-a")
    const bob = await someone("revoke-b")
    const adas = await tokensFor(world, ada, reports)
    // Bob has no consent to Reports: revoking "it" revokes nothing of Ada's.
    expect(await bob.api("revokeOAuthConsent", "reports")).toBe(false)
    expect((await introspect(world, reports, adas.access_token)).active).toBe(true)

    // Bob's own consent to Reports, revoked with the page's form: Ada's tokens stay.
    const bobs = await tokensFor(world, bob, reports)
    const page = await walk(bob, `${world.origin}/auth/oauth/consents`)
    const revoked = await walk(bob, `${world.origin}/auth/oauth/consents/revoke`, { form: formOf(page.html!, "reports") })
    expect(revoked.url).toContain("done=revoke")
    expect((await introspect(world, reports, bobs.access_token)).active).toBe(false)
    expect((await refresh(world, reports, bobs.refresh_token)).status).toBe(400)
    expect((await introspect(world, reports, adas.access_token)).active).toBe(true)
    expect(await ada.api("oauthConsents")).toHaveLength(1)
  })

  it("revoking my consent revokes my tokens, not another user's tokens for the same client", async () => {
    const ada = await someone("mine-a")
    const bob = await someone("mine-b")
    const adas = await tokensFor(world, ada, reports)
    const bobs = await tokensFor(world, bob, reports)
    expect(await ada.api("revokeOAuthConsent", "reports")).toBe(true)
    expect((await introspect(world, reports, adas.access_token)).active).toBe(false)
    expect((await introspect(world, reports, adas.refresh_token)).active).toBe(false)
    expect(await refresh(world, reports, adas.refresh_token)).toMatchObject({ status: 400, body: { error: "invalid_grant" } })
    expect(await ada.api("oauthConsents")).toEqual([])
    expect((await introspect(world, reports, bobs.access_token)).active).toBe(true)
    expect((await refresh(world, reports, bobs.refresh_token)).status).toBe(200)
  })

  it("after revoking, the client is asked about again: no code without a new consent", async () => {
    const ada = await someone("revoke-again")
    await tokensFor(world, ada, reports)
    expect(await ada.api("revokeOAuthConsent", "reports")).toBe(true)
    const { url } = await authorizationRequest(world, reports, { prompt: undefined, scope: "openid email" })
    const steps = await walk(ada, url.href)
    expect(steps.left?.searchParams.get("code") ?? null).toBeNull()
    expect(isConsentPage(steps.html)).toBe(true)
  })

  // Two consents given side by side (two browsers of one user) share one grant, and withdrawing the
  // consent deletes every grant of that user to that client anyway.
  it("revoking my consent revokes the tokens of every grant I gave the client, also two consents made side by side", async () => {
    const ada = await someone("parallel")
    const laptop = await new Browser(world, ada.email).signIn()
    const firstStart = await authorizationRequest(world, reports)
    const secondStart = await authorizationRequest(world, reports)
    // Both browsers reach the consent page before either answers it.
    const phonePage = await walk(ada, firstStart.url.href)
    const laptopPage = await walk(laptop, secondStart.url.href)
    expect(isConsentPage(phonePage.html) && isConsentPage(laptopPage.html)).toBe(true)
    const phoneCode = (await decide(ada, phonePage.html!, "allow")).left?.searchParams.get("code")
    const laptopCode = (await decide(laptop, laptopPage.html!, "allow")).left?.searchParams.get("code")
    const phone = await exchange(world, reports, phoneCode!, { code_verifier: firstStart.verifier, redirect_uri: redirectUri })
    const onLaptop = await exchange(world, reports, laptopCode!, { code_verifier: secondStart.verifier, redirect_uri: redirectUri })
    expect([phone.status, onLaptop.status]).toEqual([200, 200])
    expect(await ada.api("oauthConsents")).toHaveLength(1)

    expect(await ada.api("revokeOAuthConsent", "reports")).toBe(true)
    expect((await introspect(world, reports, onLaptop.body.access_token)).active).toBe(false)
    expect.soft((await introspect(world, reports, phone.body.access_token)).active, "the first grant's access token").toBe(false)
    expect.soft((await refresh(world, reports, phone.body.refresh_token)).status, "the first grant's refresh token").toBe(400)
    expect.soft(await userinfoStatus(world, phone.body.access_token), "userinfo with the first grant's access token").toBe(401)
  })

  // Every grant, code and token names its user (`oauthRecord.accountId`): they go with the user.
  it("deleting a user revokes the tokens they gave", async () => {
    const ada = await someone("deleted")
    const adas = await tokensFor(world, ada, reports)
    await world.adapter.deleteUser!(ada.id)
    expect(await ada.api("oauthConsents").catch(() => [])).toEqual([])
    expect((await refresh(world, reports, adas.refresh_token)).status).toBe(400)
    expect(await userinfoStatus(world, adas.access_token)).toBe(401)
    expect((await introspect(world, reports, adas.access_token)).active).toBe(false)
  })

  it("the consents page's revoke form without its CSRF token, or from another site, revokes nothing", async () => {
    const ada = await someone("revoke-csrf")
    const adas = await tokensFor(world, ada, reports)
    const refused = (response: Response) => {
      const location = response.headers.get("location") ?? ""
      return response.status >= 400 || (response.status >= 300 && !location.includes("done=revoke"))
    }
    const forged = await ada.fetch(`${world.origin}/auth/oauth/consents/revoke`, { form: { clientId: "reports" } })
    expect(refused(forged), String(forged.headers.get("location"))).toBe(true)
    const crossSite = await ada.fetch(`${world.origin}/auth/oauth/consents/revoke`, { form: { clientId: "reports", csrfToken: await ada.csrf() }, headers: { origin: "https://evil.example" } })
    expect(refused(crossSite), String(crossSite.headers.get("location"))).toBe(true)
    expect((await introspect(world, reports, adas.access_token)).active).toBe(true)
    expect(await ada.api("oauthConsents")).toHaveLength(1)
  })
})

describe("an interaction belongs to the browser that began it (login CSRF, consent phishing)", () => {
  /** The attacker's authorization, up to the consent page (signed in) or the sign-in page (not). */
  async function attackerStarts(attacker: Browser) {
    const started = await authorizationRequest(world, reports)
    const steps = await walk(attacker, started.url.href)
    return { ...started, steps, uid: interactionUid(steps) }
  }

  /** Whether anything the attacker's browser does from the resume URL on gets a code for `victimId`. */
  async function attackerResumes(attacker: Browser, uid: string, verifier: string, victimId: string) {
    let steps = await walk(attacker, `${world.issuer}/auth/${uid}`)
    if (isConsentPage(steps.html)) steps = await decide(attacker, steps.html, "allow")
    const code = steps.left?.searchParams.get("code")
    if (!code) return { steps, victimCode: false }
    const tokens = await exchange(world, reports, code, { code_verifier: verifier, redirect_uri: redirectUri })
    return { steps, victimCode: tokens.status === 200 && decodeJwt(tokens.body.id_token).sub === victimId }
  }

  it("the victim opening and posting the attacker's consent step is refused (interaction_lost), and the attacker gets no code for the victim", async () => {
    const mallory = await someone("mallory")
    const victim = await someone("victim")
    const { steps, uid, verifier } = await attackerStarts(mallory)
    expect(isConsentPage(steps.html)).toBe(true)

    const opened = await victim.fetch(`${world.origin}/auth/oauth/interaction?uid=${encodeURIComponent(uid)}`)
    expect(opened.status).toBe(400)
    expect(await opened.text()).toContain("interaction_lost")

    const posted = await victim.fetch(`${world.origin}/auth/oauth/interaction`, { form: { csrfToken: await victim.csrf(), uid, decision: "allow" } })
    expect(posted.status).toBe(400)
    expect(await posted.text()).toContain("interaction_lost")

    expect(await victim.api("oauthConsents")).toEqual([])
    const resumed = await attackerResumes(mallory, uid, verifier, victim.id)
    expect(resumed.victimCode).toBe(false)
  })

  it("the victim signed in opening the interaction of an attacker not signed in does not sign the attacker's authorization in as the victim", async () => {
    const attacker = new Browser(world)
    const victim = await someone("login-csrf-victim")
    const { steps, uid, verifier } = await attackerStarts(attacker)
    expect(new URL(steps.url).pathname).toBe("/auth/signin")

    const opened = await victim.fetch(`${world.origin}/auth/oauth/interaction?uid=${encodeURIComponent(uid)}`)
    expect(opened.status).toBe(400)
    expect(await opened.text()).toContain("interaction_lost")

    const resumed = await attackerResumes(attacker, uid, verifier, victim.id)
    expect(resumed.victimCode).toBe(false)
    expect(resumed.steps.left).toBeUndefined()
  })

  it("a forged interaction cookie planted in the victim's browser is refused", async () => {
    const mallory = await someone("forger")
    const victim = await someone("forged-victim")
    const { uid } = await attackerStarts(mallory)
    const name = "sesame.oauth.interaction"
    const forgeries: [string, string | undefined][] = [
      [uid, undefined],
      [uid, "forged-signature"],
      [uid, createHmac("sha1", "not-the-server-key").update(`${name}=${uid}`).digest("base64url")],
      [uid, mallory.jar.cookies.get(`${name}.sig`)!.slice(0, -2)],
    ]
    for (const [value, signature] of forgeries) {
      victim.jar.cookies.set(name, value)
      if (signature === undefined) victim.jar.cookies.delete(`${name}.sig`)
      else victim.jar.cookies.set(`${name}.sig`, signature)
      const opened = await victim.fetch(`${world.origin}/auth/oauth/interaction?uid=${encodeURIComponent(uid)}`)
      expect(opened.status, String(signature)).toBe(400)
      expect(await opened.text()).toContain("interaction_lost")
      const posted = await victim.fetch(`${world.origin}/auth/oauth/interaction`, { form: { csrfToken: await victim.csrf(), uid, decision: "allow" } })
      expect(posted.status, String(signature)).toBe(400)
    }
    // The cookie sent twice (the attacker's and the victim's own) is no one's either.
    const twice = await victim.fetch(`${world.origin}/auth/oauth/interaction?uid=${encodeURIComponent(uid)}`, {
      headers: { cookie: `${victim.jar.header()}; ${name}=${uid}; ${name}.sig=${mallory.jar.cookies.get(`${name}.sig`)}` },
    })
    expect(twice.status).toBe(400)
    expect(await victim.api("oauthConsents")).toEqual([])
  })

  it("even with the attacker's genuine interaction cookie planted in the victim's browser, the attacker gets no code for the victim", async () => {
    const mallory = await someone("tosser")
    const victim = await someone("tossed-victim")
    const { uid, verifier } = await attackerStarts(mallory)
    const name = "sesame.oauth.interaction"
    victim.jar.cookies.set(name, mallory.jar.cookies.get(name)!)
    victim.jar.cookies.set(`${name}.sig`, mallory.jar.cookies.get(`${name}.sig`)!)
    // The step now passes the browser check; the victim goes on as far as their browser can.
    let steps = await walk(victim, `${world.origin}/auth/oauth/interaction?uid=${encodeURIComponent(uid)}`)
    if (isConsentPage(steps.html)) steps = await decide(victim, steps.html, "allow")
    expect(steps.left?.searchParams.get("code") ?? null).toBeNull()

    const resumed = await attackerResumes(mallory, uid, verifier, victim.id)
    expect(resumed.victimCode).toBe(false)
  })
})

describe("a forged Host names no other issuer", () => {
  const forged: Record<string, string>[] = [
    { host: "evil.example" },
    { "x-forwarded-host": "evil.example", "x-forwarded-proto": "https" },
    { host: "evil.example", "x-forwarded-host": "evil.example", "x-forwarded-proto": "https", forwarded: "host=evil.example;proto=https" },
  ]

  describe("with AUTH_URL", () => {
    let pinned: World
    beforeAll(async () => {
      pinned = await startWorld()
      vi.stubEnv("AUTH_URL", pinned.origin)
      try {
        // Resolves the configuration under AUTH_URL (resolution is kept per configuration).
        await fetch(`${pinned.origin}/auth/csrf`)
      } finally {
        vi.unstubAllEnvs()
      }
    })
    afterAll(() => pinned?.close())

    it.each([...forged, { "x-forwarded-proto": "https" }])("discovery with %o names the real origin in the issuer and every endpoint", async (headers) => {
      const answer = await rawGet(pinned, "/auth/oauth/.well-known/openid-configuration", { host: new URL(pinned.origin).host, ...headers })
      expect(answer.status).toBe(200)
      expect(answer.body).not.toContain("evil.example")
      const doc = JSON.parse(answer.body) as Record<string, unknown>
      expect(doc.issuer).toBe(pinned.issuer)
      const urls = stringsOf(doc).filter(([, value]) => /^[a-z][a-z0-9+.-]*:\/\//i.test(value))
      expect(urls.length).toBeGreaterThan(5)
      for (const [at, value] of urls) expect(value.startsWith(`${pinned.issuer}/`) || value === pinned.issuer, `${at}: ${value}`).toBe(true)
    })

    it("the authorization endpoint's redirect with a forged Host goes to the real origin", async () => {
      const started = await authorizationRequest(pinned, reports)
      const path = `${started.url.pathname}${started.url.search}`
      const answer = await rawGet(pinned, path, { host: "evil.example", "x-forwarded-host": "evil.example", "x-forwarded-proto": "https" })
      expect(answer.status).toBeGreaterThanOrEqual(300)
      expect(answer.status).toBeLessThan(400)
      expect(new URL(String(answer.headers.location), pinned.origin).origin).toBe(pinned.origin)
      expect(JSON.stringify(answer.headers)).not.toContain("evil.example")
    })
  })

  describe("with trustHost and no AUTH_URL", () => {
    it.each(forged)("a non-loopback host (%o) is refused with a 500 that names neither it nor a stack", async (headers) => {
      const answer = await rawGet(world, "/auth/oauth/.well-known/openid-configuration", { host: new URL(world.origin).host, ...headers })
      expect(answer.status).toBe(500)
      expect(answer.body).not.toContain("evil.example")
      expect(answer.body).not.toMatch(/\bat .*\(|\.ts:\d+|node:internal/)
      expect(answer.body).not.toContain("issuer\"")
      expect(JSON.stringify(answer.headers)).not.toContain("evil.example")
    })

    it("the loopback origin itself is served (the legitimate request)", async () => {
      const answer = await rawGet(world, "/auth/oauth/.well-known/openid-configuration", { host: new URL(world.origin).host })
      expect(answer.status).toBe(200)
      expect((JSON.parse(answer.body) as { issuer: string }).issuer).toBe(world.issuer)
    })
  })
})

describe("the module's pages reflect no markup from the query", () => {
  const payload = `"><script>alert(1)</script><img src=x onerror=alert(1)>`
  it.each([
    ["the error page", `/auth/oauth/error?${new URLSearchParams({ error: payload })}`],
    ["the user-code page", `/auth/oauth/user-code?${new URLSearchParams({ xsrf: payload, code: payload, error: payload })}`],
    ["the user-code confirmation", `/auth/oauth/user-code?${new URLSearchParams({ xsrf: payload, user_code: payload })}`],
    ["the logout page", `/auth/oauth/logout?${new URLSearchParams({ xsrf: payload })}`],
  ])("%s", async (_, path) => {
    const ada = await someone("reflect")
    const steps = await walk(ada, `${world.origin}${path}`)
    expect(steps.left).toBeUndefined()
    expect(steps.html ?? "").not.toContain("<script>alert(1)")
    expect(steps.html ?? "").not.toContain("<img src=x")
  })
})

describe("dynamic client registration is off", () => {
  it("discovery has no registration endpoint, and a registration is refused with no client made", async () => {
    const metadata = await metadataOf(world)
    expect(metadata.registration_endpoint).toBeUndefined()
    const count = async () => (await world.adapter.store!.findMany(recordModel)).filter((row) => String(row.id).startsWith("Client:")).length
    const before = await count()
    for (const path of ["/reg", "/register", "/registration"]) {
      const response = await fetch(`${world.issuer}${path}`, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json" },
        body: JSON.stringify({ redirect_uris: ["https://evil.example/callback"], client_name: "Evil", token_endpoint_auth_method: "none", grant_types: ["authorization_code"] }),
      })
      const text = await response.text()
      expect(response.status, path).toBeGreaterThanOrEqual(400)
      expect(text).not.toContain("client_id\"")
    }
    expect(await count()).toBe(before)
    // Nor can a client id be made up at the authorization endpoint: an unknown one, or a URL
    // (client ID metadata documents are off too).
    const ada = await someone("registration")
    for (const clientId of ["made-up-client", "https://evil.example/client.json"]) {
      const { url } = await authorizationRequest(world, { clientId, redirectUri: "https://evil.example/callback" })
      const steps = await walk(ada, url.href)
      expect(steps.left, clientId).toBeUndefined()
      expect(new URL(steps.url).pathname, clientId).toBe("/auth/oauth/error")
    }
    expect(await count()).toBe(before)
  })
})

describe("device flow", () => {
  it("an approved device code gives tokens to the client that asked for it alone", async () => {
    const ada = await someone("device-ok")
    const device = await deviceAuthorization(world, cli)
    const steps = await answerDevice(world, ada, device.user_code, "allow")
    expect(steps.url).toContain("/auth/oauth/user-code?done=1")

    expect(await pollDevice(world, tv, device.device_code)).toMatchObject({ status: 400, body: { error: "invalid_grant" } })
    // "reports" may not use the device grant at all (oidc-provider says invalid_request for that).
    const confidential = await pollDevice(world, reports, device.device_code)
    expect(confidential).toMatchObject({ status: 400, body: { error: "invalid_request", error_description: "requested grant type is not allowed for this client" } })
    expect(confidential.body.access_token).toBeUndefined()

    const own = await pollDevice(world, cli, device.device_code)
    expect(own.status).toBe(200)
    expect(decodeJwt(own.body.id_token).sub).toBe(ada.id)
    expect(decodeJwt(own.body.id_token).aud).toBe("cli")
    // Used once.
    expect(await pollDevice(world, cli, device.device_code)).toMatchObject({ status: 400, body: { error: "invalid_grant" } })
  })

  it("a device code no one approved is pending", async () => {
    const device = await deviceAuthorization(world, cli)
    expect(await pollDevice(world, cli, device.device_code)).toMatchObject({ status: 400, body: { error: "authorization_pending" } })
    expect(await pollDevice(world, tv, device.device_code)).toMatchObject({ status: 400, body: { error: "invalid_grant" } })
  })

  it("a device code the user cancelled, or denied at the consent page, is access_denied", async () => {
    const ada = await someone("device-deny")
    const cancelled = await deviceAuthorization(world, cli)
    await answerDevice(world, ada, cancelled.user_code, "cancel")
    expect(await pollDevice(world, cli, cancelled.device_code)).toMatchObject({ status: 400, body: { error: "access_denied" } })

    const denied = await deviceAuthorization(world, cli)
    await answerDevice(world, ada, denied.user_code, "deny")
    expect(await pollDevice(world, cli, denied.device_code)).toMatchObject({ status: 400, body: { error: "access_denied" } })
  })
})

describe("an access token for one resource is not one for another (RFC 8707)", () => {
  it("a token asked for the MCP resource is a JWT whose audience is that resource alone", async () => {
    const ada = await someone("resource")
    const tokens = await tokensFor(world, ada, reports, { scope: "openid tools:read", resource: mcpResource }, { resource: mcpResource })
    const claims = decodeJwt(tokens.access_token)
    expect([claims.aud].flat()).toEqual([mcpResource])
    expect(claims.sub).toBe(ada.id)
    expect(claims.scope).toBe("tools:read")

    const jwks = createLocalJWKSet((await (await fetch((await metadataOf(world)).jwks_uri)).json()) as JSONWebKeySet)
    await expect(jwtVerify(tokens.access_token, jwks, { issuer: world.issuer, audience: mcpResource })).resolves.toBeTruthy()
    await expect(jwtVerify(tokens.access_token, jwks, { issuer: world.issuer, audience: otherResource })).rejects.toThrow()

    // The resource side (`@sesame/oauth-provider/mcp`): accepted by its resource, refused by the other.
    const request = new Request("https://api.example/", { headers: { authorization: `Bearer ${tokens.access_token}` } })
    const at = (resource: string) => protectedResource({ resource, authorizationServer: world.issuer })
    expect((await at(mcpResource).verify(request)).ok).toBe(true)
    const other = await at(otherResource).verify(request)
    expect(other.ok).toBe(false)
    if (!other.ok) expect(other.response.status).toBe(401)
    // Nor is it a token for the userinfo endpoint.
    expect(await userinfoStatus(world, tokens.access_token)).toBe(401)
  })

  it("the code granted for one resource does not give a token for another", async () => {
    const ada = await someone("resource-switch")
    const { code, verifier } = await authorize(world, ada, reports, { scope: "openid tools:read", resource: mcpResource })
    const switched = await exchange(world, reports, code!, { code_verifier: verifier, redirect_uri: redirectUri, resource: otherResource })
    expect(switched).toMatchObject({ status: 400, body: { error: "invalid_target" } })
    expect(switched.body.access_token).toBeUndefined()
  })

  it("an unknown resource is invalid_target, at the authorization and token endpoints", async () => {
    const ada = await someone("resource-unknown")
    const { callback, code } = await authorize(world, ada, reports, { scope: "openid tools:read", resource: "https://unknown.example" })
    expect(code).toBeNull()
    expect(callback.searchParams.get("error")).toBe("invalid_target")
    const answer = await token(world, worker, { grant_type: "client_credentials", scope: "tools:read", resource: "https://unknown.example" })
    expect(answer).toMatchObject({ status: 400, body: { error: "invalid_target" } })
  })
})

describe("client credentials", () => {
  it("the confidential worker gets a token for tools:read at the MCP resource", async () => {
    const answer = await token(world, worker, { grant_type: "client_credentials", scope: "tools:read", resource: mcpResource })
    expect(answer.status).toBe(200)
    const claims = decodeJwt(answer.body.access_token)
    expect([claims.aud].flat()).toEqual([mcpResource])
    expect(claims.client_id).toBe("worker")
    expect(claims.scope).toBe("tools:read")
  })

  it("a scope the worker was not given is refused", async () => {
    const answer = await token(world, worker, { grant_type: "client_credentials", scope: "tools:write", resource: mcpResource })
    expect(answer.status).toBe(400)
    expect(answer.body.access_token).toBeUndefined()
  })

  it("a public client cannot use client_credentials", async () => {
    const answer = await token(world, cli, { grant_type: "client_credentials", scope: "tools:read", resource: mcpResource })
    // oidc-provider's answer for a grant the client may not use (RFC 6749 would say unauthorized_client).
    expect(answer).toMatchObject({ status: 400, body: { error: "invalid_request", error_description: "requested grant type is not allowed for this client" } })
    expect(answer.body.access_token).toBeUndefined()
  })

  it("a wrong secret, in the header or the body, or none, is invalid_client", async () => {
    const wrong = await token(world, { clientId: "worker", secret: `${worker.secret!.slice(0, -1)}X` }, { grant_type: "client_credentials", scope: "tools:read", resource: mcpResource })
    expect(wrong).toMatchObject({ status: 401, body: { error: "invalid_client" } })
    const none = await token(world, { clientId: "worker" }, { grant_type: "client_credentials", scope: "tools:read", resource: mcpResource })
    expect(none).toMatchObject({ status: 401, body: { error: "invalid_client" } })
    // oidc-provider takes client_secret_post for a client registered with client_secret_basic (the same secret): a wrong one there too is refused.
    const inBody = await postAs((await metadataOf(world)).token_endpoint, { clientId: "worker" }, { grant_type: "client_credentials", client_secret: `${worker.secret!.slice(0, -1)}X`, scope: "tools:read", resource: mcpResource })
    expect(inBody).toMatchObject({ status: 401, body: { error: "invalid_client" } })
    const otherClients = await token(world, { clientId: "worker", secret: reports.secret! }, { grant_type: "client_credentials", scope: "tools:read", resource: mcpResource })
    expect(otherClients).toMatchObject({ status: 401, body: { error: "invalid_client" } })
  })
})
