/** What does not depend on the adapter: options checked, an adapter without a store, the plugin's shape. */
import { Auth, callModuleApi } from "@sesame/core"
import type { Adapter } from "@sesame/core/adapters"
import { MemoryAdapter } from "@sesame/core/adapters"
import { describe, expect, it } from "vitest"
import { auditTrail } from "../src/index.js"
import { Browser } from "./browser.js"
import { testConfig } from "./config.js"

describe("auditTrail()", () => {
  it("checks its options where the configuration is written", () => {
    expect(() => auditTrail({ keepDays: 0 })).toThrow(/keepDays/)
    expect(() => auditTrail({ maxEntries: 1.5 })).toThrow(/maxEntries/)
    expect(() => auditTrail({ keepDays: 7, maxEntries: 10 })).not.toThrow()
  })

  it("is off, and the rest of Sesame works, with an adapter that has no store (Auth.js's)", async () => {
    const { store: _store, ...withoutStore } = MemoryAdapter()
    const warnings: string[] = []
    const config = testConfig(withoutStore as Adapter, undefined, { logger: { warn: (code) => warnings.push(code) } })
    const browser = new Browser(config)
    expect((await browser.signIn("ada")).status).toBe(302)
    expect(((await (await browser.send("/auth/session")).json()) as { user: { email: string } }).user.email).toBe("ada@example.com")
    expect(warnings).toContain("plugin-storage-missing")
    expect((await browser.send("/auth/audit-trail/recent")).status).toBe(400)
    await expect(callModuleApi(browser.request(), config, "recentSignIns")).rejects.toMatchObject({ type: "MissingAdapterMethods" })
  })

  it("refuses a configuration that lists it twice, with the Configuration error", async () => {
    const config = { ...testConfig(MemoryAdapter()), plugins: [auditTrail(), auditTrail()] }
    const response = await Auth(new Request("http://localhost:3000/auth/session"), config)
    expect(response.status).toBe(500)
    expect(await response.json()).toMatchObject({ message: expect.stringMatching(/configuration/i) })
  })
})
