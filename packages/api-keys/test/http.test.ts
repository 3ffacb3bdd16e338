/**
 * The module over HTTP, through `Auth()`, as the built-in account page uses it: the section lists
 * the keys with a create form, the form's answer shows the new key once, rotate and revoke are
 * forms too (cookie session and CSRF token); a script's JSON gets JSON; the texts follow the
 * visitor's language; an admin's view of a user says how many keys and when each was last used.
 */
import { describe, expect, it } from "vitest"
import type { SesameModule } from "@sesame/core"
import { keyIn, makeWorld } from "./world.js"

describe("the account page's section and its forms", () => {
  it("lists nothing, creates a key from the form (shown once), uses it, rotates and revokes it", async () => {
    const world = makeWorld()
    const ada = await world.user("ada@example.com")
    const empty = await (await ada.send("account")).text()
    expect(empty).toContain("API keys")
    expect(empty).toContain("You have no API keys.")
    expect(empty).toContain('name="scope.read"')

    const created = await ada.form("api-keys/create", { name: "Laptop script", "scope.read": "on", expiresInDays: "30" })
    expect(created.status).toBe(200)
    const key = keyIn(created.text)!
    expect(key).not.toBeNull()
    expect(created.text).toContain("shown this once only")
    expect(await world.bearer(key)).toMatchObject({ userId: ada.id, scopes: ["read"] })

    const page = await (await ada.send("account")).text()
    expect(page).toContain("Laptop script")
    expect(page).toContain("Scopes: read")
    expect(keyIn(page)).toBeNull()
    const [listed] = (await (await ada.send("api-keys/list")).json()).result
    expect(listed.expiresAt).toBe(new Date(new Date(listed.createdAt).getTime() + 30 * 86_400_000).toISOString())

    const rotated = await ada.form("api-keys/rotate", { keyId: listed.id })
    const next = keyIn(rotated.text)!
    expect(next).not.toBe(key)
    expect(rotated.text).toContain("The previous key keeps working until")
    expect(await world.bearer(key)).not.toBeNull()
    expect(await world.bearer(next)).not.toBeNull()
    expect(await (await ada.send("account")).text()).toContain("Rotated: stops")

    const newId = (await world.bearer(next))!.keyId
    const revoked = await ada.form("api-keys/revoke", { keyId: newId })
    expect(revoked.location).toBe("http://localhost:3000/auth/account")
    expect(await world.bearer(next)).toBeNull()
    expect(await world.bearer(key)).toBeNull()
  })

  it("a form's refusal is a page that says why, in the visitor's language", async () => {
    const world = makeWorld()
    const ada = await world.user("ada@example.com")
    const refused = await ada.form("api-keys/create", { name: "x", expiresInDays: "9999" })
    expect(refused.status).toBe(400)
    expect(refused.text).toContain("Nothing was changed")
    const fr = await ada.send("account", { headers: { "accept-language": "fr" } })
    expect(await fr.text()).toContain("Créer la clé")
    const ja = await ada.send("account", { headers: { "accept-language": "ja" } })
    expect(await ja.text()).toContain("API キー")
  })

  it("a POST without the CSRF token is refused before the module runs", async () => {
    const world = makeWorld()
    const ada = await world.user("ada@example.com")
    const response = await ada.send("api-keys/create", { json: { name: "no token" } })
    expect(response.status).not.toBe(200)
    expect(await ada.api("listApiKeys")).toEqual([])
  })

  it("JSON in, JSON out, with JWT sessions too", async () => {
    const world = makeWorld({ strategy: "jwt" })
    const ada = await world.user("ada@example.com")
    const created = await ada.post("api-keys/create", { name: "ci", scopes: ["write"], expiresIn: 3600, rateLimit: { max: 10, window: 60 } })
    expect(created.status).toBe(200)
    expect(created.body.result).toMatchObject({ name: "ci", scopes: ["write"], rateLimit: { max: 10, window: 60 } })
    expect(created.body.result.keyHash).toBeUndefined()
    expect(await world.bearer(created.body.result.key)).toMatchObject({ userId: ada.id })
    const refused = await ada.post("api-keys/create", { name: "bad", scopes: ["root"] })
    expect(refused).toMatchObject({ status: 400, body: { error: "InvalidInput" } })
  })
})

describe("an admin's view of a user", () => {
  it("says how many keys, their names and last use; never a key or hash", async () => {
    const spy: SesameModule = { id: "spy", api: { about: (request, userId: string) => request.aboutUser(userId) } }
    const world = makeWorld({ plugins: [spy] })
    const ada = await world.user("ada@example.com")
    const { key } = await ada.api("createApiKey", { name: "deploys" })
    await ada.api("createApiKey", { name: "unused" })
    await world.bearer(key)
    const facts = (await ada.api("about", ada.id)) as { source: string; title: string; items: string[] }[]
    const ours = facts.find((f) => f.source === "api-keys")!
    expect(ours.title).toBe("API keys: 2 key(s)")
    expect(ours.items).toHaveLength(2)
    expect(ours.items.find((i) => i.startsWith("deploys"))).toContain("Last used")
    expect(ours.items.find((i) => i.startsWith("unused"))).toContain("Never used")
    expect(JSON.stringify(facts)).not.toContain(key)
  })
})
