/**
 * The account page's linked accounts, with real sign-ins at the dev IdP: linking another provider
 * from the page (a signed-in sign-in), unlinking while another way in remains, and the refusals:
 * the last way in, another user's account, a stale sign-in.
 */
import type { DevIdp } from "@sesame/dev-idp"
import Passkey from "@sesame/core/providers/passkey"
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest"
import { CookieJar } from "../helpers.js"
import { client, oidc, signIn, startIdp } from "../oauth/harness.js"
import { accountUrl, app, back, hiddenValues, later, page, post, section, stepUp } from "./harness.js"

let idp: DevIdp
beforeAll(async () => {
  idp = await startIdp({ clients: [client("dev"), client("work")] })
})
afterAll(() => idp.close())
afterEach(() => {
  vi.useRealTimers()
})

function federated() {
  return app({ providers: [Passkey(), oidc(idp), oidc(idp, { id: "work", name: "Work IdP", clientId: "work" })] })
}

describe("linked accounts", () => {
  it("lists the user's provider accounts, links another from the page, and unlinks one only while another way in remains", async () => {
    const a = federated()
    const jar = new CookieJar()
    expect((await signIn(a.config, jar, "dev")).status).toBe(302)
    const user = [...a.adapter.tables.users.values()][0]!

    let body = section(await page(a, jar), "linkedAccounts")
    expect(body).toContain("Unlink Dev IdP")
    expect(body).toContain(`action="${accountUrl.replace("/account", "/signin/work")}"`)
    expect(body).not.toContain("Link Dev IdP")
    const callbackUrl = hiddenValues(body, "callbackUrl")[0]!
    expect(callbackUrl).toBe(`${accountUrl}#linkedAccounts`)

    // The only way in: refused, with the reason, and nothing removed.
    expect((await post(a, jar, "unlink", { provider: "dev", providerAccountId: "alice" })).location).toBe(back("linkedAccounts", { error: "LastSignInMethod" }))
    expect(section(await page(a, jar, "?error=LastSignInMethod&in=linkedAccounts"), "linkedAccounts")).toContain("That is your last way to sign in")
    expect(await a.adapter.getAccount("alice", "dev")).not.toBeNull()

    // The page's link button: a sign-in with Work IdP while signed in, back to the section.
    const linked = await signIn(a.config, jar, "work", { fields: { callbackUrl } })
    expect(linked.headers.get("location")).toBe(callbackUrl)
    expect((await a.adapter.getAccount("alice", "work"))?.userId).toBe(user.id)
    body = section(await page(a, jar), "linkedAccounts")
    expect(body).toContain("Unlink Work IdP")

    expect((await post(a, jar, "unlink", { provider: "dev", providerAccountId: "alice" })).location).toBe(back("linkedAccounts", { notice: "unlinked" }))
    expect(await a.adapter.getAccount("alice", "dev")).toBeNull()
    expect(section(await page(a, jar), "linkedAccounts")).toContain("Link Dev IdP")
  })

  it("refuses another user's account and a stale sign-in", async () => {
    const a = federated()
    const jar = new CookieJar()
    await signIn(a.config, jar, "dev")
    await signIn(a.config, jar, "work")
    const eve = await a.adapter.createUser({ id: crypto.randomUUID(), email: "eve@example.com", name: "Eve", emailVerified: new Date() })
    await a.adapter.linkAccount({ userId: eve.id, provider: "dev", providerAccountId: "eve", type: "oidc" })
    await a.adapter.linkAccount({ userId: eve.id, provider: "work", providerAccountId: "eve", type: "oidc" })

    expect((await post(a, jar, "unlink", { provider: "dev", providerAccountId: "eve" })).location).toBe(back("linkedAccounts", { error: "NotFound" }))
    expect(await a.adapter.getAccount("eve", "dev")).not.toBeNull()

    vi.useFakeTimers({ toFake: ["Date"] })
    vi.setSystemTime(later())
    expect((await post(a, jar, "unlink", { provider: "dev", providerAccountId: "alice" })).location).toBe(stepUp("linkedAccounts"))
    expect(await a.adapter.getAccount("alice", "dev")).not.toBeNull()
  })
})
