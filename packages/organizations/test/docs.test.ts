/**
 * docs/features/organizations.md and the package README: their examples, run as written.
 */
import type { AuthConfig } from "@sesame/core"
import { readmeExample } from "@sesame/testing"
import { mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { CookieJar, makeWorld } from "./world.js"

const root = join(import.meta.dirname, "..", "..", "..")
const scratch = join(import.meta.dirname, ".scratch")

/** Writes the example to a file of its own and imports it. */
async function load(file: string, name: string): Promise<any> {
  mkdirSync(scratch, { recursive: true })
  const path = join(scratch, `${name}.ts`)
  writeFileSync(path, readmeExample(file, name))
  return import(path)
}

describe("docs/features/organizations.md", () => {
  it("its table has every endpoint and server function, and no other; the pages are in their own section", () => {
    const page = readFileSync(join(root, "docs", "features", "organizations.md"), "utf8")
    const rows = [...page.matchAll(/^\| `(GET|POST) ([^`]+)` \| `(\w+)` \|/gm)].map(([, method, path, fn]) => ({ route: `${method} organization/${path}`, fn: fn! }))
    const { orgs } = makeWorld()
    const pages = ["GET organization", "GET organization/manage", "GET organization/inbox", "POST organization/act"]
    expect(rows.map((r) => r.route).sort()).toEqual(Object.keys(orgs.routes).filter((route) => !pages.includes(route)).sort())
    const documented = new Set(rows.map((r) => r.fn))
    expect(Object.keys(orgs.api).filter((fn) => !documented.has(fn))).toEqual([])
    for (const route of pages) expect(page).toContain(`<basePath>/${route.split(" ")[1]}`)
  })


  it("runs the example: an invitation mailed and accepted by its invitee, refused to another user; permissions from the roles", async () => {
    const page = await load(join(root, "docs", "features", "organizations.md"), "organizations")
    const w = makeWorld()
    const config = { ...w.config, plugins: [page.orgs] }
    const as = (jar: CookieJar) => new Request("http://localhost:3000/app", { headers: { cookie: jar.header() } })
    const { callModuleApi } = await import("@sesame/core")
    const ada = await w.user("ada@example.com")
    const org = (await callModuleApi(as(ada.jar), config, "createOrganization", { name: "Acme" })) as { id: string }
    await callModuleApi(as(ada.jar), config, "inviteMember", org.id, "bob@example.com", ["billing"])
    expect(page.outbox).toEqual([{ to: "bob@example.com", link: expect.stringMatching(/^http:\/\/localhost:3000\/invitations\/accept\?token=/) }])
    const token = new URL(page.outbox[0].link).searchParams.get("token")
    const eve = await w.user("eve@example.com")
    expect(await page.acceptInvitation(as(eve.jar), config, token)).toEqual({ refused: "WrongAccount" })
    const bob = await w.user("bob@example.com")
    expect(await page.acceptInvitation(as(bob.jar), config, token)).toMatchObject({ organizationId: org.id, roles: ["billing"] })
    expect(await page.mayCreateProjects(as(bob.jar), config, org.id)).toBe(false)
    expect(await page.mayCreateProjects(as(ada.jar), config, org.id)).toBe(true)
    // billing may invite, within its own roles only.
    expect(await callModuleApi(as(bob.jar), config, "inviteMember", org.id, "cy@example.com", ["billing"])).toMatchObject({ roles: ["billing"] })
    await expect(callModuleApi(as(bob.jar), config, "inviteMember", org.id, "dan@example.com", ["admin"])).rejects.toMatchObject({ code: "Forbidden" })
  })
})

describe("packages/organizations/README.md", () => {
  it("its configuration resolves, with the module on", async () => {
    const readme = await load(join(root, "packages", "organizations", "README.md"), "readme")
    const { Auth } = await import("@sesame/core")
    const config: AuthConfig = { ...readme.config, secret: "organizations-readme-secret-0123456789abcdef", trustHost: true }
    const list = await Auth(new Request("http://localhost:3000/auth/organization/list"), config)
    expect(list.status).toBe(401)
    expect(await list.json()).toMatchObject({ error: "NotSignedIn" })
  })
})
