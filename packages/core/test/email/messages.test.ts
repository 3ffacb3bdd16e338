/**
 * The texts of the confirmation page and the email, in every built-in catalogue.
 */
import { describe, expect, it } from "vitest"
import { builtInCatalogues as allCatalogues } from "../../src/config/appearance.js"
import type { MessageKey } from "../../src/pages/messages.js"
import { CookieJar, emailConfig, openLink, recordingEmail, requestLink } from "./helpers.js"

/** Every built-in text by language: the core's and every capability's. */
const builtInCatalogues = allCatalogues()

const emailKeys = Object.keys(builtInCatalogues.get("en")!).filter((k) => k.startsWith("confirm.") || k.startsWith("email.")) as MessageKey[]
const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort()

describe("email texts", () => {
  it("exist for the page and the email", () => {
    expect(emailKeys.sort()).toEqual([
      "confirm.body",
      "confirm.button",
      "confirm.heading",
      "confirm.why",
      "email.button",
      "email.copy",
      "email.notice",
      "email.open",
      "email.subject",
    ])
  })

  it.each([...builtInCatalogues.keys()].filter((lang) => lang !== "en"))("are translated in %s, with the same placeholders", (lang) => {
    const en = builtInCatalogues.get("en")!
    const catalogue = builtInCatalogues.get(lang)!
    for (const key of emailKeys) {
      expect(catalogue[key].trim(), key).not.toBe("")
      expect(catalogue[key], key).not.toBe(en[key])
      expect(placeholders(catalogue[key]), key).toEqual(placeholders(en[key]))
    }
  })

  it.each([
    ["en", "Finish signing in", "Sign in to localhost:3000"],
    ["fr", "Terminer la connexion", "Connexion à localhost:3000"],
    ["de", "Anmeldung abschließen", "Anmeldung bei localhost:3000"],
    ["es", "Termina de iniciar sesión", "Inicia sesión en localhost:3000"],
    ["ja", "ログインを完了する", "localhost:3000 へのログイン"],
  ])("follow Accept-Language: %s", async (lang, heading, subject) => {
    const { provider, sent } = recordingEmail()
    const { config } = emailConfig([provider])
    await requestLink(config, new CookieJar(), "ada@example.com", { headers: { "accept-language": `${lang};q=0.9` } })
    expect(sent[0]!.message.subject).toBe(subject)
    expect(sent[0]!.message.html).toContain(`<html lang="${lang}">`)
    const page = await openLink(config, new CookieJar(), sent[0]!.url, { "accept-language": lang })
    expect(page.headers.get("content-language")).toBe(lang)
    expect(await page.text()).toContain(`<h1>${heading}</h1>`)
  })

  it("take the app's overrides, in the email as on the page", async () => {
    const { provider, sent } = recordingEmail()
    const { config } = emailConfig([provider], { messages: { en: { "email.subject": "Your link for {host}", "confirm.button": "Let me in" } } })
    await requestLink(config, new CookieJar(), "ada@example.com")
    expect(sent[0]!.message.subject).toBe("Your link for localhost:3000")
    expect(await (await openLink(config, new CookieJar(), sent[0]!.url)).text()).toContain(">Let me in</button>")
  })
})
