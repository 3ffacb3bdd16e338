/**
 * The built-in pages through `Auth()`: the switcher and create form, one organization's members,
 * roles and invitations, the invitations received; each form's action beside the attack on it
 * (another organization's ids, a lower role, another user's invitation, a forged form), what the
 * pages show to whom, escaping, and the five languages. (browser.test.ts runs them in Chromium.)
 */
import { Auth } from "@sesame/core"
import { describe, expect, it } from "vitest"
import { acmeWithStaff, CookieJar, makeWorld, origin } from "./world.js"

type Browser = InstanceType<ReturnType<typeof makeWorld>["Browser"]>

/** A page: its status, its HTML, and the CSRF token of its forms. */
async function page(browser: Browser, path: string, query: Record<string, string> = {}, headers: Record<string, string> = {}) {
  const response = await browser.send(path, { query, headers })
  const body = await response.text()
  return { status: response.status, location: response.headers.get("location"), body, csrf: /name="csrfToken" value="([^"]+)"/.exec(body)?.[1] }
}

/** Posts a page's form (urlencoded, as a browser does) with `fields`; where it sends the browser. */
async function act(browser: Browser, fields: Record<string, string>, csrf?: string): Promise<URL> {
  const token = csrf ?? (await page(browser, "organization")).csrf!
  const response = await browser.send("organization/act", {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", origin, "sec-fetch-site": "same-origin" },
    body: new URLSearchParams({ csrfToken: token, ...fields }).toString(),
  })
  expect(response.status, await response.clone().text()).toBe(302)
  return new URL(response.headers.get("location")!)
}

describe("the switcher", () => {
  it("sends someone signed out to the sign-in page, and back here after", async () => {
    const w = makeWorld()
    const { status, location } = await page(new w.Browser(), "organization")
    expect(status).toBe(302)
    const to = new URL(location!)
    expect(to.pathname).toBe("/auth/signin")
    expect(to.searchParams.get("callbackUrl")).toBe(`${origin}/auth/organization`)
  })

  it("creates an organization from its form, lists it, and switches to it; the session says so", async () => {
    const w = makeWorld()
    const ada = await w.user("ada@example.com")
    expect((await page(ada, "organization")).body).toContain("You do not belong to any organization yet.")
    const created = await act(ada, { action: "create", name: "Acme <Tools>" })
    expect(created.pathname).toBe("/auth/organization")
    expect(created.searchParams.get("done")).toBe("create")
    const home = await page(ada, "organization", Object.fromEntries(created.searchParams))
    expect(home.body).toContain("The organization is created, and you are its owner.")
    // The name is text, never markup.
    expect(home.body).toContain("Acme &lt;Tools&gt;")
    expect(home.body).not.toContain("<Tools>")
    expect(home.body).toContain("Your roles: Owner")
    const id = /name="organizationId" value="([^"]+)"/.exec(home.body)![1]!
    expect(home.body).toContain("Switch to Acme &lt;Tools&gt;")

    expect((await act(ada, { action: "switch", organizationId: id })).searchParams.get("done")).toBe("switch")
    expect((await ada.session()).organization).toMatchObject({ id, name: "Acme <Tools>", roles: ["owner"] })
    const after = await page(ada, "organization")
    expect(after.body).toContain('<span class="current">Acme &lt;Tools&gt;</span>')
    expect(after.body).not.toContain("Switch to Acme")
  })

  it("cannot switch to an organization the user does not belong to (another's id): NotFound, the session unchanged", async () => {
    const { w, org } = await acmeWithStaff()
    const eve = await w.user("eve@example.com")
    const back = await act(eve, { action: "switch", organizationId: org.id })
    expect(back.searchParams.get("error")).toBe("NotFound")
    expect((await eve.session()).organization).toBeUndefined()
    expect((await page(eve, "organization", { error: "NotFound" })).body).toContain("There is no such organization, member or invitation for you.")
  })

  it("says only the outcomes it knows, in words: a planted value in the query is not shown", async () => {
    const w = makeWorld()
    const ada = await w.user("ada@example.com")
    const { body } = await page(ada, "organization", { error: "<script>alert(1)</script>", done: "pwned" })
    expect(body).not.toContain("alert(1)")
    expect(body).not.toContain("pwned")
    expect(body).not.toContain('class="alert"')
  })

  it("refuses a form without the CSRF token, and an action it does not know", async () => {
    const w = makeWorld()
    const ada = await w.user("ada@example.com")
    const forged = await ada.send("organization/act", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin },
      body: new URLSearchParams({ csrfToken: "forged", action: "create", name: "Forged" }).toString(),
    })
    expect(forged.headers.get("location")).toContain("error=MissingCSRF")
    expect((await ada.get("organization/list")).body).toEqual([])
    const csrf = (await page(ada, "organization")).csrf!
    const unknown = await ada.send("organization/act", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin },
      body: new URLSearchParams({ csrfToken: csrf, action: "delete" }).toString(),
    })
    expect(unknown.status).toBe(400)
  })
})

describe("one organization's page", () => {
  it("an owner sees every member with the roles they may give, the invitations sent, and the invite form", async () => {
    const { ada, org } = await acmeWithStaff()
    const { status, body } = await page(ada, "organization/manage", { organizationId: org.id })
    expect(status).toBe(200)
    expect(body).toContain("<title>Acme</title>")
    for (const who of ["Save the roles of bob", "Save the roles of cy", "Remove bob", "Remove cy"]) expect(body).toContain(who)
    // Not for herself: she leaves instead.
    expect(body).not.toContain("Remove ada")
    expect(body).toContain("Leave Acme")
    expect(body).toContain('name="role:owner"')
    expect(body).toContain('name="role:billing"')
    expect(body).toContain("Invite someone")
  })

  it("a plain member sees the members, but no control to change them or to invite", async () => {
    const { cy, org } = await acmeWithStaff()
    const { status, body } = await page(cy, "organization/manage", { organizationId: org.id })
    expect(status).toBe(200)
    expect(body).toContain("bob@example.com")
    expect(body).not.toContain("Save the roles")
    expect(body).not.toContain("Remove ")
    expect(body).not.toContain("Invite someone")
    expect(body).not.toContain("Invitations sent")
  })

  it("an admin is offered no owner role, and no control over the owner", async () => {
    const { bob, org } = await acmeWithStaff()
    const { body } = await page(bob, "organization/manage", { organizationId: org.id })
    expect(body).not.toContain('name="role:owner"')
    expect(body).not.toContain("Remove ada")
    expect(body).not.toContain("Save the roles of ada")
    expect(body).toContain("Save the roles of cy")
  })

  it("is NotFound to someone outside, with nothing of the organization", async () => {
    const { w, org } = await acmeWithStaff()
    const eve = await w.user("eve@example.com")
    const { status, body } = await page(eve, "organization/manage", { organizationId: org.id })
    expect(status).toBe(404)
    expect(body).not.toContain("Acme")
    expect(body).not.toContain("bob@example.com")
  })

  it("roles change through its form; a member's forged form for the same change is Forbidden, and changes nothing", async () => {
    const { ada, cy, org, cyId, bobId } = await acmeWithStaff()
    const forged = await act(cy, { action: "roles", organizationId: org.id, memberId: cyId, "role:admin": "on" })
    expect(forged.searchParams.get("error")).toBe("Forbidden")
    expect(forged.pathname).toBe("/auth/organization/manage")
    expect(forged.searchParams.get("organizationId")).toBe(org.id)
    const demote = await act(cy, { action: "remove", organizationId: org.id, memberId: bobId })
    expect(demote.searchParams.get("error")).toBe("Forbidden")

    const saved = await act(ada, { action: "roles", organizationId: org.id, memberId: cyId, "role:member": "on", "role:billing": "on" })
    expect(saved.searchParams.get("done")).toBe("roles")
    const members = (await ada.get("organization/members", { organizationId: org.id })).body as { id: string; roles: string[] }[]
    expect(members.find((m) => m.id === cyId)!.roles.sort()).toEqual(["billing", "member"])
  })

  it("another organization's member id through this organization's form is NotFound", async () => {
    const { w, ada, org } = await acmeWithStaff()
    const eve = await w.user("eve@example.com")
    const other = await w.organization(eve, "Globex")
    const eveMember = ((await eve.get("organization/members", { organizationId: other.id })).body as { id: string }[])[0]!.id
    const back = await act(ada, { action: "remove", organizationId: org.id, memberId: eveMember })
    expect(back.searchParams.get("error")).toBe("NotFound")
    expect((await eve.get("organization/members", { organizationId: other.id })).body).toHaveLength(1)
  })

  it("invites from its form; the invitation is listed, sent again and cancelled from there", async () => {
    const { w, ada, org } = await acmeWithStaff()
    const invited = await act(ada, { action: "invite", organizationId: org.id, email: "dee@example.com", "role:member": "on" })
    expect(invited.searchParams.get("done")).toBe("invite")
    expect(w.sent.at(-1)!.email).toBe("dee@example.com")
    const listed = await page(ada, "organization/manage", { organizationId: org.id })
    expect(listed.body).toContain("Send again to dee@example.com")
    const invitationId = /name="action" value="cancel"><input type="hidden" name="organizationId" value="[^"]+"><input type="hidden" name="invitationId" value="([^"]+)"/.exec(listed.body)![1]!
    expect((await act(ada, { action: "resend", organizationId: org.id, invitationId })).searchParams.get("done")).toBe("resend")
    expect((await act(ada, { action: "cancel", organizationId: org.id, invitationId })).searchParams.get("done")).toBe("cancel")
    expect((await page(ada, "organization/manage", { organizationId: org.id })).body).toContain("No invitation is waiting for an answer.")
  })
})

describe("the invitations received", () => {
  async function invitedDee() {
    const staff = await acmeWithStaff()
    const dee = await staff.w.user("dee@example.com")
    await act(staff.ada, { action: "invite", organizationId: staff.org.id, email: "dee@example.com", "role:member": "on" })
    const inbox = await page(dee, "organization/inbox")
    const invitationId = /name="action" value="accept"><input type="hidden" name="invitationId" value="([^"]+)"/.exec(inbox.body)?.[1]
    return { ...staff, dee, inbox, invitationId: invitationId! }
  }

  it("are listed for their invitee, with the organization's short name and who sent them, and joined from there", async () => {
    const { dee, inbox, invitationId, org } = await invitedDee()
    expect(inbox.body).toContain("Join Acme")
    // A look-alike "Acme" made by someone else would show another short name and another sender.
    expect(inbox.body).toContain(`<small>${org.slug}</small>`)
    expect(inbox.body).toContain("Invited by ada@example.com")
    const joined = await act(dee, { action: "accept", invitationId })
    expect(joined.searchParams.get("done")).toBe("accept")
    expect(joined.pathname).toBe("/auth/organization")
    expect(((await dee.get("organization/list")).body as { id: string }[]).map((o) => o.id)).toEqual([org.id])
    expect((await page(dee, "organization/inbox")).body).toContain("No invitation is waiting for you.")
  })

  it("another signed-in user cannot accept or decline it by its id; the invitee still can", async () => {
    const { w, dee, invitationId, org } = await invitedDee()
    const eve = await w.user("eve@example.com")
    expect((await page(eve, "organization/inbox")).body).not.toContain("Acme")
    expect((await act(eve, { action: "accept", invitationId })).searchParams.get("error")).toBe("InvitationInvalid")
    expect((await act(eve, { action: "decline", invitationId })).searchParams.get("error")).toBe("InvitationInvalid")
    expect((await eve.get("organization/list")).body).toEqual([])
    expect((await act(dee, { action: "accept", invitationId })).searchParams.get("done")).toBe("accept")
    expect(((await dee.get("organization/list")).body as { id: string }[]).map((o) => o.id)).toEqual([org.id])
  })

  it("an unproven address sees none and cannot accept by id", async () => {
    const { w, ada, org } = await acmeWithStaff()
    const dee = await w.user("dee@example.com", { verified: false })
    await act(ada, { action: "invite", organizationId: org.id, email: "dee@example.com", "role:member": "on" })
    expect((await page(dee, "organization/inbox")).body).toContain("No invitation is waiting for you.")
    const invitations = (await ada.get("organization/invitations", { organizationId: org.id })).body as { id: string }[]
    expect((await act(dee, { action: "accept", invitationId: invitations[0]!.id })).searchParams.get("error")).toBe("EmailUnverified")
    expect((await dee.get("organization/list")).body).toEqual([])
  })

  it("the same through the endpoint and the server function", async () => {
    const { w, dee, invitationId } = await invitedDee()
    const eve = await w.user("eve@example.com")
    expect(await eve.post("organization/invitations/received/accept", { invitationId })).toMatchObject({ status: 404, body: { error: "InvitationInvalid" } })
    await expect(eve.api("declineReceivedInvitation", invitationId)).rejects.toMatchObject({ code: "InvitationInvalid" })
    expect(await dee.post("organization/invitations/received/accept", { invitationId })).toMatchObject({ status: 200, body: { roles: ["member"] } })
  })
})

describe("languages", () => {
  const headings = { fr: "Vos organisations", de: "Ihre Organisationen", es: "Sus organizaciones", ja: "所属している組織", en: "Your organizations" }
  it.each(Object.entries(headings))("%s: the pages speak the visitor's language", async (lang, heading) => {
    const { ada, org } = await acmeWithStaff()
    const home = await page(ada, "organization", {}, { "accept-language": lang })
    expect(home.body).toContain(`<html lang="${lang}"`)
    expect(home.body).toContain(`<h1>${heading}</h1>`)
    const manage = await page(ada, "organization/manage", { organizationId: org.id }, { "accept-language": lang })
    expect(manage.body).toContain(`<html lang="${lang}"`)
  })
})

describe("where the pages are", () => {
  it("works under a base path that holds an /organization segment of its own", async () => {
    const w = makeWorld()
    const config = { ...w.config, basePath: "/organization/auth" }
    await w.adapter.createUser!({ id: crypto.randomUUID(), email: "ada@example.com", emailVerified: new Date() })
    const jar = new CookieJar()
    const call = async (path: string, init: RequestInit = {}) => {
      const response = await Auth(new Request(`${origin}/organization/auth/${path}`, { ...init, headers: { cookie: jar.header(), ...(init.headers as Record<string, string>) } }), config)
      jar.apply(response)
      return response
    }
    const { csrfToken } = (await (await call("csrf")).json()) as { csrfToken: string }
    await call("callback/credentials", { method: "POST", headers: { "content-type": "application/json", origin }, body: JSON.stringify({ csrfToken, email: "ada@example.com" }) })
    const body = await (await call("organization")).text()
    expect(body).toContain('action="/organization/auth/organization/act"')
    expect(body).toContain('href="/organization/auth/organization/inbox"')
    const out = await Auth(new Request(`${origin}/organization/auth/organization/inbox`), config)
    expect(new URL(out.headers.get("location")!).pathname).toBe("/organization/auth/signin")
  })

  it("a language tag of the app's that dates cannot be written in still shows the page, dates in English", async () => {
    const w = makeWorld()
    w.config.messages = { "fr-abc": { "organization.title.home": "Mes organisations" } }
    const ada = await w.user("ada@example.com")
    const org = await w.organization(ada, "Acme")
    await act(ada, { action: "invite", organizationId: org.id, email: "dee@example.com", "role:member": "on" })
    const manage = await page(ada, "organization/manage", { organizationId: org.id }, { "accept-language": "fr-abc" })
    expect(manage.status).toBe(200)
    expect(manage.body).toContain('<html lang="fr-abc"')
    expect(manage.body).toMatch(/valable jusqu&#39;au [A-Z][a-z]{2} \d{1,2}, \d{4}/)
  })
})
