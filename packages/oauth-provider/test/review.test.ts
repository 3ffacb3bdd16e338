/**
 * A second round of attacks on the authorization server (review), each made over HTTP against a
 * real server, beside `attacks.test.ts` (which it does not repeat):
 * - RP-initiated logout: CSRF on the module's POST, an attacker's `xsrf`, post-logout redirect
 *   variants, a cross-site GET of `<issuer>/session/end`;
 * - the server's session cookie planted from a sibling subdomain (the `sesame_session` check);
 *   what cookies the server's answers set;
 * - markup in the name of a user-registered or dynamically registered app, on every page that shows it;
 * - the apps page: redirect URIs that look safe and are not, another user's or organization's app
 *   through the page's POST;
 * - tokens used where they are not tokens (an ID token at userinfo and introspection), resource
 *   indicators that are almost a registered resource;
 * - the interaction: a device flow's interaction resumed as a code flow's, decisions that are not "allow";
 * - the bridge: bodies over its limit, chunked bodies, duplicate Host, HEAD, dot segments;
 * - the issuer and the cookies' names under AUTH_URL with forged forwarding headers;
 * - dynamic registration: what a registration may claim besides what the app's policy looks at.
 */
import { createServer, request as httpRequest, type IncomingHttpHeaders } from "node:http"
import type { AddressInfo } from "node:net"
import { decodeJwt, generateKeyPair, SignJWT } from "jose"
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest"
import { organizations, type InvitationMessage } from "@sesame/organizations"
import { protectedResource } from "@sesame/oauth-provider/mcp"
import {
  authorizationRequest,
  authorize,
  clientNamed,
  decide,
  exchange,
  interactionUid,
  introspect,
  isConsentPage,
  metadataOf,
  postAs,
  rawGet,
  token,
  tokensFor,
  userinfoStatus,
  walk,
  formWith,
  type Client,
} from "./attack-helpers.js"
import { recordModel } from "@sesame/oauth-provider"
import { Browser, defaultOptions, formOf, mcpResource, redirectUri, startWorld, type World } from "./world.js"

const reports = clientNamed("reports")
const intranet = clientNamed("intranet")
const worker = clientNamed("worker")
const signedOut = "https://reports.example/signed-out"
const markup = `"><script>alert(1)</script><img src=x onerror=alert(1)>`

const sent: InvitationMessage[] = []
const orgs = organizations({ invitations: { send: (message) => void sent.push(message) } })

let world: World
let emails = 0
const someone = (name: string) => world.user(`${name}-${++emails}@example.com`)

beforeAll(async () => {
  world = await startWorld({ ...defaultOptions, organizations: orgs }, { plugins: [orgs] })
  await fetch(`${world.origin}/auth/csrf`)
})
afterAll(() => world?.close())

/** Who the browser is signed in to Sesame as (null: no one). */
async function sesameUser(browser: Browser): Promise<string | null> {
  const response = await browser.fetch(`${world.origin}/auth/session`)
  const body = (await response.json().catch(() => null)) as { user?: { email?: string } } | null
  return body?.user?.email ?? null
}

/** Whether `html` holds markup from `markup` as markup (not as text). */
const hasRawMarkup = (html: string | undefined) => /<script>alert\(1\)|<img src=x/i.test(html ?? "")

/** A raw HTTP request (headers `fetch` will not send: Host twice, Transfer-Encoding), to the world's server. */
function raw(
  target: World,
  options: { method?: string; path: string; headers?: Record<string, string> | string[]; body?: string | Buffer; chunks?: string[] },
): Promise<{ status: number; headers: IncomingHttpHeaders; body: string }> {
  const { hostname, port } = new URL(target.origin)
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: hostname, port: Number(port), path: options.path, method: options.method ?? "GET", headers: options.headers ?? {}, setHost: false }, (res) => {
      const chunks: Buffer[] = []
      res.on("data", (chunk: Buffer) => chunks.push(chunk))
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString("utf8") }))
      res.on("error", reject)
    })
    req.setTimeout(10_000, () => req.destroy(new Error("timed out")))
    req.on("error", reject)
    if (options.chunks) for (const chunk of options.chunks) req.write(chunk)
    else if (options.body !== undefined) req.write(options.body)
    req.end()
  })
}

/** Walks `<issuer>/session/end` with `params` up to the module's logout page: the `xsrf` it carries. */
async function logoutXsrf(browser: Browser, params: Record<string, string> = {}): Promise<{ xsrf: string | null; steps: Awaited<ReturnType<typeof walk>> }> {
  const steps = await walk(browser, `${world.issuer}/session/end?${new URLSearchParams(params)}`)
  return { xsrf: new URL(steps.url).searchParams.get("xsrf"), steps }
}

describe("RP-initiated logout", () => {
  it("a cross-site GET of <issuer>/session/end (no id_token_hint) only asks: the Sesame session and the server's session stay", async () => {
    const ada = await someone("logout-get")
    const before = await tokensFor(world, ada, reports, { scope: "openid email" })
    for (const params of [{}, { client_id: "reports", post_logout_redirect_uri: signedOut, state: "s" }] as Record<string, string>[]) {
      const { steps, xsrf } = await logoutXsrf(ada, params)
      expect(steps.left, JSON.stringify(params)).toBeUndefined()
      expect(new URL(steps.url).pathname).toBe("/auth/oauth/logout")
      expect(xsrf).toBeTruthy()
      expect(steps.status).toBe(200)
    }
    expect(await sesameUser(ada)).toBe(ada.email)
    // The access token expires with the server's session (no offline_access): still working.
    expect(await userinfoStatus(world, before.access_token)).toBe(200)
  })

  it("POST oauth/logout without the CSRF token, or from another site, signs no one out", async () => {
    const ada = await someone("logout-csrf")
    await tokensFor(world, ada, reports, { scope: "openid" })
    const { xsrf } = await logoutXsrf(ada, { client_id: "reports", post_logout_redirect_uri: signedOut, state: "s" })
    const forged = await ada.fetch(`${world.origin}/auth/oauth/logout`, { form: { xsrf: xsrf!, logout: "yes" } })
    expect(forged.headers.get("location") ?? "").not.toContain("reports.example")
    expect(await sesameUser(ada)).toBe(ada.email)
    const crossSite = await ada.fetch(`${world.origin}/auth/oauth/logout`, { form: { csrfToken: await ada.csrf(), xsrf: xsrf!, logout: "yes" }, headers: { origin: "https://evil.example" } })
    expect(crossSite.headers.get("location") ?? "").not.toContain("reports.example")
    expect(await sesameUser(ada)).toBe(ada.email)
    // The legitimate confirmation: signed out, and sent to the registered post-logout URI with the state.
    const confirmed = await ada.fetch(`${world.origin}/auth/oauth/logout`, { form: { csrfToken: await ada.csrf(), xsrf: xsrf!, logout: "yes" } })
    expect(confirmed.status).toBe(302)
    const to = new URL(confirmed.headers.get("location")!)
    expect(`${to.origin}${to.pathname}`).toBe(signedOut)
    expect(to.searchParams.get("state")).toBe("s")
    expect(await sesameUser(ada)).toBeNull()
  })

  it("the attacker's own xsrf posted from the victim's browser sends the victim to no client (xsrf is bound to the server's session)", async () => {
    const mallory = await someone("logout-mallory")
    const victim = await someone("logout-victim")
    await tokensFor(world, mallory, reports, { scope: "openid" })
    await tokensFor(world, victim, reports, { scope: "openid" })
    const { xsrf } = await logoutXsrf(mallory, { client_id: "reports", post_logout_redirect_uri: signedOut, state: "mallory" })
    // The victim opens the module's logout page with the attacker's xsrf and says "stay signed in".
    const page = await walk(victim, `${world.origin}/auth/oauth/logout?xsrf=${encodeURIComponent(xsrf!)}`)
    expect(page.status).toBe(200)
    const stay = await walk(victim, `${world.origin}/auth/oauth/logout`, { form: { csrfToken: await victim.csrf(), xsrf: xsrf! } })
    expect(stay.left).toBeUndefined()
    expect(stay.status).toBe(400)
    expect(stay.html).toContain("invalid_request")
    expect(await sesameUser(victim)).toBe(victim.email)
    // Nor does it end the attacker's server session for them: their own form still works.
    const own = await mallory.fetch(`${world.origin}/auth/oauth/logout`, { form: { csrfToken: await mallory.csrf(), xsrf: xsrf! } })
    expect(new URL(own.headers.get("location")!).searchParams.get("state")).toBe("mallory")
  })

  it("RP-initiated logout when the browser is signed in to Sesame but holds no server session: the Sesame session must end too (or the user be asked)", async () => {
    const ada = await someone("logout-no-op-session")
    const tokens = await tokensFor(world, ada, reports, { scope: "openid" })
    // The server's session is gone (its 14 days are over, or its cookie was cleared), Sesame's is not (its own lifetime, rolling).
    for (const name of [...ada.jar.cookies.keys()]) if (name.startsWith("sesame.oauth.session")) ada.jar.cookies.delete(name)
    expect(await sesameUser(ada)).toBe(ada.email)
    // Reports' "Sign out" button: RP-initiated logout with its ID token.
    const steps = await walk(ada, `${world.issuer}/session/end?${new URLSearchParams({ id_token_hint: tokens.id_token, post_logout_redirect_uri: signedOut, state: "bye" })}`, { headers: { accept: "text/html" } })
    let left = steps.left
    // oidc-provider's own auto-submitting form (no account in its session: nothing to ask, it says), as a browser submits it.
    if (!left && steps.html?.includes("/session/end/confirm")) {
      const fields = Object.fromEntries([...steps.html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"\/>/g)].map((m) => [m[1]!, m[2]!]))
      left = (await walk(ada, `${world.issuer}/session/end/confirm`, { form: fields })).left
    }
    // With no account in the server's own session, oidc-provider would confirm the logout by itself; while
    // someone is signed in to the app it goes through the module's page, which ends the app's session (server.ts).
    const backAtClient = left !== undefined && left.href.startsWith(signedOut)
    const stillSignedIn = (await sesameUser(ada)) === ada.email
    expect(backAtClient && stillSignedIn, `back at ${left?.href}; Sesame session ${stillSignedIn ? "alive" : "ended"}`).toBe(false)
  })

  it("'Stay signed in' on the logout page keeps the Sesame session", async () => {
    const ada = await someone("logout-stay")
    await tokensFor(world, ada, reports, { scope: "openid" })
    const { xsrf } = await logoutXsrf(ada, { client_id: "reports", post_logout_redirect_uri: signedOut, state: "s" })
    const stay = await ada.fetch(`${world.origin}/auth/oauth/logout`, { form: { csrfToken: await ada.csrf(), xsrf: xsrf! } })
    expect(stay.status).toBe(302)
    expect(stay.headers.get("location")).toBe(`${signedOut}?state=s`)
    expect(await sesameUser(ada)).toBe(ada.email)
  })

  it.each([
    `${signedOut}?x=1`,
    `${signedOut}#x`,
    "HTTPS://REPORTS.EXAMPLE/signed-out",
    "https://reports.example:443/signed-out",
    "https://reports.example/signed-out/../signed-out",
    "//evil.example/signed-out",
    "https://reports.example@evil.example/signed-out",
  ])("post_logout_redirect_uri %s (not the registered one) ends on the error page", async (target) => {
    const ada = await someone("logout-variant")
    await tokensFor(world, ada, reports, { scope: "openid" })
    const steps = await walk(ada, `${world.issuer}/session/end?${new URLSearchParams({ client_id: "reports", post_logout_redirect_uri: target })}`, { headers: { accept: "text/html" } })
    expect(steps.left).toBeUndefined()
    expect(new URL(steps.url).pathname).toBe("/auth/oauth/error")
  })

  it("one client's registered post_logout_redirect_uri named for another client (client_id or id_token_hint) is refused", async () => {
    const ada = await someone("logout-cross")
    const theirs = await tokensFor(world, ada, intranet, { scope: "openid" })
    for (const params of [
      { client_id: "intranet", post_logout_redirect_uri: signedOut },
      { id_token_hint: theirs.id_token, post_logout_redirect_uri: signedOut },
      { id_token_hint: theirs.id_token, client_id: "reports", post_logout_redirect_uri: signedOut },
    ] as Record<string, string>[]) {
      const steps = await walk(ada, `${world.issuer}/session/end?${new URLSearchParams(params)}`, { headers: { accept: "text/html" } })
      expect(steps.left, JSON.stringify(Object.keys(params))).toBeUndefined()
      expect(new URL(steps.url).pathname).toBe("/auth/oauth/error")
    }
  })

  it("a registered app's post-logout URI is a web page: an app's own scheme is refused when it registers, so a logout always ends at one", async () => {
    const owner = await someone("logout-native-owner")
    await expect(owner.api("createOAuthClient", { name: "Native Notes", public: true, redirectUris: ["com.example.notes:/cb"], postLogoutRedirectUris: ["com.example.notes:/signed-out"] })).rejects.toMatchObject({ code: "InvalidInput" })
    const created = await owner.api("createOAuthClient", { name: "Native Notes", public: true, redirectUris: ["com.example.notes:/cb"], postLogoutRedirectUris: ["http://127.0.0.1:9917/signed-out"] })
    expect(created.clientId).toBeTruthy()
  })
})

describe("the server's session cookie", () => {
  /** The attacker's `sesame.oauth.session` cookie (and signature): what a sibling subdomain could plant. */
  async function attackerSession() {
    const mallory = await someone("planter")
    await tokensFor(world, mallory, reports, { scope: "openid" })
    const planted = [...mallory.jar.cookies.entries()].filter(([name]) => name.startsWith("sesame.oauth.session"))
    expect(planted.length).toBeGreaterThan(0)
    return { mallory, planted }
  }

  /** An authorization of Reports in `browser`, as a browser goes through it (oidc-provider's auto-submitting forms submitted, consent allowed). */
  async function authorizeThrough(browser: Browser): Promise<{ code: string | null; verifier: string; url: string }> {
    const started = await authorizationRequest(world, reports, { prompt: undefined, scope: "openid" })
    let steps = await walk(browser, started.url.href)
    for (let forms = 0; forms < 3 && !steps.left && steps.html?.includes("/session/end/confirm"); forms++) {
      const fields = Object.fromEntries([...steps.html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"\/>/g)].map((m) => [m[1]!, m[2]!]))
      steps = await walk(browser, `${world.issuer}/session/end/confirm`, { form: fields })
    }
    if (isConsentPage(steps.html)) steps = await decide(browser, steps.html, "allow")
    return { code: steps.left?.searchParams.get("code") ?? null, verifier: started.verifier, url: steps.url }
  }

  it("planted in a signed-in victim's browser, it does not make the code the attacker's", async () => {
    const { mallory, planted } = await attackerSession()
    const victim = await someone("planted-victim")
    for (const [name, value] of planted) victim.jar.cookies.set(name, value)
    // The victim's authorization .
    const steps = await authorizeThrough(victim)
    expect(steps.code, steps.url).toBeTruthy()
    const tokens = await exchange(world, reports, steps.code!, { code_verifier: steps.verifier, redirect_uri: redirectUri })
    expect(tokens.status).toBe(200)
    expect(decodeJwt(tokens.body.id_token).sub).toBe(victim.id)
    expect(decodeJwt(tokens.body.id_token).sub).not.toBe(mallory.id)
  })

  it("someone else signed in to Sesame in the same browser since the last authorization: the new user's authorization completes", async () => {
    const ada = await someone("switch-ada")
    await tokensFor(world, ada, reports, { scope: "openid" })
    // Ada signs out of Sesame (the app's own sign-out) and Bob signs in, in the same browser.
    await ada.fetch(`${world.origin}/auth/signout`, { form: { csrfToken: await ada.csrf() } })
    expect(await sesameUser(ada)).toBeNull()
    const bob = await world.adapter.createUser!({ id: crypto.randomUUID(), email: `switch-bob-${++emails}@example.com`, name: "bob", emailVerified: new Date() })
    const shared = new Browser(world, bob.email)
    for (const [name, value] of ada.jar.cookies) shared.jar.cookies.set(name, value)
    await shared.signIn()
    const steps = await authorizeThrough(shared)
    // The former user's grant is revoked on the switch; the new user's sign-in under way is no token of it (storage.ts).
    expect(steps.code, `ended on ${steps.url}`).toBeTruthy()
    const tokens = await exchange(world, reports, steps.code!, { code_verifier: steps.verifier, redirect_uri: redirectUri })
    expect(decodeJwt(tokens.body.id_token).sub).toBe(bob.id)
  })

  it("planted in a browser signed in to no one, it signs no one in at the client (login CSRF): prompt=none fails, otherwise the sign-in page", async () => {
    const { planted } = await attackerSession()
    const victim = new Browser(world)
    for (const [name, value] of planted) victim.jar.cookies.set(name, value)
    const silent = await authorizationRequest(world, reports, { prompt: "none", scope: "openid" })
    const steps = await walk(victim, silent.url.href)
    expect(steps.left?.searchParams.get("error")).toBe("login_required")
    expect(steps.left?.searchParams.has("code")).toBe(false)
    const asked = await authorizationRequest(world, reports, { prompt: undefined, scope: "openid" })
    const page = await walk(victim, asked.url.href)
    expect(page.left).toBeUndefined()
    expect(new URL(page.url).pathname).toBe("/auth/signin")
  })

  it("every cookie the server's answers set in a whole flow is the module's own (sesame.oauth.*), without Domain", async () => {
    const ada = await someone("cookies")
    const seen: string[] = []
    const original = ada.fetch.bind(ada)
    ada.fetch = async (url, init) => {
      const response = await original(url, init)
      if (new URL(url).pathname.startsWith("/auth/oauth/")) seen.push(...response.headers.getSetCookie())
      return response
    }
    await tokensFor(world, ada, reports)
    await logoutXsrf(ada)
    expect(seen.length).toBeGreaterThan(0)
    for (const line of seen) {
      expect(line).toMatch(/^sesame\.(oauth\.|csrf|session)|^sesame\.oauth\./)
      expect(line.toLowerCase()).not.toContain("domain=")
    }
    const oauthOnes = seen.filter((line) => !/^sesame\.oauth\./.test(line))
    // Only core cookies (CSRF) besides the module's: set by the module's pages, never by oidc-provider's answers.
    for (const line of oauthOnes) expect(line).toMatch(/^sesame\.(csrf|session)/)
  })
})

describe("markup in an app's name is text on every page that shows it", () => {
  it("a user-registered app named with markup: consent page, device confirmation, the consents page, the apps page and its confirmations", async () => {
    const owner = await someone("xss-owner")
    const ada = await someone("xss-user")
    const loopback = "http://127.0.0.1:9912/cb"
    const created = await owner.api("createOAuthClient", { name: markup, public: true, redirectUris: [loopback], grantTypes: ["authorization_code", "urn:ietf:params:oauth:grant-type:device_code"] })
    const app: Client = { clientId: created.clientId, redirectUri: loopback }

    const started = await authorizationRequest(world, app, { scope: "openid" })
    const consent = await walk(ada, started.url.href)
    expect(isConsentPage(consent.html)).toBe(true)
    expect(hasRawMarkup(consent.html), "consent page").toBe(false)
    expect(consent.html).toContain("&lt;script&gt;")
    await decide(ada, consent.html!, "allow")

    const consents = await walk(ada, `${world.origin}/auth/oauth/consents`)
    expect(consents.html).toContain("&lt;script&gt;")
    expect(hasRawMarkup(consents.html), "consents page").toBe(false)

    const device = await postAs((await metadataOf(world)).device_authorization_endpoint, app, { scope: "openid" })
    const start = await walk(ada, `${world.issuer}/device`)
    const confirm = await walk(ada, `${world.issuer}/device`, { form: { xsrf: formWith(start.html!, "xsrf").xsrf!, user_code: device.body.user_code } })
    expect(confirm.html).toContain('name="confirm"')
    expect(hasRawMarkup(confirm.html), "device confirmation").toBe(false)

    const page = await walk(owner, `${world.origin}/auth/oauth/clients`)
    expect(page.html).toContain("&lt;script&gt;")
    expect(hasRawMarkup(page.html), "apps page").toBe(false)
    const form = formWith(page.html!, "clientId")
    const deleteConfirm = await walk(owner, `${world.origin}/auth/oauth/clients/act`, { form: { ...form, action: "delete", clientId: created.clientId } })
    expect(deleteConfirm.status).toBe(200)
    expect(hasRawMarkup(deleteConfirm.html), "delete confirmation").toBe(false)

    const confidential = await owner.api("createOAuthClient", { name: markup, redirectUris: ["https://xss.example/cb"] })
    const rotateConfirm = await walk(owner, `${world.origin}/auth/oauth/clients/act`, { form: { ...form, action: "rotate", clientId: confidential.clientId } })
    expect(hasRawMarkup(rotateConfirm.html), "rotate confirmation").toBe(false)
    const rotated = await walk(owner, `${world.origin}/auth/oauth/clients/act`, { form: { ...form, action: "rotate", clientId: confidential.clientId, confirm: "yes" } })
    expect(rotated.status).toBe(200)
    expect(hasRawMarkup(rotated.html), "new secret page").toBe(false)
    // The create form's refusal shows the draft back: as text.
    const refused = await walk(owner, `${world.origin}/auth/oauth/clients/act`, { form: { ...form, action: "create", name: markup, redirectUris: `javascript:alert(1)\n${markup}` } })
    expect(refused.status).toBe(400)
    expect(hasRawMarkup(refused.html), "refused create form").toBe(false)
  })
})

describe("the apps page and functions", () => {
  it.each([
    "http://127.0.0.1.evil.com/cb",
    "http://localhost.evil.com/cb",
    "http://127.0.0.1@evil.com/cb",
    "http://evil.com\\@127.0.0.1/cb",
    "HTTP://EVIL.COM/cb",
    "data:text/html,<script>alert(1)</script>",
    "vbscript:msgbox(1)",
    "file:///etc/passwd",
    "blob:https://x.example/1",
    "about:blank",
    "JavaScript:alert(1)",
    " javascript:alert(1)",
    "java\tscript:alert(1)",
    "javascript://%0aalert(1)",
  ])("refuses the redirect URI %j", async (uri) => {
    const ada = await someone("uris")
    await expect(ada.api("createOAuthClient", { name: "Probe", public: true, redirectUris: [uri] })).rejects.toMatchObject({ code: "InvalidInput" })
    await expect(ada.api("createOAuthClient", { name: "Probe", public: true, redirectUris: ["http://127.0.0.1:1/cb"], postLogoutRedirectUris: [uri] })).rejects.toMatchObject({ code: "InvalidInput" })
  })

  it("another user's app through the page's POST with a forged clientId: rotate and delete refused, its secret still works", async () => {
    const bob = await someone("page-bob")
    const mallory = await someone("page-mallory")
    const bobs = await bob.api("createOAuthClient", { name: "Bob's", redirectUris: ["https://bob.example/cb"] })
    const page = await walk(mallory, `${world.origin}/auth/oauth/clients`)
    const form = formWith(page.html!, "action")
    for (const action of ["rotate", "delete"]) {
      const answer = await mallory.fetch(`${world.origin}/auth/oauth/clients/act`, { form: { ...form, action, clientId: bobs.clientId, confirm: "yes" } })
      expect(answer.status).toBe(302)
      expect(new URL(answer.headers.get("location")!).searchParams.get("error")).toBe("NotFound")
      expect(await answer.text()).not.toContain(bobs.clientId)
    }
    expect(await introspect(world, { clientId: bobs.clientId, secret: bobs.clientSecret }, "x")).toEqual({ active: false })
  })

  it("an organization's admin names their own organization in the form and another's app: refused", async () => {
    const ada = await someone("org-ada")
    const dan = await someone("org-dan")
    const acme = ((await ada.api("createOrganization", { name: "Acme" })) as { id: string }).id
    const globex = ((await dan.api("createOrganization", { name: "Globex" })) as { id: string }).id
    const globexApp = await dan.api("createOAuthClient", { name: "Globex Desk", redirectUris: ["https://globex.example/cb"], organizationId: globex })
    const page = await walk(ada, `${world.origin}/auth/oauth/clients?organizationId=${acme}`)
    expect(page.status).toBe(200)
    const form = formWith(page.html!, "organizationId")
    for (const action of ["rotate", "delete"]) {
      const answer = await ada.fetch(`${world.origin}/auth/oauth/clients/act`, { form: { ...form, organizationId: acme, action, clientId: globexApp.clientId, confirm: "yes" } })
      expect(new URL(answer.headers.get("location")!).searchParams.get("error"), action).toBe("NotFound")
    }
    const into = await ada.fetch(`${world.origin}/auth/oauth/clients/act`, { form: { ...form, organizationId: globex, action: "create", name: "Into Globex", redirectUris: "https://x.example/cb" } })
    expect(into.status).toBe(302)
    expect(new URL(into.headers.get("location")!).searchParams.get("error")).toBe("NotFound")
    expect((await dan.api("listOAuthClients", { organizationId: globex })).map((c: { clientId: string }) => c.clientId)).toEqual([globexApp.clientId])
    expect(await introspect(world, { clientId: globexApp.clientId, secret: globexApp.clientSecret }, "x")).toEqual({ active: false })
  })
})

describe("tokens used where they are not tokens", () => {
  it("an ID token is no access token: userinfo 401, introspection inactive", async () => {
    const ada = await someone("id-token")
    const tokens = await tokensFor(world, ada, reports, { scope: "openid email" })
    expect(await userinfoStatus(world, tokens.id_token)).toBe(401)
    const seen = await postAs((await metadataOf(world)).introspection_endpoint, reports, { token: tokens.id_token })
    expect(seen.body.active ?? false).toBe(false)
    expect(seen.body.sub).toBeUndefined()
    // The access token itself works (the legitimate request).
    expect(await userinfoStatus(world, tokens.access_token)).toBe(200)
  })

  it("a JWT access token for a resource is inactive at another client's introspection", async () => {
    const ada = await someone("jwt-introspect")
    const tokens = await tokensFor(world, ada, reports, { scope: "openid tools:read", resource: mcpResource }, { resource: mcpResource })
    const seen = await postAs((await metadataOf(world)).introspection_endpoint, intranet, { token: tokens.access_token })
    expect(seen.body.active ?? false).toBe(false)
    expect(seen.body.sub).toBeUndefined()
  })

  it.each([`${mcpResource}/`, `${mcpResource}?x=1`, `${mcpResource}#x`, "HTTPS://MCP.EXAMPLE/mcp", "https://mcp.example:443/mcp", "https://mcp.example/MCP", "https://mcp.example/mcp/../mcp", "https://mcp.example/%6dcp"])(
    "a resource %j that is almost the registered one gives no token (authorization and client credentials)",
    async (variant) => {
      const ada = await someone("resource-variant")
      const { url } = await authorizationRequest(world, reports, { scope: "openid tools:read", resource: variant })
      const steps = await walk(ada, url.href)
      if (isConsentPage(steps.html)) {
        const after = await decide(ada, steps.html, "allow")
        const code = after.left?.searchParams.get("code")
        if (code) {
          const answer = await exchange(world, reports, code, { code_verifier: "x".repeat(43), redirect_uri: redirectUri, resource: variant })
          expect(answer.status).toBe(400)
        }
      } else {
        expect(steps.left?.searchParams.get("code") ?? null).toBeNull()
      }
      const machine = await token(world, worker, { grant_type: "client_credentials", scope: "tools:read", resource: variant })
      expect(machine.status, JSON.stringify(machine.body)).toBe(400)
      expect(machine.body.access_token).toBeUndefined()
    },
  )
})

describe("the interaction", () => {
  it.each(["Allow", "allow ", "ALLOW", "yes", "", "allow\u0000"])("a decision of %j is a denial: no code", async (decision) => {
    const ada = await someone("decision")
    const started = await authorizationRequest(world, reports, { scope: "openid" })
    const page = await walk(ada, started.url.href)
    expect(isConsentPage(page.html)).toBe(true)
    const form = { ...formOf(page.html!, "allow"), decision }
    const after = await walk(ada, `${world.origin}/auth/oauth/interaction`, { form })
    expect(after.left?.searchParams.get("code") ?? null).toBeNull()
    expect(await ada.api("oauthConsents")).toEqual([])
  })

  it("a device flow's interaction resumed at the code flow's resume endpoint (and the other way) gives no code and no device approval", async () => {
    const ada = await someone("kinds")
    const cli: Client = { clientId: "cli", redirectUri: "http://127.0.0.1:8765/callback" }
    const device = await postAs((await metadataOf(world)).device_authorization_endpoint, cli, { scope: "openid" })
    const start = await walk(ada, `${world.issuer}/device`)
    const confirmPage = await walk(ada, `${world.issuer}/device`, { form: { xsrf: formWith(start.html!, "xsrf").xsrf!, user_code: device.body.user_code } })
    const deviceConsent = await walk(ada, `${world.issuer}/device`, { form: formWith(confirmPage.html!, "confirm") })
    expect(isConsentPage(deviceConsent.html)).toBe(true)
    const deviceUid = formOf(deviceConsent.html!, "allow").uid!

    const started = await authorizationRequest(world, reports, { scope: "openid" })
    const codeConsent = await walk(ada, started.url.href)
    expect(isConsentPage(codeConsent.html)).toBe(true)
    const codeUid = interactionUid(codeConsent)

    // Resume each at the other's endpoint, with and without the interaction answered.
    for (const path of [`/auth/${deviceUid}`, `/device/${codeUid}`]) {
      const steps = await walk(ada, `${world.issuer}${path}`)
      expect(steps.left?.searchParams.get("code") ?? null, path).toBeNull()
    }
    await walk(ada, `${world.origin}/auth/oauth/interaction`, { form: formOf(deviceConsent.html!, "allow") })
    const crossed = await walk(ada, `${world.issuer}/auth/${deviceUid}`)
    expect(crossed.left?.searchParams.get("code") ?? null).toBeNull()
    const polled = await token(world, cli, { grant_type: "urn:ietf:params:oauth:grant-type:device_code", device_code: device.body.device_code })
    // Whatever the device's outcome, the code flow's client got nothing from the device's consent.
    expect([200, 400]).toContain(polled.status)
  })
})

describe("the bridge", () => {
  it("a body over the bridge's 64 KiB (and over the core's 1 MiB) is a clean 413, nothing stored", async () => {
    for (const size of [70 * 1024, 2 * 1024 * 1024]) {
      const response = await fetch((await metadataOf(world)).token_endpoint, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", authorization: `Basic ${Buffer.from(`reports:${reports.secret}`).toString("base64")}` },
        body: `grant_type=client_credentials&pad=${"a".repeat(size)}`,
      })
      const text = await response.text()
      expect(response.status, String(size)).toBe(413)
      expect(text).not.toMatch(/\bat .*\(|\.ts:\d+|node:internal/)
    }
  })

  it("a chunked body (Transfer-Encoding, no Content-Length) is read as any other, within the limit", async () => {
    const { pathname } = new URL((await metadataOf(world)).token_endpoint)
    const answer = await raw(world, {
      method: "POST",
      path: pathname,
      headers: { host: new URL(world.origin).host, "content-type": "application/x-www-form-urlencoded", "transfer-encoding": "chunked", authorization: `Basic ${Buffer.from(`worker:${worker.secret}`).toString("base64")}` },
      chunks: ["grant_type=client_credentials", `&scope=tools%3Aread&resource=${encodeURIComponent(mcpResource)}`],
    })
    expect(answer.status, answer.body).toBe(200)
    expect(JSON.parse(answer.body).access_token).toBeTypeOf("string")
    const big = await raw(world, {
      method: "POST",
      path: pathname,
      headers: { host: new URL(world.origin).host, "content-type": "application/x-www-form-urlencoded", "transfer-encoding": "chunked" },
      chunks: Array.from({ length: 10 }, () => `pad=${"a".repeat(10 * 1024)}&`),
    })
    expect(big.status).toBe(413)
  })

  it("a second Host header naming another site changes no URL the server names", async () => {
    const answer = await raw(world, { path: "/auth/oauth/.well-known/openid-configuration", headers: ["host", new URL(world.origin).host, "host", "evil.example"] })
    expect(answer.body).not.toContain("evil.example")
    if (answer.status === 200) expect(JSON.parse(answer.body).issuer).toBe(world.issuer)
  })

  it("HEAD of discovery answers 200 with no body", async () => {
    const head = await fetch(`${world.issuer}/.well-known/openid-configuration`, { method: "HEAD" })
    expect(head.status).toBe(200)
    expect(await head.text()).toBe("")
  })

  it.each(["/auth/oauth/../csrf", "/auth/oauth/%2e%2e/csrf", "/auth/oauth/%2e%2e%2fcsrf", "/auth/oauth/..%2f..%2fauth%2fcsrf", "/auth/oauth/interaction/..%2f..%2fcsrf", "/auth/oauth//interaction", "/auth/oauth/%69nteraction"])(
    "the path %s reaches no endpoint it does not name, and answers without a stack",
    async (path) => {
      const answer = await raw(world, { path, headers: { host: new URL(world.origin).host } })
      expect(answer.status).not.toBe(500)
      expect(answer.body).not.toMatch(/\bat .*\(|\.ts:\d+|node:internal/)
    },
  )
})

describe("AUTH_URL with trustHost: no header changes the issuer or the cookies' names", () => {
  let pinned: World
  beforeAll(async () => {
    pinned = await startWorld()
    vi.stubEnv("AUTH_URL", pinned.origin)
    try {
      await fetch(`${pinned.origin}/auth/csrf`)
    } finally {
      vi.unstubAllEnvs()
    }
  })
  afterAll(() => pinned?.close())

  it.each<Record<string, string>>([{ "x-forwarded-proto": "https" }, { "x-forwarded-proto": "https", "x-forwarded-host": "evil.example" }, { forwarded: "proto=https;host=evil.example" }, { "x-forwarded-prefix": "/evil" }])(
    "an authorization request with %o: the interaction cookie is sesame.oauth.interaction for the real path, the redirect the real origin",
    async (headers) => {
      const started = await authorizationRequest(pinned, reports)
      const answer = await rawGet(pinned, `${started.url.pathname}${started.url.search}`, { host: new URL(pinned.origin).host, ...headers })
      expect(answer.status).toBe(303)
      const cookies = [answer.headers["set-cookie"] ?? []].flat() as string[]
      expect(cookies.length).toBeGreaterThan(0)
      for (const line of cookies) {
        expect(line).toMatch(/^sesame\.oauth\.(interaction|resume)(\.sig)?=/)
        expect(line).toMatch(/path=\/auth\/oauth\//i)
        expect(line.toLowerCase()).not.toContain("domain=")
      }
      expect(new URL(String(answer.headers.location)).origin).toBe(pinned.origin)
    },
  )
})

describe("trustHost without AUTH_URL (development): a loopback alias in X-Forwarded-Host", () => {
  it("names no second issuer", async () => {
    const { port } = new URL(world.origin)
    const answer = await rawGet(world, "/auth/oauth/.well-known/openid-configuration", { host: new URL(world.origin).host, "x-forwarded-host": `localhost:${port}` })
    // A forwarded host other than the request's own names no issuer without AUTH_URL (core http/issuer.ts).
    expect(answer.status === 200 ? JSON.parse(answer.body).issuer : world.issuer).toBe(world.issuer)
  })
})

describe("dynamic registration: what a registration may claim besides what the policy looks at", () => {
  let dyn: World
  beforeAll(async () => {
    dyn = await startWorld({
      ...defaultOptions,
      // The registration test's policy (and an MCP server's usual one): loopback redirect URIs only.
      dynamicRegistration: { allow: (metadata) => Array.isArray(metadata.redirect_uris) && metadata.redirect_uris.every((uri) => typeof uri === "string" && uri.startsWith("http://127.0.0.1:")) },
    })
  })
  afterAll(() => dyn?.close())
  const register = (metadata: Record<string, unknown>) =>
    fetch(`${dyn.issuer}/reg`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(metadata) })

  it("a client named with markup shows it as text on the consent page", async () => {
    const response = await register({ redirect_uris: ["http://127.0.0.1:9913/cb"], client_name: markup, token_endpoint_auth_method: "none", application_type: "native" })
    expect(response.status).toBe(201)
    const { client_id } = (await response.json()) as { client_id: string }
    const user = await dyn.user("dyn-xss@example.com")
    const { url } = await authorizationRequest(dyn, { clientId: client_id, redirectUri: "http://127.0.0.1:9913/cb" }, { scope: "openid" })
    const steps = await walk(user, url.href)
    expect(isConsentPage(steps.html)).toBe(true)
    expect(hasRawMarkup(steps.html)).toBe(false)
  })

  it("a registration cannot give itself the client credentials grant (tokens for the app's APIs in nobody's name, no consent)", async () => {
    const response = await register({ redirect_uris: ["http://127.0.0.1:9914/cb"], client_name: "Agent", grant_types: ["authorization_code", "client_credentials"], token_endpoint_auth_method: "client_secret_basic", application_type: "native", scope: "tools:read tools:write" })
    const body = (await response.json()) as { client_id?: string; client_secret?: string }
    let machine: { status: number; body: Record<string, any> } = { status: 0, body: {} }
    let acceptedByMcp = false
    if (response.status === 201 && body.client_secret) {
      machine = await token(dyn, { clientId: body.client_id!, secret: body.client_secret }, { grant_type: "client_credentials", scope: "tools:read tools:write", resource: mcpResource })
      if (typeof machine.body.access_token === "string") {
        const guard = protectedResource({ resource: mcpResource, authorizationServer: dyn.issuer })
        const access = await guard.verify(new Request("https://mcp.example/mcp", { headers: { authorization: `Bearer ${machine.body.access_token}` } }), ["tools:write"])
        acceptedByMcp = access.ok
      }
    }
    expect.soft(acceptedByMcp, "the MCP server's guard accepts the token, tools:write included").toBe(false)
    // No registration may claim the client credentials grant (registration.ts), whatever the app's `allow` says.
    expect(machine.body.access_token, `registration ${response.status} ${JSON.stringify(body).slice(0, 200)}; token ${JSON.stringify(machine.body).slice(0, 200)}`).toBeUndefined()
  })

  it("a registration's jwks_uri is not fetched on a client's say (server-side request to an address the app never allowed)", async () => {
    let hits = 0
    const target = createServer((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" })
      res.end(JSON.stringify({ keys: [] }))
    })
    target.on("connection", () => void hits++)
    await new Promise<void>((resolve) => target.listen(0, "127.0.0.1", resolve))
    try {
      const jwksUri = `http://127.0.0.1:${(target.address() as AddressInfo).port}/internal/jwks`
      const response = await register({ redirect_uris: ["http://127.0.0.1:9915/cb"], client_name: "Keys", token_endpoint_auth_method: "private_key_jwt", jwks_uri: jwksUri, application_type: "native" })
      const body = (await response.json()) as { client_id?: string }
      if (response.status === 201) {
        // A well-formed assertion, signed with a key the server must look up at the jwks_uri.
        const { privateKey } = await generateKeyPair("ES256")
        const tokenEndpoint = (await metadataOf(dyn)).token_endpoint
        const assertion = await new SignJWT({}).setProtectedHeader({ alg: "ES256", kid: "k1" }).setIssuer(body.client_id!).setSubject(body.client_id!).setAudience(tokenEndpoint).setJti(crypto.randomUUID()).setIssuedAt().setExpirationTime("1m").sign(privateKey)
        await fetch(tokenEndpoint, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({ grant_type: "authorization_code", code: "x", client_id: body.client_id!, client_assertion_type: "urn:ietf:params:oauth:client-assertion-type:jwt-bearer", client_assertion: assertion }),
        })
      }
      // Refused at registration: the server fetches no URL a registrant names.
      expect(response.status).toBe(400)
      expect(hits, "requests the server made to the registrant's jwks_uri").toBe(0)
    } finally {
      target.close()
    }
  })
})
