/**
 * docs/features/account-page.md: its examples, run as written (each block's marker names this file).
 */
import { readmeExample } from "@sesame/testing"
import { mkdirSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { CookieJar, csrfToken, origin, request, secret, send } from "../helpers.js"
import { storePassword } from "../../src/password/storage.js"

const page = join(import.meta.dirname, "..", "..", "..", "..", "docs", "features", "account-page.md")
const scratch = join(import.meta.dirname, "..", ".scratch", "account-page")

/** Writes the example to a file of its own and imports it. */
async function load(name: string): Promise<any> {
  mkdirSync(scratch, { recursive: true })
  const path = join(scratch, `${name}.ts`)
  writeFileSync(path, readmeExample(page, name))
  return import(path)
}

async function signedIn(config: any, email: string): Promise<CookieJar> {
  const { argon2id } = await import("@sesame/core/password")
  const user = await config.adapter.createUser({ id: crypto.randomUUID(), email, name: "Ada", emailVerified: new Date() })
  await storePassword(config.adapter, { userId: user.id, hash: await argon2id().hash("correct horse battery"), updatedAt: new Date() })
  const jar = new CookieJar()
  const response = await send(config, "/auth/callback/password", { jar, form: { csrfToken: await csrfToken(config, jar), email, password: "correct horse battery" } })
  expect(response.headers.get("location")).toBe(`${origin}/`)
  return jar
}

describe("docs/features/account-page.md", () => {
  it("account-page: the page without its delete section; a change of address mailed through the password provider", async () => {
    const { config: documented, outbox } = await load("account-page")
    const config = { ...documented, secret, trustHost: true }
    const jar = await signedIn(config, "ada@example.com")
    const body = await (await send(config, "/auth/account", { jar })).text()
    expect(body).toContain('<section id="passkeys"')
    expect(body).not.toContain('<section id="delete"')
    await send(config, "/auth/account/email", { jar, form: { csrfToken: await csrfToken(config, jar), email: "new@example.com" } })
    expect(outbox).toEqual([{ kind: "change-email", to: "new@example.com", url: expect.stringMatching(/^http:\/\/localhost:3000\/auth\/account\/email-confirm\?/) }])
  })

  it("request-email-change: the app's own handler answers as documented", async () => {
    const { changeEmail } = await load("request-email-change")
    const { config: documented, outbox } = await load("account-page")
    const config = { ...documented, secret, trustHost: true }
    const jar = await signedIn(config, "grace@example.com")
    outbox.length = 0
    const post = (email: string, cookieJar?: CookieJar) => request("/settings/email", { jar: cookieJar, form: { email } })
    expect(await (await changeEmail(post("fresh@example.com", jar), config)).text()).toBe("Check your inbox.")
    expect(outbox.map((m: { to: string }) => m.to)).toEqual(["fresh@example.com"])
    const refused = await changeEmail(post("grace@example.com", jar), config)
    expect([refused.status, await refused.text()]).toEqual([400, "SameEmail"])
  })

  it("account-section: a plugin's part on the page", async () => {
    const { newsletter } = await load("account-section")
    const { config: documented } = await load("account-page")
    const config = { ...documented, secret, trustHost: true, plugins: [newsletter] }
    const jar = await signedIn(config, "linus@example.com")
    const body = await (await send(config, "/auth/account", { jar })).text()
    expect(body).toContain("<h2>Newsletter</h2><p>Sent to linus@example.com.</p>")
  })
})
