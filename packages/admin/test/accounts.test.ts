/**
 * Creating a user, sending a password reset link, and what the other capabilities keep for a user
 * in an admin's view: the legitimate flows end to end (the created user sets a password through
 * the link and signs in with it), beside the attacks (a non-admin, an admin acting as someone
 * else, another admin as the target, a taken address in another case).
 */
import { describe, expect, it } from "vitest"
import type { PasswordEmailParams, SesameModule } from "@sesame/core"
import { bossAndPat, makeWorld, origin } from "./world.js"

const setUp = (options: Parameters<typeof makeWorld>[0] = {}) => bossAndPat({ password: {}, ...options })

/** The last reset link sent to `email`. */
function resetLink(mails: PasswordEmailParams[], email: string): URL {
  const mail = mails.filter((m) => m.kind === "reset-password" && m.to === email).at(-1)
  if (!mail) throw new Error(`no reset link for ${email}`)
  return new URL(mail.url)
}

/** Posts a form to `path` as the browser would. */
async function postForm(browser: ReturnType<ReturnType<typeof makeWorld>["browser"]>, path: string, form: Record<string, string>): Promise<Response> {
  return browser.send(path, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", origin },
    body: new URLSearchParams({ csrfToken: await browser.csrf(), ...form }).toString(),
  })
}

describe("creating a user", () => {
  it("creates them with a reset link, through which they set a password and sign in with it", async () => {
    const { admins, adapter, mails, security, boss, browser } = await setUp()
    const created = (await admins.api("createUser", { email: " New.Person@Example.com ", name: "New Person", emailVerified: true, sendPasswordReset: true })) as {
      user: { id: string; email: string }
      passwordReset: string
    }
    expect(created).toMatchObject({ user: { email: "new.person@example.com", name: "New Person", admin: false, suspended: false }, passwordReset: "sent" })
    const stored = await adapter.getUser!(created.user.id)
    expect(stored).toMatchObject({ email: "new.person@example.com", name: "New Person" })
    expect(stored!.emailVerified).toBeInstanceOf(Date)
    expect(security.filter((e) => e.type === "admin.user-created")).toMatchObject([{ userId: created.user.id, actorId: boss.id, details: { emailVerified: true } }])
    expect(security.filter((e) => e.type === "admin.password-reset-sent")).toMatchObject([{ userId: created.user.id, actorId: boss.id }])

    // The new user, in their own browser: the link, a password of their own, a sign-in with it.
    const link = resetLink(mails, "new.person@example.com")
    const newcomer = browser()
    const reset = await postForm(newcomer, "reset-password/password", { token: link.searchParams.get("token")!, email: link.searchParams.get("email")!, password: "a long pass phrase of mine" })
    expect(reset.headers.get("location")).toContain("notice=PasswordReset")
    const signIn = await postForm(newcomer, "callback/password", { email: "new.person@example.com", password: "a long pass phrase of mine" })
    expect(signIn.headers.get("location")).toBe(`${origin}/`)
    expect(await newcomer.who()).toBe("new.person@example.com")
    // The link is spent.
    const again = await postForm(browser(), "reset-password/password", { token: link.searchParams.get("token")!, email: link.searchParams.get("email")!, password: "someone else's phrase" })
    expect(again.headers.get("location")).not.toContain("notice=PasswordReset")
  })

  it("leaves the address unproven unless the admin vouches for it, and sends nothing unless asked", async () => {
    const { admins, adapter, mails } = await setUp()
    const { user } = (await admins.api("createUser", { email: "quiet@example.com" })) as { user: { id: string } }
    expect((await adapter.getUser!(user.id))!.emailVerified).toBeNull()
    expect(mails).toHaveLength(0)
  })

  it("refuses a taken address in any case, a malformed one and a long name, and creates nothing", async () => {
    const { admins, adapter, security } = await setUp()
    await expect(admins.api("createUser", { email: "PAT@example.com" })).rejects.toMatchObject({ code: "Conflict", status: 409 })
    for (const input of [{ email: "not an address" }, { email: "" }, { email: "a@b.c", name: "x".repeat(201) }, { email: "a@b.c", emailVerified: "yes" }, {}]) {
      await expect(admins.api("createUser", input), JSON.stringify(input)).rejects.toMatchObject({ code: "InvalidInput", status: 400 })
    }
    expect(await adapter.getUserByEmail!("a@b.c")).toBeNull()
    expect(security.filter((e) => e.type === "admin.user-created")).toHaveLength(0)
  })

  it("refuses a user who is not an admin, and an admin acting as someone else", async () => {
    const { pats, admins, adapter, pat } = await setUp()
    await expect(pats.api("createUser", { email: "sock@example.com" })).rejects.toMatchObject({ code: "NotAdmin" })
    const response = await pats.post("admin/create-user", { email: "sock@example.com" })
    expect(response.status).toBe(403)
    // The admin sees the app as Pat: no admin meanwhile.
    expect((await postForm(admins, "admin/act", { action: "impersonate", userId: pat.id })).status).toBe(302)
    expect(await admins.who()).toBe(pat.email)
    await expect(admins.api("createUser", { email: "sock@example.com" })).rejects.toMatchObject({ code: "NotAdmin" })
    expect(await adapter.getUserByEmail!("sock@example.com")).toBeNull()
  })

  it("creates through the list page's form and opens the new user", async () => {
    const { admins, adapter } = await setUp()
    const list = await (await admins.send("admin")).text()
    expect(list).toContain('name="action" value="create"')
    const response = await postForm(admins, "admin/act", { action: "create", email: "form@example.com", name: "Form", sendPasswordReset: "on" })
    const created = await adapter.getUserByEmail!("form@example.com")
    expect(response.headers.get("location")).toBe(`${origin}/auth/admin/view?userId=${created!.id}&done=create`)
    expect(created!.emailVerified).toBeNull()
    const taken = await postForm(admins, "admin/act", { action: "create", email: "form@example.com" })
    expect(taken.headers.get("location")).toBe(`${origin}/auth/admin?error=Conflict`)
    expect(await (await admins.send("admin", { query: { error: "Conflict" } })).text()).toContain("A user with that address exists already.")
  })
})

describe("sending a password reset link", () => {
  it("emails the user the provider's link, which sets their password and ends their sessions", async () => {
    const { admins, pats, pat, mails, security, boss, browser } = await setUp()
    expect(await admins.api("sendPasswordReset", pat.id)).toBe(true)
    expect(security.filter((e) => e.type === "admin.password-reset-sent")).toMatchObject([{ userId: pat.id, actorId: boss.id }])
    const link = resetLink(mails, pat.email)
    // The admin learns nothing of it: the link went to Pat's address only.
    expect(mails.every((m) => m.to === pat.email)).toBe(true)
    await postForm(browser(), "reset-password/password", { token: link.searchParams.get("token")!, email: link.searchParams.get("email")!, password: "pat's new pass phrase" })
    expect(await pats.who()).toBeNull()
    const back = browser()
    expect((await postForm(back, "callback/password", { email: pat.email, password: "pat's new pass phrase" })).headers.get("location")).toBe(`${origin}/`)
  })

  it("is refused on the admin themselves and on another admin, and sends nothing", async () => {
    const { admins, boss, user, mails } = await setUp()
    const other = await user("other@example.com", "admin")
    for (const id of [boss.id, other.id]) await expect(admins.api("sendPasswordReset", id)).rejects.toMatchObject({ code: "Forbidden" })
    expect(mails).toHaveLength(0)
  })

  it("says when there is no password provider, the address's limit is reached, or the email failed", async () => {
    const bare = await setUp({ password: undefined })
    await expect(bare.admins.api("sendPasswordReset", bare.pat.id)).rejects.toMatchObject({ code: "NoPasswordProvider", status: 409 })

    const limited = await setUp({ password: { emailsPerAddress: 1 } })
    expect(await limited.admins.api("sendPasswordReset", limited.pat.id)).toBe(true)
    await expect(limited.admins.api("sendPasswordReset", limited.pat.id)).rejects.toMatchObject({ code: "TooManyEmails", status: 429 })
    expect(limited.mails).toHaveLength(1)

    const failing = await setUp({ password: { failing: true } })
    await expect(failing.admins.api("sendPasswordReset", failing.pat.id)).rejects.toMatchObject({ code: "EmailFailed", status: 502 })
    expect(failing.security.filter((e) => e.type === "admin.password-reset-sent")).toHaveLength(0)
    const response = await failing.admins.post("admin/send-password-reset", { userId: failing.pat.id })
    expect(response.status).toBe(502)
    expect(await response.json()).toMatchObject({ error: "EmailFailed" })
  })

  it("sends from the user's page, which says so", async () => {
    const { admins, pat, mails } = await setUp()
    const view = await (await admins.send("admin/view", { query: { userId: pat.id } })).text()
    expect(view).toContain('name="action" value="send-reset"')
    const response = await postForm(admins, "admin/act", { action: "send-reset", userId: pat.id })
    expect(response.headers.get("location")).toBe(`${origin}/auth/admin/view?userId=${pat.id}&done=send-reset`)
    expect(mails).toHaveLength(1)
    const done = await (await admins.send("admin/view", { query: { userId: pat.id, done: "send-reset" } })).text()
    expect(done).toContain("A link to set a new password is on its way to the user.")
  })
})

describe("what the capabilities keep for a user", () => {
  /** A plugin that keeps something for users, and one whose description throws. */
  const keeper: SesameModule = { id: "keeper", aboutUser: (userId, request) => ({ title: `Kept (${request.lang})`, items: [`<b>${userId.slice(0, 4)}</b>`] }) }
  const broken: SesameModule = {
    id: "broken",
    aboutUser: () => {
      throw new Error("down")
    },
  }

  it("shows the second factor and the plugins' facts, escaped, and leaves out one that throws", async () => {
    const { admins, pat } = await setUp({ plugins: [keeper, broken] })
    const details = (await admins.api("userDetails", pat.id)) as { about: { source: string; title: string; items: string[] }[] }
    expect(details.about).toEqual([
      { source: "two-factor", title: "Two-factor authentication", items: ["Off."] },
      { source: "keeper", title: "Kept (en)", items: [`<b>${pat.id.slice(0, 4)}</b>`] },
    ])
    const view = await (await admins.send("admin/view", { query: { userId: pat.id }, headers: { "accept-language": "fr" } })).text()
    expect(view).toContain("Authentification à deux facteurs")
    expect(view).toContain("Désactivée.")
    expect(view).toContain("Kept (fr)")
    expect(view).toContain(`&lt;b&gt;${pat.id.slice(0, 4)}`)
  })

  it("is not asked for anyone but an admin", async () => {
    let asked = 0
    const counting: SesameModule = { id: "counting", aboutUser: () => (asked++, null) }
    const { pats, boss } = await setUp({ plugins: [counting] })
    await expect(pats.api("userDetails", boss.id)).rejects.toMatchObject({ code: "NotAdmin" })
    expect((await pats.send("admin/view", { query: { userId: boss.id } })).status).toBe(403)
    expect(asked).toBe(0)
  })
})
