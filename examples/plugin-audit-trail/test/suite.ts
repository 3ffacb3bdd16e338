/**
 * The audit trail's behaviour, run on every adapter: each adapter's test file gives the adapter
 * and makes the plugin's table (`prepare`), nothing else. Names are unique per run, so the suite
 * can run on databases that already hold rows.
 */
import { callModuleApi, modelsOf, type ModelDeclaration } from "@sesame/core"
import type { Adapter } from "@sesame/core/adapters"
import { beforeAll, describe, expect, it } from "vitest"
import { signInRecord } from "../src/index.js"
import { Browser } from "./browser.js"
import { testConfig } from "./config.js"

interface Entry {
  provider: string
  kind: string
  newUser: boolean
  at: string
}

const unique = () => crypto.randomUUID().slice(0, 8)

export function auditTrailTests(name: string, adapter: Adapter, prepare?: (models: ModelDeclaration[]) => Promise<unknown>): void {
  const config = testConfig(adapter, { keepDays: 30, maxEntries: 5 })

  describe(`audit trail on ${name}`, () => {
    beforeAll(async () => {
      await prepare?.(modelsOf(config))
    })

    it("records each sign-in, and the user reads their own, newest first", async () => {
      const browser = new Browser(config)
      const username = `ada-${unique()}`
      expect((await browser.signIn(username)).status).toBe(302)
      await browser.signIn(username)
      const response = await browser.send("/auth/audit-trail/recent")
      expect(response.status).toBe(200)
      expect(response.headers.get("cache-control")).toMatch(/no-store/)
      const { signIns } = (await response.json()) as { signIns: Entry[] }
      expect(signIns).toHaveLength(2)
      expect(signIns.map((e) => [e.provider, e.kind])).toEqual([
        ["credentials", "credentials"],
        ["credentials", "credentials"],
      ])
      expect(signIns.map((e) => e.newUser)).toEqual([false, true])
      expect(Date.parse(signIns[0]!.at)).toBeGreaterThanOrEqual(Date.parse(signIns[1]!.at))
    })

    it("never shows one user's sign-ins to another", async () => {
      const ada = new Browser(config)
      const eve = new Browser(config)
      const eveName = `eve-${unique()}`
      await ada.signIn(`ada-${unique()}`)
      await eve.signIn(eveName)
      await eve.signIn(eveName)
      const adas = (await (await ada.send("/auth/audit-trail/recent")).json()) as { signIns: Entry[] }
      expect(adas.signIns).toHaveLength(1)
      const eves = (await (await eve.send("/auth/audit-trail/recent")).json()) as { signIns: Entry[] }
      expect(eves.signIns).toHaveLength(2)
    })

    it("answers 401 to a visitor who is not signed in, and 400 to a bad limit", async () => {
      const visitor = new Browser(config)
      const response = await visitor.send("/auth/audit-trail/recent")
      expect(response.status).toBe(401)
      expect(await response.json()).toMatchObject({ error: "Unauthorized" })
      const browser = new Browser(config)
      await browser.signIn(`ada-${unique()}`)
      expect((await browser.send("/auth/audit-trail/recent?limit=zero")).status).toBe(400)
      expect((await browser.send("/auth/audit-trail/recent?limit=1&limit=2")).status).toBe(400)
    })

    it("caps a read at maxEntries", async () => {
      const browser = new Browser(config)
      const username = `ada-${unique()}`
      for (let i = 0; i < 7; i++) await browser.signIn(username)
      const { signIns } = (await (await browser.send("/auth/audit-trail/recent?limit=100")).json()) as { signIns: Entry[] }
      expect(signIns).toHaveLength(5)
    })

    it("clears the user's sign-ins on a same-origin POST with the CSRF token, and refuses a forged one", async () => {
      const browser = new Browser(config)
      await browser.signIn(`ada-${unique()}`)
      // A page on another site posting to the endpoint: the browser says so, and the token is missing.
      const forged = await browser.send("/auth/audit-trail/clear", { form: {}, headers: { "sec-fetch-site": "cross-site", origin: "https://evil.example" } })
      expect(forged.status).toBe(403)
      const noToken = await browser.send("/auth/audit-trail/clear", { form: {} })
      expect(noToken.status).toBe(302)
      expect(noToken.headers.get("location")).toContain("error=MissingCSRF")
      expect(((await (await browser.send("/auth/audit-trail/recent")).json()) as { signIns: Entry[] }).signIns).toHaveLength(1)
      const cleared = await browser.send("/auth/audit-trail/clear", { form: { csrfToken: await browser.csrf() } })
      expect(await cleared.json()).toEqual({ cleared: 1 })
      expect(((await (await browser.send("/auth/audit-trail/recent")).json()) as { signIns: Entry[] }).signIns).toEqual([])
    })

    it("serves its server functions for the request's user", async () => {
      const browser = new Browser(config)
      const username = `ada-${unique()}`
      await browser.signIn(username)
      await browser.signIn(username)
      const request = browser.request()
      expect(await callModuleApi(request, config, "lastSignInMethod")).toBe("credentials")
      expect(await callModuleApi(request, config, "recentSignIns", { limit: 1 })).toHaveLength(1)
      expect(await callModuleApi(request, config, "recentSignIns")).toHaveLength(2)
      expect(await callModuleApi(new Request("http://localhost:3000/"), config, "recentSignIns")).toBeNull()
      await expect(callModuleApi(request, config, "noSuchFunction")).rejects.toThrow(TypeError)
    })

    it("forgets a user's sign-ins with the user, and ones older than keepDays", async () => {
      const store = adapter.store!
      const browser = new Browser(config)
      const username = `gone-${unique()}`
      await browser.signIn(username)
      const user = await adapter.getUserByEmail!(`${username}@example.com`)
      expect(await store.count(signInRecord, { userId: user!.id })).toBe(1)
      await store.update(signInRecord, { userId: user!.id }, { expires: new Date(Date.now() - 1000) })
      expect(((await (await browser.send("/auth/audit-trail/recent")).json()) as { signIns: Entry[] }).signIns).toEqual([])
      await browser.signIn(username)
      expect(await store.count(signInRecord, { userId: user!.id })).toBe(1)
      await adapter.deleteUser!(user!.id)
      expect(await store.count(signInRecord, { userId: user!.id })).toBe(0)
    })
  })
}
