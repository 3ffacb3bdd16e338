/**
 * docs/features/audit.md and the package README: their examples, run as written.
 */
import { callModuleApi, type AuthConfig } from "@sesame/core"
import { readmeExample } from "@sesame/testing"
import { mkdirSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { afterEach, describe, expect, it, vi } from "vitest"
import { CookieJar, csrfToken, request, send } from "../../core/test/helpers.js"
import { clientHeaders, clientIp } from "../../core/test/security/scenario.js"

const root = join(import.meta.dirname, "..", "..", "..")
const page = join(root, "docs", "features", "audit.md")
const scratch = join(import.meta.dirname, ".scratch")

/** Writes the example to a file of its own (its `saved as` name, so that examples import each other) and imports it. */
async function load(file: string, name: string): Promise<any> {
  mkdirSync(scratch, { recursive: true })
  const path = join(scratch, `${name}.ts`)
  writeFileSync(path, readmeExample(file, name))
  return import(path)
}

async function signIn(config: AuthConfig, username: string): Promise<CookieJar> {
  const jar = new CookieJar()
  const response = await send(config, "/auth/callback/credentials", { jar, form: { csrfToken: await csrfToken(config, jar), username }, headers: clientHeaders })
  expect(response.status).toBe(302)
  return jar
}

const as = (jar: CookieJar) => request("/account", { jar, headers: clientHeaders })

afterEach(() => {
  vi.unstubAllEnvs()
  vi.unstubAllGlobals()
})

describe("docs/features/audit.md", () => {
  it("the setup, the readers and a plugin's own event: the user sees their events, the security team everyone's, nobody else", async () => {
    vi.stubEnv("AUTH_SECRET", "docs-audit-secret-0123456789abcdefghijklmnop")
    const setup = await load(page, "audit-setup")
    const reading = await load(page, "audit-reading")
    const { bans } = await load(page, "audit-plugin-event")
    const config: AuthConfig = { ...setup.config, plugins: [...setup.config.plugins, bans] }
    const ada = await signIn(config, "ada")
    const security = await signIn(config, "security")
    const adaId = ((await (await send(config, "/auth/session", { jar: ada })).json()) as { user: { email: string } }).user.email
    expect(adaId).toBe("ada@example.com")

    const activity: string[] = await reading.recentActivity(as(ada), config)
    expect(activity).toHaveLength(2)
    expect(activity[0]).toMatch(new RegExp(`^\\d{4}-\\d\\d-\\d\\dT.* sign-in from ${clientIp.replace(/\./g, "\\.")}$`))
    expect(activity[1]).toMatch(/ user\.created from /)
    expect(await reading.recentActivity(new Request("http://localhost:3000/"), config)).toBeNull()

    // The support tool's plugin bans Ada: the log names the agent, Ada, the ticket, never more.
    const mine = (await callModuleApi(as(ada), config, "myAuditLog")) as { events: { userId: string }[] }
    const adaUserId = mine.events[0]!.userId
    await callModuleApi(as(security), config, "banUser", adaUserId, "TICKET-42")
    const log = (await callModuleApi(as(security), config, "auditLog", { userId: adaUserId, type: "bans.user-banned" })) as { events: unknown[] }
    expect(log.events).toEqual([expect.objectContaining({ type: "bans.user-banned", userId: adaUserId, ip: clientIp, details: { ticket: "TICKET-42", sessionsEnded: 1 } })])
    expect(await reading.failedSignIns(as(security), config, adaUserId)).toEqual([])
    expect(await reading.failedSignIns(as(ada), config, adaUserId)).toBeNull()
  })

  it("the webhook: what the app sends, the receiver's verify accepts, and refuses once tampered with", async () => {
    const secret = `whsec_${Buffer.from("a shared secret of 32 bytes, ok!").toString("base64")}`
    vi.stubEnv("AUTH_SECRET", "docs-audit-secret-0123456789abcdefghijklmnop")
    vi.stubEnv("AUDIT_WEBHOOK_SECRET", secret)
    const sent: Request[] = []
    vi.stubGlobal("fetch", async (input: string | URL | Request, init?: RequestInit) => {
      sent.push(new Request(input, init))
      return new Response(null, { status: 204 })
    })
    const { auditModule, verify } = await load(page, "audit-webhook")
    const setup = await load(page, "audit-setup")
    const config: AuthConfig = { ...setup.config, plugins: [auditModule] }
    // A new user (the setup's adapter is the first test's): two events, two deliveries.
    const jar = await signIn(config, "bea")
    expect(await callModuleApi(as(jar), config, "deliverAuditWebhooks")).toEqual({ delivered: 0, failed: 0, pending: 0 })
    expect(sent.map((r) => r.url)).toEqual(["https://siem.example.com/hooks/sesame", "https://siem.example.com/hooks/sesame"])
    for (const request of sent) {
      const body = await request.text()
      expect(verify(secret, request.headers, body)).toBe(true)
      expect(verify(secret, request.headers, body.replace(`"type"`, `"kind"`))).toBe(false)
      expect(JSON.parse(body)).toMatchObject({ data: { ip: clientIp, userAgent: clientHeaders["user-agent"] } })
    }
  })
})

describe("the package README", () => {
  it("its configuration resolves, with the module's endpoints", async () => {
    vi.stubEnv("AUTH_SECRET", "docs-audit-secret-0123456789abcdefghijklmnop")
    const { config } = await load(join(root, "packages", "audit", "README.md"), "readme")
    expect((await send(config, "/auth/audit/me")).status).toBe(401)
    expect((await send(config, "/auth/audit/events")).status).toBe(401)
  })
})
