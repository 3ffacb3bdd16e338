/**
 * A plugin's pages (`ModuleResponse.page`): shown in the built-in pages' document with their
 * headers (a CSP with no script, no framing, no cache), in the visitor's language from the plugin's
 * texts under the app's overrides, with a CSRF token for its forms; markup the plugin did not make
 * with `html` is refused, and what it interpolates is escaped.
 */
import { Auth, callModuleApi, html, type AuthConfig, type SesameModule } from "@sesame/core"
import { describe, expect, it } from "vitest"
import { CookieJar, aliceCredentials, origin, recordingLogger, secret, send } from "../helpers.js"

const greeting: SesameModule = {
  id: "greeting",
  messages: {
    en: { "greeting.title": "Hello", "greeting.to": "Hello, {name}", "greeting.only-english": "Only in English" },
    fr: { "greeting.title": "Bonjour", "greeting.to": "Bonjour, {name}" },
  },
  routes: {
    "GET greeting": {
      async run(request) {
        const name = request.query.name ?? "you"
        const csrf = await request.csrfToken()
        return {
          page: {
            title: request.text("greeting.title"),
            body: html`<h1>${request.text("greeting.to", { name })}</h1><p>${request.text("greeting.only-english")}</p>
<form action="${request.url.pathname}/said" method="POST"><input type="hidden" name="csrfToken" value="${csrf}"><button>${request.lang}</button></form>`,
            width: "wide",
          },
        }
      },
    },
    "GET greeting/raw": { run: () => ({ page: { title: "Raw", body: "<script>alert(1)</script>" as never } }) },
    "POST greeting/said": { run: () => ({ redirect: "/auth/greeting" }) },
  },
  api: {
    async token(request) {
      return request.csrfToken()
    },
  },
}

function config(overrides: Partial<AuthConfig> = {}): AuthConfig {
  return { secret, trustHost: true, providers: [aliceCredentials()], plugins: [greeting], ...overrides }
}

describe("a plugin's page", () => {
  it("is the built-in pages' document: their headers, the plugin's texts in the visitor's language, a working CSRF token", async () => {
    const jar = new CookieJar()
    const response = await send(config(), "/auth/greeting?name=Ada", { jar, headers: { "accept-language": "fr-CA,fr;q=0.9" } })
    expect(response.status).toBe(200)
    expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8")
    expect(response.headers.get("content-language")).toBe("fr")
    expect(response.headers.get("content-security-policy")).toMatch(/^default-src 'none'; style-src 'nonce-[^']+'; img-src 'self' data:; base-uri 'none'; frame-ancestors 'none'$/)
    expect(response.headers.get("x-frame-options")).toBe("DENY")
    expect(response.headers.get("cache-control")).toContain("no-store")
    const body = await response.text()
    expect(body).toContain('<html lang="fr"')
    expect(body).toContain("<title>Bonjour</title>")
    expect(body).toContain("<h1>Bonjour, Ada</h1>")
    // A text French leaves out is English's.
    expect(body).toContain("<p>Only in English</p>")
    expect(body).toContain('<main class="wide">')
    // The form's token goes with the cookie the answer set: the POST passes the CSRF check.
    const token = /name="csrfToken" value="([^"]+)"/.exec(body)![1]!
    const posted = await send(config(), "/auth/greeting/said", { jar, form: { csrfToken: token } })
    expect(posted.status).toBe(302)
    expect(posted.headers.get("location")).toBe(`${origin}/auth/greeting`)
  })

  it("without the token its form is refused (the legitimate one above passes)", async () => {
    const response = await send(config(), "/auth/greeting/said", { jar: new CookieJar(), form: { csrfToken: "forged" } })
    expect(response.headers.get("location")).toBe(`${origin}/auth/signin?error=MissingCSRF`)
  })

  it("escapes what it interpolates: a name cannot become markup", async () => {
    const body = await (await send(config(), `/auth/greeting?name=${encodeURIComponent('<img src=x onerror=alert(1)>"')}`)).text()
    expect(body).toContain("<h1>Hello, &lt;img src=x onerror=alert(1)&gt;&quot;</h1>")
    expect(body).not.toContain("<img src=x")
  })

  it("the app's messages override the plugin's texts, and may add a language", async () => {
    const messages = { en: { "greeting.title": "Hi there" }, "pt-BR": { "greeting.to": "Olá, {name}" } }
    const english = await (await send(config({ messages }), "/auth/greeting?name=Ada")).text()
    expect(english).toContain("<title>Hi there</title>")
    const portuguese = await send(config({ messages }), "/auth/greeting?name=Ada", { headers: { "accept-language": "pt-BR" } })
    expect(portuguese.headers.get("content-language")).toBe("pt-BR")
    expect(await portuguese.text()).toContain("<h1>Olá, Ada</h1>")
  })

  it("markup not made with html is refused: the error page (Configuration), never the markup", async () => {
    const { logger, lines } = recordingLogger()
    const response = await send(config({ logger }), "/auth/greeting/raw")
    expect(response.headers.get("location")).toBe(`${origin}/auth/error?error=Configuration`)
    expect(await response.text()).not.toContain("<script>alert(1)</script>")
    expect(lines.join("\n")).toMatch(/made with `html`/)
  })

  it("a server function gets no CSRF token: its caller sends no cookie on", async () => {
    await expect(callModuleApi(new Request(`${origin}/app`), config(), "token")).rejects.toThrow(/CSRF token is for a page's form/)
  })
})

describe("a plugin's texts are checked with the configuration", () => {
  const refused = async (messages: unknown, appMessages?: unknown) => {
    const { logger, lines } = recordingLogger()
    const plugin = { ...greeting, messages } as SesameModule
    const response = await Auth(new Request(`${origin}/auth/session`), config({ plugins: [plugin], logger, ...(appMessages ? { messages: appMessages as never } : {}) }))
    return { status: response.status, log: lines.join("\n") }
  }

  it("English is needed, keys are the plugin's own, texts are strings, other languages add no key", async () => {
    expect(await refused({ fr: { "greeting.title": "Bonjour" } })).toMatchObject({ status: 500, log: expect.stringMatching(/needs English/) })
    expect(await refused({ en: { "signin.heading": "Hi" } })).toMatchObject({ status: 500, log: expect.stringMatching(/must start with "greeting\."/) })
    expect(await refused({ en: { "greeting.title": 1 } })).toMatchObject({ status: 500, log: expect.stringMatching(/must be a string/) })
    expect(await refused({ en: { "greeting.title": "Hi" }, fr: { "greeting.other": "Autre" } })).toMatchObject({ status: 500, log: expect.stringMatching(/"greeting\.other", which English does not/) })
    expect(await refused({ "not a tag": {} , en: {} })).toMatchObject({ status: 500, log: expect.stringMatching(/not a language tag/) })
  })

  it("the app overrides only keys that exist", async () => {
    expect(await refused(greeting.messages, { en: { "greeting.typo": "x" } })).toMatchObject({ status: 500, log: expect.stringMatching(/unknown key "greeting\.typo"/) })
    expect((await refused(greeting.messages, { en: { "greeting.title": "x" } })).status).toBe(200)
  })
})
