/**
 * Languages of the built-in pages: negotiation, the catalogues, the password provider's pages in
 * every language, and per-key overrides.
 */
import { describe, expect, it, vi } from "vitest"
import type { AuthConfig, Messages } from "@sesame/core"
import { builtInCatalogues as allCatalogues, resolveMessages } from "../../src/config/appearance.js"
import { coreCatalogues } from "../../src/pages/locales/index.js"
import { errorPage } from "../../src/pages/error.js"
import { defaultTheme } from "../../src/config/defaults.js"
import { builtInFeatures } from "../../src/registry.js"
import { acceptedLanguages, negotiateLanguage, translator, translatorForRequest } from "../../src/pages/i18n.js"
import { jwtConfig, origin, send } from "../helpers.js"
import { passwordLinks, passwordSetup } from "./fixtures.js"

const builtIn = ["en", "fr", "de", "es", "ja"]

/** Every built-in text by language: the core's and every capability's. */
const builtInCatalogues = allCatalogues()

function inLanguage(language: string): { headers: Record<string, string> } {
  return { headers: { "accept-language": language } }
}

describe("Accept-Language", () => {
  it("orders ranges by q, keeps header order on ties, and drops refused or malformed ranges", () => {
    expect(acceptedLanguages("de;q=0.5, fr-CA, en;q=0.5, ja;q=0, es;q=0.9")).toEqual(["fr-ca", "es", "de", "en"])
    expect(acceptedLanguages("  FR ; q=0.7 ,x-bad!, de;q=2, it;q=0.70")).toEqual(["fr", "it"])
    expect(acceptedLanguages(undefined)).toEqual([])
    expect(acceptedLanguages("")).toEqual([])
  })

  it("picks the best offered language, falling back from regions and then to English", () => {
    const cases: [string | undefined, string][] = [
      ["fr-CA,fr;q=0.9,en;q=0.8", "fr"],
      ["fr-CA", "fr"],
      ["de-AT", "de"],
      ["es-419, en;q=0.5", "es"],
      ["ja-JP", "ja"],
      ["EN-gb", "en"],
      ["pt-BR, ja;q=0.5", "ja"],
      ["zh-Hant-TW, de;q=0.1", "de"],
      ["es;q=0, fr;q=0.1", "fr"],
      ["*", "en"],
      ["it", "en"],
      ["", "en"],
      [undefined, "en"],
    ]
    for (const [header, expected] of cases) expect([header, negotiateLanguage(header, builtIn)]).toEqual([header, expected])
  })

  it("ignores ranges past the twentieth (a header is a short list)", () => {
    const header = [...Array.from({ length: 20 }, (_, i) => `x${"abcdefghijklmnopqrst"[i]}`), "fr"].join(",")
    expect(negotiateLanguage(header, builtIn)).toBe("en")
    expect(negotiateLanguage(header.replace("xa,", "fr,"), builtIn)).toBe("fr")
  })
})

describe("catalogues", () => {
  const english = builtInCatalogues.get("en")!
  const placeholders = (text: string) => [...text.matchAll(/\{\w+\}/g)].map((m) => m[0]).sort()

  it("exist for English, French, German, Spanish and Japanese", () => {
    expect([...builtInCatalogues.keys()].sort()).toEqual([...builtIn].sort())
  })

  it("have every key, a non-empty text each, the same placeholders as English, and their own wording", () => {
    for (const [lang, catalogue] of builtInCatalogues) {
      expect(Object.keys(catalogue).sort(), lang).toEqual(Object.keys(english).sort())
      for (const [key, text] of Object.entries(catalogue) as [keyof Messages, string][]) {
        expect(text.trim(), `${lang} ${key}`).not.toBe("")
        expect(placeholders(text), `${lang} ${key}`).toEqual(placeholders(english[key]))
        if (lang !== "en" && !["signin.email.placeholder", "error.heading.Default"].includes(key)) {
          expect(text, `${lang} ${key} is not translated`).not.toBe(english[key])
        }
      }
    }
  })

  it("are the core's and each capability's, in the same languages, no key in two of them", () => {
    const owners = new Map<string, string>()
    type Part = [id: string, catalogues: Readonly<Record<string, Readonly<Partial<Messages>>>>]
    const parts: Part[] = [["core", coreCatalogues], ...builtInFeatures().flatMap((feature): Part[] => (feature.messages ? [[feature.id, feature.messages]] : []))]
    expect(parts.map(([id]) => id)).toEqual(["core", "email-sign-in", "password", "passkeys", "two-factor", "native-apps", "account-page", "captcha", "rate-limit"])
    for (const [id, catalogues] of parts) {
      expect(Object.keys(catalogues).sort(), id).toEqual([...builtIn].sort())
      const keys = Object.keys(catalogues.en!)
      for (const [lang, catalogue] of Object.entries(catalogues)) expect(Object.keys(catalogue).sort(), `${id} ${lang}`).toEqual([...keys].sort())
      for (const key of keys) {
        expect(owners.get(key), `${key} is ${id}'s`).toBeUndefined()
        owners.set(key, id)
      }
    }
    expect([...owners.keys()].sort()).toEqual(Object.keys(builtInCatalogues.get("en")!).sort())
  })

  it("without the configuration's texts, are the core's only (all the configuration error's page uses)", () => {
    const t = translator("fr")
    expect([t.has("signin.heading"), t.has("error.Configuration"), t.has("twofactor.heading"), t.has("native.heading")]).toEqual([true, true, false, false])
    expect(t.t("twofactor.heading")).toBe("twofactor.heading")
    for (const lang of builtIn) {
      const t = translator(lang)
      for (const error of ["Configuration", "AccessDenied", "Verification", "Default"]) {
        const page = errorPage({ error, signInUrl: "/auth/signin", theme: defaultTheme }, t).body as string
        expect(page.replace(/<style[\s\S]*?<\/style>/g, ""), `${lang} ${error}`).not.toMatch(/error\.(heading\.)?\w+|error\.back/)
      }
    }
  })

  it("with the configuration's texts, have every capability's too", () => {
    const t = translator("de", resolveMessages(undefined))
    expect([t.has("signin.heading"), t.has("twofactor.heading"), t.has("native.heading"), t.has("signin.headline")]).toEqual([true, true, true, false])
    expect(t.t("twofactor.heading")).toBe(builtInCatalogues.get("de")!["twofactor.heading"])
    expect(t.t("verify.code.label")).toBe(builtInCatalogues.get("de")!["verify.code.label"])
  })

  it("fill placeholders without re-reading what they insert", () => {
    const t = translator("en")
    expect(t.t("signin.with", { provider: "{host}" })).toBe("Sign in with {host}")
    expect(t.t("signin.with", {})).toBe("Sign in with {provider}")
    expect(translator("ja").t("signin.with", { provider: "GitHub" })).toBe("GitHubでログイン")
  })
})

describe("pages in the visitor's language", () => {
  it("serve each page in the negotiated language, with lang and Content-Language", async () => {
    const cases: [string, string, string, string][] = [
      ["/auth/signin", "fr-CA,en;q=0.5", "fr", "<h1>Connexion</h1>"],
      ["/auth/signin", "ja", "ja", "Credentialsでログイン"],
      ["/auth/signout", "de-DE", "de", "Möchten Sie sich jetzt abmelden?"],
      ["/auth/error?error=AccessDenied", "es-MX", "es", "<h1>Acceso denegado</h1>"],
      ["/auth/verify-request", "fr", "fr", "Retour à localhost:3000"],
      ["/auth/signin?error=CredentialsSignin", "de", "de", "Mit diesen Angaben konnten wir Sie nicht anmelden."],
      ["/auth/signin", "it, pt;q=0.5", "en", "<h1>Sign in</h1>"],
    ]
    for (const [path, header, lang, text] of cases) {
      const res = await send(jwtConfig(), path, inLanguage(header))
      const html = await res.text()
      expect(html, `${path} ${header}`).toContain(`<html lang="${lang}"`)
      expect(res.headers.get("content-language")).toBe(lang)
      expect(html, `${path} ${header}`).toContain(text)
    }
  })

  it("show the configuration error page in the visitor's language", async () => {
    const broken: AuthConfig = { ...jwtConfig(), session: { strategy: "database" }, logger: { error: () => {} } }
    const res = await send(broken, "/auth/signin", inLanguage("es"))
    expect(res.status).toBe(500)
    expect(await res.text()).toContain("<h1>Error del servidor</h1>")
  })
})

describe("the password provider's pages in every language", () => {
  const english = builtInCatalogues.get("en")!
  const keys = Object.keys(english) as (keyof Messages)[]

  /** The keys the password provider added, by their prefixes: sign-up, reset, confirmation, its emails. */
  const passwordKeys = keys.filter(
    (key) => /^(signup|forgot|reset|verifyEmail|password|mail)\./.test(key) || ["signin.password.label", "signin.password.forgot", "signin.password.signup", "signin.notice.PasswordReset", "signin.error.EmailNotVerified"].includes(key),
  )

  it("have their messages in every catalogue, each its own text", () => {
    expect(passwordKeys.length).toBeGreaterThan(40)
    for (const [lang, catalogue] of builtInCatalogues) {
      for (const key of passwordKeys) {
        expect(typeof catalogue[key], `${lang} ${key}`).toBe("string")
        if (lang !== "en") expect(catalogue[key], `${lang} ${key}`).not.toBe(english[key])
      }
    }
  })

  /** The text a visitor reads: the page without its style element and tags, entities decoded. */
  function visibleText(html: string): string {
    return html
      .replace(/<style[\s\S]*?<\/style>/g, "")
      .replace(/<[^>]+>/g, " ")
      .replace(/&#39;/g, "'")
      .replace(/&quot;/g, '"')
      .replace(/&lt;/g, "<")
      .replace(/&gt;/g, ">")
      .replace(/&amp;/g, "&")
  }

  it("are in the visitor's language: lang and heading, no raw key, no unfilled placeholder, no English left over", async () => {
    const setup = passwordSetup()
    const links = await passwordLinks(setup, origin, "ada@example.com")
    const pages: [string, keyof Messages][] = [
      ["/auth/signup", "signup.heading"],
      ["/auth/signup?error=too-short&email=ada%40example.com", "signup.heading"],
      ["/auth/signup?sent=1", "verify.heading"],
      ["/auth/forgot-password", "forgot.heading"],
      ["/auth/forgot-password?sent=1", "verify.heading"],
      [links.reset, "reset.heading"],
      [`${links.reset}&error=breached`, "reset.heading"],
      [links.verify, "verifyEmail.heading"],
      [`${links.verify}&error=wrong-password`, "verifyEmail.heading"],
      ["/auth/signin?notice=PasswordReset", "signin.heading"],
      ["/auth/signin?error=EmailNotVerified", "signin.heading"],
    ]
    // English sentences long enough that finding one on another language's page means it was not translated.
    const sentences = keys.map((key) => english[key].split(/\{\w+\}/)[0]!).filter((text) => text.length > 12)
    for (const [lang, catalogue] of builtInCatalogues) {
      for (const [path, heading] of pages) {
        const res = await send(setup.config, path, inLanguage(lang))
        expect(res.status, `${lang} ${path}`).toBe(200)
        expect(res.headers.get("content-language")).toBe(lang)
        const html = await res.text()
        expect(html, `${lang} ${path}`).toContain(`<html lang="${lang}"`)
        expect(html, `${lang} ${path}`).toContain(`<h1>${catalogue[heading]}</h1>`)
        const text = visibleText(html)
        for (const key of keys) expect(text, `${lang} ${path} shows the key ${key}`).not.toContain(key)
        expect(text, `${lang} ${path}`).not.toMatch(/\{\w+\}|undefined/)
        if (lang !== "en") for (const sentence of sentences) expect(text, `${lang} ${path}`).not.toContain(sentence)
      }
    }
  })
})

describe("messages option", () => {
  it("overrides single keys per language; other keys and languages keep the catalogue", async () => {
    const config = jwtConfig({ messages: { fr: { "signin.heading": "Bon retour" }, en: { "signout.button": "Log out" } } })
    const fr = await (await send(config, "/auth/signin", inLanguage("fr"))).text()
    expect(fr).toContain("<h1>Bon retour</h1>")
    expect(fr).toContain("Se connecter avec Credentials")
    expect(await (await send(config, "/auth/signin", inLanguage("en"))).text()).toContain("<h1>Sign in</h1>")
    expect(await (await send(config, "/auth/signout", inLanguage("en"))).text()).toContain(">Log out</button>")
    expect(await (await send(config, "/auth/signout", inLanguage("de"))).text()).toContain(">Abmelden</button>")
  })

  it("offers a language it names, filling its gaps from its parent language and then English", async () => {
    const config = jwtConfig({
      messages: { "pt-BR": { "signin.heading": "Entrar" }, "fr-CA": { "signin.or": "ou bien" }, it: { "signin.heading": "Accedi" } },
    })
    const pt = await send(config, "/auth/signin", inLanguage("pt-BR"))
    const ptHtml = await pt.text()
    expect(ptHtml).toContain('<html lang="pt-BR"')
    expect(pt.headers.get("content-language")).toBe("pt-BR")
    expect(ptHtml).toContain("<h1>Entrar</h1>")
    expect(ptHtml).toContain("Sign in with Credentials")
    const ca = translatorForRequest(new Request("http://x/", inLanguage("fr-ca")), config.messages)
    expect([ca.lang, ca.t("signin.or"), ca.t("signin.heading")]).toEqual(["fr-CA", "ou bien", "Connexion"])
    expect(translatorForRequest(new Request("http://x/", inLanguage("it-IT")), config.messages).t("signin.heading")).toBe("Accedi")
  })

  it("override a capability's keys too, with the same fallback: the language, its parent, English", () => {
    const texts = resolveMessages({
      fr: { "twofactor.heading": "Double facteur" },
      "fr-CA": { "twofactor.button": "Go" },
      DE: { "native.button": "Los" },
      it: { "signin.heading": "Accedi" },
    })
    const catalogue = (lang: string) => builtInCatalogues.get(lang)!
    const fr = translator("fr", texts)
    expect([fr.t("twofactor.heading"), fr.t("twofactor.button"), fr.t("signin.heading")]).toEqual(["Double facteur", catalogue("fr")["twofactor.button"], "Connexion"])
    const ca = translatorForRequest(new Request("http://x/", inLanguage("fr-ca")), texts)
    expect([ca.lang, ca.t("twofactor.button"), ca.t("twofactor.heading"), ca.t("twofactor.code.label")]).toEqual(["fr-CA", "Go", "Double facteur", catalogue("fr")["twofactor.code.label"]])
    const de = translatorForRequest(new Request("http://x/", inLanguage("de-AT")), texts)
    expect([de.lang, de.t("native.button"), de.t("native.cancel"), de.t("signin.heading")]).toEqual(["DE", "Los", catalogue("de")["native.cancel"], "Anmelden"])
    const italian = translatorForRequest(new Request("http://x/", inLanguage("it")), texts)
    expect([italian.lang, italian.t("signin.heading"), italian.t("twofactor.heading")]).toEqual(["it", "Accedi", catalogue("en")["twofactor.heading"]])
    expect(translator("es", texts).t("twofactor.heading")).toBe(catalogue("es")["twofactor.heading"])
  })

  it("refuses unknown keys, non-string texts and keys that are not language tags, naming the option", async () => {
    const bad: [unknown, string][] = [
      [{ fr: { "signin.headline": "x" } }, '`messages.fr` has an unknown key "signin.headline"'],
      [{ fr: { "signin.heading": 42 } }, '`messages.fr["signin.heading"]` must be a string'],
      [{ "not a tag": {} }, '`messages` has a key "not a tag"'],
      [{ de: "Anmelden" }, "`messages.de` must be an object"],
      ["fr", "`messages` must be an object"],
    ]
    for (const [messages, problem] of bad) {
      const error = vi.fn()
      const res = await send(jwtConfig({ messages: messages as AuthConfig["messages"], logger: { error } }), "/auth/signin")
      expect(res.status).toBe(500)
      expect(error.mock.calls[0]![0].message).toContain(problem)
    }
  })
})
