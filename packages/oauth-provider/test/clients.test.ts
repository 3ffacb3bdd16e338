/**
 * Apps registered by the app's users and organizations (`createOAuthClient` and the other server
 * functions, the page `<basePath>/oauth/clients`). The attacks first: someone else's app, an
 * organization's app for a member who may not manage it, a configured client, another
 * organization: each refused exactly as an id that exists nowhere. Then the flows: a registered
 * app completes the code flow with openid-client, its secret is never in the store as it is, a new
 * secret retires the old one, and deleting an app ends its tokens and the consents to it.
 */
import * as client from "openid-client"
import { organizations, type InvitationMessage } from "@sesame/organizations"
import { clientModel, consentModel, OAuthClientError, oauthProvider, recordModel } from "@sesame/oauth-provider"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ownedClientsOnly } from "../src/clients.js"
import { introspect, refresh, userinfoStatus } from "./attack-helpers.js"
import { Browser, clientOf, defaultOptions, startWorld, webSecret, type World } from "./world.js"

type User = Browser & { id: string }

const sent: InvitationMessage[] = []
const orgs = organizations({ invitations: { send: (message) => void sent.push(message) } })
let world: World
/** Ada owns Acme, where Bob is an admin and Cy a member; Dan owns Globex. Eve uses the apps. */
let ada: User, bob: User, cy: User, dan: User, eve: User
let acme: string, globex: string

/** An id of the form the module makes, which no app has. */
const nobodysId = `sesame_${"A".repeat(22)}`

beforeAll(async () => {
  world = await startWorld({ ...defaultOptions, organizations: orgs }, { plugins: [orgs] })
  ada = await world.user("ada@example.com")
  bob = await world.user("bob@example.com")
  cy = await world.user("cy@example.com")
  dan = await world.user("dan@example.com")
  eve = await world.user("eve@example.com")
  acme = ((await ada.api("createOrganization", { name: "Acme" })) as { id: string }).id
  globex = ((await dan.api("createOrganization", { name: "Globex" })) as { id: string }).id
  for (const [who, roles] of [
    [bob, ["admin"]],
    [cy, ["member"]],
  ] as const) {
    await ada.api("inviteMember", acme, who.email, roles)
    await who.api("acceptInvitation", new URL(sent.at(-1)!.url).searchParams.get("token"))
  }
})
afterAll(() => world.close())

/** `promise`'s refusal as `code: message`: it must be an `OAuthClientError`. */
async function refusal(promise: Promise<unknown>): Promise<string> {
  const error: unknown = await promise.then(
    () => null,
    (e: unknown) => e,
  )
  expect(error, "refused").toBeInstanceOf(OAuthClientError)
  const { code, message } = error as OAuthClientError
  return `${code}: ${message}`
}

const app = (name: string, extra: Record<string, unknown> = {}) => ({ name, redirectUris: [`https://${name.toLowerCase().replace(/\W+/g, "-")}.example/callback`], ...extra })

/** The code flow for `user` at the app `clientId` (openid-client), consent included: its tokens. */
async function signInAt(user: User, clientId: string, secret: string | undefined, redirectUri: string, name: string) {
  const config = await clientOf(world, clientId, secret)
  const verifier = client.randomPKCECodeVerifier()
  const state = client.randomState()
  const url = client.buildAuthorizationUrl(config, { redirect_uri: redirectUri, scope: "openid email offline_access", code_challenge: await client.calculatePKCECodeChallenge(verifier), code_challenge_method: "S256", state, prompt: "consent" })
  let step = await user.follow(url.href, redirectUri)
  // A registered app is never first party: the user is asked, and sees the name it was given.
  expect(step.html).toContain(`Allow ${name}?`)
  step = await user.decide(step.html!, "allow", redirectUri)
  expect(step.url.startsWith(redirectUri), step.html).toBe(true)
  return { config, tokens: await client.authorizationCodeGrant(config, new URL(step.url), { pkceCodeVerifier: verifier, expectedState: state }) }
}

/** Every row of the module's records and apps, as one string: what a copy of the database holds. */
async function storeRows(): Promise<string> {
  const store = world.adapter.store!
  return JSON.stringify([await store.findMany(recordModel), await store.findMany(clientModel)])
}

describe("ownership: refused exactly as an app that does not exist", () => {
  it("another user cannot see, rotate or delete a user's app", async () => {
    const { clientId } = await ada.api("createOAuthClient", app("Ada Notes"))
    const nothing = await refusal(bob.api("rotateOAuthClientSecret", nobodysId))
    expect(nothing).toMatch(/^NotFound: /)
    expect(await refusal(bob.api("rotateOAuthClientSecret", clientId))).toBe(nothing)
    expect(await refusal(bob.api("deleteOAuthClient", clientId))).toBe(await refusal(bob.api("deleteOAuthClient", nobodysId)))
    expect((await bob.api("listOAuthClients")).map((c: { clientId: string }) => c.clientId)).not.toContain(clientId)
    expect((await ada.api("listOAuthClients")).map((c: { clientId: string }) => c.clientId)).toContain(clientId)
  })

  it("a member who may not update the organization cannot create, list, rotate or delete its apps", async () => {
    const { clientId } = await bob.api("createOAuthClient", app("Acme Portal", { organizationId: acme }))
    const noOrganization = await refusal(cy.api("listOAuthClients", { organizationId: "no-such-organization" }))
    expect(noOrganization).toMatch(/^NotFound: /)
    expect(await refusal(cy.api("listOAuthClients", { organizationId: acme }))).toBe(noOrganization)
    // Refused before the input is even read: nothing tells the member what a valid one would do.
    expect(await refusal(cy.api("createOAuthClient", { name: "", redirectUris: "nope", organizationId: acme }))).toBe(noOrganization)
    expect(await refusal(cy.api("createOAuthClient", app("Cy's", { organizationId: acme })))).toBe(noOrganization)
    expect(await refusal(cy.api("rotateOAuthClientSecret", clientId))).toBe(await refusal(cy.api("rotateOAuthClientSecret", nobodysId)))
    expect(await refusal(cy.api("deleteOAuthClient", clientId))).toBe(await refusal(cy.api("deleteOAuthClient", nobodysId)))
    // The organization's app is nobody's own: not even its creator's outside the organization.
    expect((await bob.api("listOAuthClients")).map((c: { clientId: string }) => c.clientId)).not.toContain(clientId)
    expect((await ada.api("listOAuthClients", { organizationId: acme })).map((c: { clientId: string }) => c.clientId)).toContain(clientId)
  })

  it("another organization's id is refused, for its apps too", async () => {
    const { clientId } = await dan.api("createOAuthClient", app("Globex Desk", { organizationId: globex }))
    const noOrganization = await refusal(ada.api("listOAuthClients", { organizationId: "no-such-organization" }))
    expect(await refusal(ada.api("listOAuthClients", { organizationId: globex }))).toBe(noOrganization)
    expect(await refusal(ada.api("createOAuthClient", app("Into Globex", { organizationId: globex })))).toBe(noOrganization)
    expect(await refusal(ada.api("rotateOAuthClientSecret", clientId))).toBe(await refusal(ada.api("rotateOAuthClientSecret", nobodysId)))
    expect(await refusal(ada.api("deleteOAuthClient", clientId))).toBe(await refusal(ada.api("deleteOAuthClient", nobodysId)))
    expect((await dan.api("listOAuthClients", { organizationId: globex })).map((c: { clientId: string }) => c.clientId)).toEqual([clientId])
  })

  it("a configured client's id is refused, and the client goes on working", async () => {
    for (const name of ["rotateOAuthClientSecret", "deleteOAuthClient"]) {
      expect(await refusal(ada.api(name, "reports"))).toBe(await refusal(ada.api(name, nobodysId)))
    }
    // Its secret still authenticates it.
    expect(await introspect(world, { clientId: "reports", secret: webSecret }, "no-such-token")).toMatchObject({ active: false })
  })

  it("no one signed in: refused, and the page sends the browser to sign in", async () => {
    const stranger = new Browser(world)
    expect(await refusal(stranger.api("listOAuthClients"))).toMatch(/^NotSignedIn: /)
    expect(await refusal(stranger.api("createOAuthClient", app("Anon")))).toMatch(/^NotSignedIn: /)
    const page = await stranger.fetch(`${world.origin}/auth/oauth/clients`)
    expect(page.status).toBe(302)
    expect(new URL(page.headers.get("location")!).pathname).toBe("/auth/signin")
  })

  it("through the page: another user's app is not found there, and a POST without the CSRF token does nothing", async () => {
    const { clientId } = await ada.api("createOAuthClient", app("Ada Sheets"))
    const page = await (await bob.fetch(`${world.origin}/auth/oauth/clients`)).text()
    const form = hiddenFields(page, "create")
    for (const extra of [{}, { confirm: "yes" }] as Record<string, string>[]) {
      const answer = await bob.fetch(`${world.origin}/auth/oauth/clients/act`, { form: { ...form, action: "delete", clientId, ...extra } })
      expect(answer.status).toBe(302)
      expect(new URL(answer.headers.get("location")!).searchParams.get("error")).toBe("NotFound")
    }
    // Without the CSRF token (a form another site made the owner's browser post), core refuses it.
    const forged = await ada.fetch(`${world.origin}/auth/oauth/clients/act`, { form: { action: "delete", clientId, confirm: "yes" } })
    expect(new URL(forged.headers.get("location")!).searchParams.get("error")).toBe("MissingCSRF")
    expect((await ada.api("listOAuthClients")).map((c: { clientId: string }) => c.clientId)).toContain(clientId)
    // A member who may not manage the organization reads "not found" on its page.
    const orgPage = await cy.fetch(`${world.origin}/auth/oauth/clients?organizationId=${acme}`)
    expect(orgPage.status).toBe(404)
    expect(await orgPage.text()).toContain("No such app or organization, or you may not manage its apps.")
  })
})

describe("what a registered app may be", () => {
  it("refuses bad input as InvalidInput, checked by oidc-provider too, and stores nothing", async () => {
    const before = await world.adapter.store!.count(clientModel)
    const bad: Record<string, unknown>[] = [
      { name: "", redirectUris: ["https://x.example/cb"] },
      { name: "x".repeat(101), redirectUris: ["https://x.example/cb"] },
      { name: "No URIs", redirectUris: [] },
      { name: "Not a list", redirectUris: "https://x.example/cb" },
      { name: "Plain http", redirectUris: ["http://x.example/cb"] },
      { name: "Fragment", redirectUris: ["https://x.example/cb#here"] },
      { name: "Script", redirectUris: ["javascript:alert(1)"] },
      { name: "Relative", redirectUris: ["/cb"] },
      { name: "Machine", redirectUris: ["https://x.example/cb"], grantTypes: ["client_credentials"] },
      { name: "Implicit", redirectUris: ["https://x.example/cb"], grantTypes: ["implicit"] },
      { name: "Public?", redirectUris: ["https://x.example/cb"], public: "yes" },
    ]
    for (const input of bad) expect(await refusal(ada.api("createOAuthClient", input)), JSON.stringify(input)).toMatch(/^InvalidInput: /)
    expect(await world.adapter.store!.count(clientModel)).toBe(before)
  })

  it("the organizations option must be the organizations module", () => {
    expect(() => oauthProvider({ organizations: {} as never })).toThrow(/`organizations` must be the organizations module/)
    expect(() => oauthProvider({ organizations: orgs })).not.toThrow()
  })

  it("without the organizations option, organizationId is refused", async () => {
    const alone = await startWorld()
    try {
      const fay = await alone.user("fay@example.com")
      expect(await refusal(fay.api("createOAuthClient", app("Fay", { organizationId: "acme" })))).toMatch(/^InvalidInput: .*organizations/)
      expect(await refusal(fay.api("listOAuthClients", { organizationId: "acme" }))).toMatch(/^InvalidInput: /)
    } finally {
      await alone.close()
    }
  })
})

describe("a user's app", () => {
  it("signs people in with the code flow; its secret is shown once and stored sealed", async () => {
    const redirectUri = "https://ada-reports.example/callback"
    const created = await ada.api("createOAuthClient", { name: "Ada Reports", redirectUris: [redirectUri] })
    expect(created.clientId).toMatch(/^sesame_[A-Za-z0-9_-]{22}$/)
    expect(created.clientSecret).toMatch(/^[A-Za-z0-9_-]{43}$/)
    const { config, tokens } = await signInAt(eve, created.clientId, created.clientSecret, redirectUri, "Ada Reports")
    expect(tokens.claims()).toMatchObject({ sub: eve.id, aud: created.clientId, iss: world.issuer })
    expect(await client.fetchUserInfo(config, tokens.access_token, eve.id)).toMatchObject({ email: "eve@example.com" })

    const listed = (await ada.api("listOAuthClients")).find((c: { clientId: string }) => c.clientId === created.clientId)
    expect(listed).toMatchObject({ name: "Ada Reports", redirectUris: [redirectUri], public: false, organizationId: null })
    expect(listed.createdAt).toBeInstanceOf(Date)
    expect(JSON.stringify(await ada.api("listOAuthClients"))).not.toContain(created.clientSecret)
    expect(await storeRows()).not.toContain(created.clientSecret)
  })

  it("a public app (a loopback redirect URI: a native app) has no secret and signs in with PKCE alone", async () => {
    const redirectUri = "http://127.0.0.1:7777/callback"
    const created = await ada.api("createOAuthClient", { name: "Ada CLI", redirectUris: [redirectUri], public: true })
    expect(created.clientSecret).toBeUndefined()
    const { tokens } = await signInAt(eve, created.clientId, undefined, redirectUri, "Ada CLI")
    expect(tokens.claims()!.sub).toBe(eve.id)
    expect(await refusal(ada.api("rotateOAuthClientSecret", created.clientId))).toMatch(/^InvalidInput: /)
  })

  it("a new secret: the old one is refused as invalid_client, the new one works", async () => {
    const redirectUri = "https://ada-rotate.example/callback"
    const created = await ada.api("createOAuthClient", { name: "Ada Rotate", redirectUris: [redirectUri] })
    const { tokens } = await signInAt(eve, created.clientId, created.clientSecret, redirectUri, "Ada Rotate")
    const rotated = await ada.api("rotateOAuthClientSecret", created.clientId)
    expect(rotated).toMatchObject({ clientId: created.clientId, name: "Ada Rotate" })
    expect(rotated.clientSecret).not.toBe(created.clientSecret)
    const old = await refresh(world, { clientId: created.clientId, secret: created.clientSecret }, tokens.refresh_token!)
    expect(old).toMatchObject({ status: 401, body: { error: "invalid_client" } })
    const renewed = await refresh(world, { clientId: created.clientId, secret: rotated.clientSecret }, tokens.refresh_token!)
    expect(renewed.status).toBe(200)
    expect(await storeRows()).not.toContain(rotated.clientSecret)
  })

  it("deleting it ends its tokens and the consents to it", async () => {
    const redirectUri = "https://ada-gone.example/callback"
    const created = await ada.api("createOAuthClient", { name: "Ada Gone", redirectUris: [redirectUri] })
    const { tokens } = await signInAt(eve, created.clientId, created.clientSecret, redirectUri, "Ada Gone")
    const store = world.adapter.store!
    expect(await store.count(consentModel, { clientId: created.clientId })).toBe(1)
    expect(await userinfoStatus(world, tokens.access_token)).toBe(200)

    await ada.api("deleteOAuthClient", created.clientId)
    expect(await userinfoStatus(world, tokens.access_token)).toBe(401)
    expect((await refresh(world, { clientId: created.clientId, secret: created.clientSecret }, tokens.refresh_token!)).status).toBe(401)
    expect(await store.count(consentModel, { clientId: created.clientId })).toBe(0)
    expect(await store.findOne(clientModel, { clientId: created.clientId })).toBeNull()
    expect((await eve.api("oauthConsents")).map((c: { clientId: string }) => c.clientId)).not.toContain(created.clientId)
    // Gone for its owner too: deleting it again is "not found".
    expect(await refusal(ada.api("deleteOAuthClient", created.clientId))).toMatch(/^NotFound: /)
  })
})

describe("an organization's app", () => {
  it("is managed by whoever may update the organization, and signs people in", async () => {
    const redirectUri = "https://acme-wiki.example/callback"
    const created = await bob.api("createOAuthClient", { name: "Acme Wiki", redirectUris: [redirectUri], organizationId: acme })
    expect((await ada.api("listOAuthClients", { organizationId: acme })).find((c: { clientId: string }) => c.clientId === created.clientId)).toMatchObject({ organizationId: acme, name: "Acme Wiki" })
    // The owner rotates the secret an admin made; the new one signs in.
    const rotated = await ada.api("rotateOAuthClientSecret", created.clientId)
    const { tokens } = await signInAt(eve, created.clientId, rotated.clientSecret, redirectUri, "Acme Wiki")
    expect(tokens.claims()!.sub).toBe(eve.id)
    await bob.api("deleteOAuthClient", created.clientId)
    expect(await userinfoStatus(world, tokens.access_token)).toBe(401)
  })
})

/** The hidden fields of the page's form whose `action` is `action`. */
function hiddenFields(html: string, action: string): Record<string, string> {
  const form = [...html.matchAll(/<form[^>]*>([\s\S]*?)<\/form>/g)].map((m) => m[1]!).find((f) => f.includes(`name="action" value="${action}"`))
  if (!form) throw new Error(`no "${action}" form on the page:\n${html}`)
  return Object.fromEntries([...form.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((m) => [m[1]!, m[2]!.replaceAll("&amp;", "&")]))
}

/** The value of the read-only field `id` of a page. */
const fieldValue = (html: string, id: string) => new RegExp(`<input id="${id}" readonly value="([^"]*)"`).exec(html)?.[1]

describe("the page", () => {
  it("lists the apps, registers one and shows its secret once (never in a URL), gives a new secret, deletes", async () => {
    const gus = await world.user("gus@example.com")
    const listUrl = `${world.origin}/auth/oauth/clients`
    const empty = await gus.fetch(listUrl)
    expect(empty.status).toBe(200)
    const emptyHtml = await empty.text()
    expect(emptyHtml).toContain("<title>Apps you registered")
    expect(emptyHtml).toContain("No app is registered yet.")
    expect(emptyHtml).not.toContain("<script")
    for (const id of ["client-name", "client-redirect-uris", "client-public"]) expect(emptyHtml).toContain(`<label for="${id}">`)

    // Refused input: the form again, filled in, with why.
    const refused = await gus.fetch(`${world.origin}/auth/oauth/clients/act`, { form: { ...hiddenFields(emptyHtml, "create"), name: "Gus Board", redirectUris: "http://gus.example/cb" } })
    expect(refused.status).toBe(400)
    const refusedHtml = await refused.text()
    expect(refusedHtml).toContain('role="alert"')
    expect(refusedHtml).toContain('value="Gus Board"')
    expect(refusedHtml).toContain(">http://gus.example/cb</textarea>")

    const answer = await gus.fetch(`${world.origin}/auth/oauth/clients/act`, {
      form: { ...hiddenFields(emptyHtml, "create"), name: "Gus Board", redirectUris: "https://gus-board.example/cb\r\nhttps://gus-board.example/cb2\r\n" },
    })
    // The secret is in this answer's page alone: no redirect carries it.
    expect(answer.status).toBe(200)
    expect(answer.headers.get("location")).toBeNull()
    expect(answer.headers.get("cache-control")).toContain("no-store")
    const createdHtml = await answer.text()
    expect(createdHtml).toContain("Gus Board is registered")
    const clientId = fieldValue(createdHtml, "client-id")!
    const secret = fieldValue(createdHtml, "client-secret")!
    expect(clientId).toMatch(/^sesame_/)
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect([...createdHtml.matchAll(/(?:href|action)="([^"]*)"/g)].map((m) => m[1]).join(" ")).not.toContain(secret)

    const listed = await (await gus.fetch(listUrl)).text()
    expect(listed).toContain("Gus Board")
    expect(listed).toContain(clientId)
    expect(listed).toContain("https://gus-board.example/cb2")
    expect(listed).not.toContain(secret)
    const [app] = await gus.api("listOAuthClients")
    expect(app).toMatchObject({ clientId, name: "Gus Board", redirectUris: ["https://gus-board.example/cb", "https://gus-board.example/cb2"] })

    // A new secret breaks the app where it runs: asked once more first.
    const askRotate = await gus.fetch(`${world.origin}/auth/oauth/clients/act`, { form: hiddenFields(listed, "rotate") })
    expect(askRotate.status).toBe(200)
    const askRotateHtml = await askRotate.text()
    expect(askRotateHtml).toContain("Give Gus Board a new secret?")
    expect(await introspect(world, { clientId, secret }, "no-such-token")).toMatchObject({ active: false })
    const rotatedAnswer = await gus.fetch(`${world.origin}/auth/oauth/clients/act`, { form: hiddenFields(askRotateHtml, "rotate") })
    expect(rotatedAnswer.status).toBe(200)
    const rotatedHtml = await rotatedAnswer.text()
    expect(rotatedHtml).toContain("A new secret for Gus Board")
    const newSecret = fieldValue(rotatedHtml, "client-secret")!
    expect(newSecret).not.toBe(secret)
    expect(await introspect(world, { clientId, secret: newSecret }, "no-such-token")).toMatchObject({ active: false })

    const askDelete = await gus.fetch(`${world.origin}/auth/oauth/clients/act`, { form: hiddenFields(listed, "delete") })
    const askDeleteHtml = await askDelete.text()
    expect(askDeleteHtml).toContain("Delete Gus Board?")
    expect(await gus.api("listOAuthClients")).toHaveLength(1)
    const deleted = await gus.fetch(`${world.origin}/auth/oauth/clients/act`, { form: hiddenFields(askDeleteHtml, "delete") })
    expect(deleted.status).toBe(302)
    const back = new URL(deleted.headers.get("location")!)
    expect(back.searchParams.get("done")).toBe("delete")
    const after = await (await gus.fetch(back.href)).text()
    expect(after).toContain("The app was deleted")
    expect(after).not.toContain(clientId)
    expect(await gus.api("listOAuthClients")).toEqual([])
  })

  it("an organization's page: its admins register a public app there", async () => {
    const url = `${world.origin}/auth/oauth/clients?organizationId=${acme}`
    const page = await bob.fetch(url)
    expect(page.status).toBe(200)
    const html = await page.text()
    expect(html).toContain("<title>Your organization&#39;s apps")
    const fields = hiddenFields(html, "create")
    expect(fields.organizationId).toBe(acme)
    const answer = await bob.fetch(`${world.origin}/auth/oauth/clients/act`, { form: { ...fields, name: "Acme Mobile", redirectUris: "com.acme.mobile:/callback", public: "true" } })
    expect(answer.status).toBe(200)
    const created = await answer.text()
    expect(created).toContain("This app is public")
    expect(fieldValue(created, "client-secret")).toBeUndefined()
    const listed = (await ada.api("listOAuthClients", { organizationId: acme })).find((c: { name: string }) => c.name === "Acme Mobile")
    expect(listed).toMatchObject({ public: true, organizationId: acme, redirectUris: ["com.acme.mobile:/callback"] })
  })
})

describe("a deleted owner", () => {
  it("takes the ownership row along; the ownership gate then finds no client", async () => {
    const hal = await world.user("hal@example.com")
    const { clientId } = await hal.api("createOAuthClient", app("Hal Tool"))
    const store = world.adapter.store!
    const records = { find: async (id: string) => ({ client_id: id }) } as never
    const gate = ownedClientsOnly(records, store)
    expect(await gate.find(clientId)).toEqual({ client_id: clientId })
    // Not an id of the module's form (a dynamically registered client's): found as the adapter finds it.
    expect(await gate.find("dynamic-client")).toEqual({ client_id: "dynamic-client" })
    await world.adapter.deleteUser!(hal.id)
    expect(await store.findOne(clientModel, { clientId })).toBeNull()
    expect(await gate.find(clientId)).toBeUndefined()
  })
})
