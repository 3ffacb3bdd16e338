/**
 * The module's part of the core's account page (`accountSection`): the signed-in user's
 * organizations with their roles, each linking to its page, and nobody else's.
 */
import { describe, expect, it } from "vitest"
import { makeWorld, origin } from "./world.js"

type Browser = InstanceType<ReturnType<typeof makeWorld>["Browser"]>

async function accountPage(browser: Browser): Promise<string> {
  const response = await browser.send("account")
  expect(response.status).toBe(200)
  const body = await response.text()
  const start = body.indexOf('<section id="plugins">')
  return start < 0 ? "" : body.slice(start, body.indexOf("</section>", start))
}

async function create(browser: Browser, name: string): Promise<void> {
  const home = await (await browser.send("organization")).text()
  const csrf = /name="csrfToken" value="([^"]+)"/.exec(home)![1]!
  const response = await browser.send("organization/act", {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", origin, "sec-fetch-site": "same-origin" },
    body: new URLSearchParams({ csrfToken: csrf, action: "create", name }).toString(),
  })
  expect(response.status).toBe(302)
}

describe("the organizations' section of the account page", () => {
  it("lists the user's organizations with their roles and links, and none of another user's", async () => {
    const w = makeWorld()
    const ada = await w.user("ada@example.com")
    const bob = await w.user("bob@example.com")
    expect(await accountPage(ada)).toContain("You do not belong to any organization yet.")
    await create(ada, "Acme <Tools>")
    await create(bob, "Bob's shop")
    const section = await accountPage(ada)
    expect(section).toContain("<h2 id=\"organization-heading\">Organizations</h2>")
    expect(section).toMatch(/<a href="http:\/\/localhost:3000\/auth\/organization\/manage\?organizationId=[^"]+">Acme &lt;Tools&gt;<\/a><small>Your roles: Owner<\/small>/)
    expect(section).toContain(`<a href="${origin}/auth/organization">Open the organization page</a>`)
    expect(section).not.toContain("Bob")
  })
})

describe("what an admin's view of a user lists (`aboutUser`)", () => {
  it("names the user's organizations with their roles there, and none of another user's", async () => {
    // A stand-in for the admin module: it asks for the user it is given.
    const probe = { id: "probe", api: { about: (request: import("@sesame/core").ModuleRequest, userId: string) => request.aboutUser(userId) } }
    const w = makeWorld({ plugins: () => [probe] })
    const ada = await w.user("ada@example.com")
    const bob = await w.user("bob@example.com")
    await create(ada, "Acme <Tools>")
    await create(bob, "Bob's shop")
    const facts = (await bob.api("about", ada.id)) as { source: string; title: string; items: string[] }[]
    expect(facts.find((f) => f.source === "organization")).toEqual({ source: "organization", title: "Organizations", items: ["Acme <Tools>: Owner"] })
  })
})
