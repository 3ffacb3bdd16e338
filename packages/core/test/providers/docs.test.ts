/**
 * docs/reference/providers.md is generated from the providers (scripts/providers-doc.mjs); this renders it
 * from the sources and fails when the committed page differs, naming the command that fixes it.
 */
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { pagePath, remarksOf, renderProvidersPage } from "../../../../scripts/providers-doc.mjs"
import { providerEnvName } from "../../src/config/env.js"
import { emailProviders, oauthProviders } from "../../src/providers/lib/catalogue.js"

const sources = join(import.meta.dirname, "..", "..", "src", "providers")
const factories: [string, () => Parameters<typeof renderProvidersPage>[0][number]["config"]][] = Object.entries({ ...oauthProviders, ...emailProviders })
const providers = factories.map(([id, factory]) => ({
  config: factory(),
  factoryName: factory.name,
  remarks: remarksOf(readFileSync(join(sources, `${id}.ts`), "utf8")),
}))
const page = renderProvidersPage(providers, providerEnvName)

describe("docs/reference/providers.md", () => {
  it("is up to date with the providers (regenerate: node scripts/build.mjs && node scripts/providers-doc.mjs)", () => {
    expect(readFileSync(pagePath, "utf8")).toBe(page)
  })

  it("lists every provider with its callback URL pattern, environment and quirks", () => {
    expect(page).toContain("`<origin><basePath>/callback/<id>`")
    for (const { config, remarks } of providers) {
      expect(page).toContain(`| [\`${config.id}\`](#${config.id}) |`)
      expect(page).toContain(`### ${config.id}\n`)
      // Every provider documents at least one quirk.
      expect(remarks.length, config.id).toBeGreaterThan(0)
    }
    expect(page).toMatch(/\| \[`microsoft-entra-id`\][^\n]*`AUTH_MICROSOFT_ENTRA_ID_ID`, `AUTH_MICROSOFT_ENTRA_ID_SECRET`, `AUTH_MICROSOFT_ENTRA_ID_ISSUER` \|/)
    expect(page).toMatch(/\| \[`google`\][^\n]*`AUTH_GOOGLE_ID`, `AUTH_GOOGLE_SECRET` \|/)
    expect(page).toMatch(/\| \[`resend`\][^\n]*`AUTH_RESEND_KEY` \|/)
  })

  it("reads a module's @remarks bullets, continuation lines joined", () => {
    expect(remarksOf("/**\n * Title.\n *\n * @remarks\n * - one\n *   more\n * - two\n *\n * @example\n * - not this\n */")).toEqual(["one more", "two"])
  })
})
