/**
 * Plugins' parts of another plugin's page (`SesameModule.sections`, shown by the page's plugin with
 * `request.sections(place, input)`): in the configured order, each with its own request and texts;
 * a part that throws or answers something else than `html` left out and logged; a plugin shows only
 * its own places; a part names another plugin's place, well formed.
 */
import { Auth, html, type AuthConfig, type ModuleSection, type SesameModule } from "@sesame/core"
import { MemoryAdapter } from "@sesame/core/adapters"
import { describe, expect, it } from "vitest"
import { aliceCredentials, origin, recordingLogger, secret } from "../helpers.js"

/** The page's plugin: `GET host/page?place=…` shows the parts of `place` about `{ id: "42" }`. */
const host: SesameModule = {
  id: "host",
  routes: {
    "GET host/page": {
      run: async (request) => {
        const parts = await request.sections(typeof request.query.place === "string" ? request.query.place : "host.page", { id: "42" })
        return { page: { title: "Host", body: html`<h1>Host</h1>${parts}` } }
      },
    },
  },
}

const guest = (id: string, section: ModuleSection): SesameModule => ({
  id,
  sections: { "host.page": section },
  messages: { en: { [`${id}.hello`]: `Hello from ${id}` } },
})

function app(plugins: SesameModule[]) {
  const { lines, logger } = recordingLogger()
  const config: AuthConfig = { secret, trustHost: true, adapter: MemoryAdapter(), providers: [aliceCredentials()], plugins, logger }
  const get = async (query = "") => Auth(new Request(`${origin}/auth/host/page${query}`), config)
  return { lines, get }
}

describe("sections", () => {
  it("shows the other plugins' parts in the configured order, each with its own texts and the input", async () => {
    const { get } = app([host, guest("b", (request, input) => html`<h2>${request.text("b.hello")} ${input.id}</h2>`), guest("a", (request) => html`<h2>${request.text("a.hello")}</h2>`)])
    const text = await (await get()).text()
    expect(text).toMatch(/<h2>Hello from b 42<\/h2><h2>Hello from a<\/h2>/)
  })

  it("leaves out and logs a part that throws or is not made with html; null shows nothing", async () => {
    const { get, lines } = app([
      host,
      guest("thrower", () => {
        throw new Error("part broke")
      }),
      guest("raw", () => "<script>alert(1)</script>" as never),
      guest("quiet", () => null),
      guest("fine", () => html`<h2>still here</h2>`),
    ])
    const response = await get()
    expect(response.status).toBe(200)
    const text = await response.text()
    expect(text).toContain("<h2>still here</h2>")
    expect(text).not.toContain("alert(1)")
    expect(lines.join("\n")).toMatch(/part broke/)
    expect(lines.join("\n")).toMatch(/"raw"'s section of "host.page" was not made with `html`/)
  })

  it("a plugin shows its own places only", async () => {
    const { get, lines } = app([host, guest("a", () => html`<h2>a</h2>`)])
    const response = await get("?place=a.page")
    expect(response.status).toBe(302)
    expect(response.headers.get("location")).toBe(`${origin}/auth/error?error=Configuration`)
    expect(lines.join("\n")).toMatch(/shows sections of its own places only/)
  })

  it.each([
    ["its own place", { id: "a", sections: { "a.page": () => null } }],
    ["a malformed place", { id: "a", sections: { "host page": () => null } }],
    ["a part that is no function", { id: "a", sections: { "host.page": "<h2>" } }],
  ])("refuses %s at start-up", async (_, plugin) => {
    const { get, lines } = app([host, plugin as SesameModule])
    expect((await get()).status).toBe(500)
    expect(lines.join("\n")).toMatch(/section "(a\.page|host page|host\.page)" must/)
  })
})
