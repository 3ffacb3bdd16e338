/**
 * The README's examples: the TypeScript ones extracted and run as written (with `~/lib/auth`
 * pointing at the extracted configuration), the others compared with the files that end-to-end
 * tests run: the example app's (on both SolidStart versions) and docs/start/solid-start.md's (the
 * newcomer test builds a fresh app from them). The repository README's SolidStart quick start is
 * checked to be the guide's, block for block.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest"
import { provideRequestEvent } from "solid-js/web/storage"
import type { SolidAuthConfig, SolidAuthHandlers } from "@sesame/solid-start"
import { readmeExample } from "@sesame/testing"
import { call, CookieJar, event, request } from "./helpers.js"

const root = join(import.meta.dirname, "..", "..", "..")
const readme = join(import.meta.dirname, "..", "README.md")
const guide = join(root, "docs", "start", "solid-start.md")
const exampleApp = join(root, "examples", "solid-start", "src")
const scratch = join(import.meta.dirname, ".scratch")


/** The code block that follows `<!-- example: <name> (…) -->` in `file`, without a list item's indentation. */
function markedBlock(file: string, name: string): string {
  const match = new RegExp(`<!-- example: ${name} \\([^)]*\\) -->\\n([ ]*)\`\`\`\\w+\\n([\\s\\S]*?)^\\1\`\`\``, "m").exec(readFileSync(file, "utf8"))
  if (!match) throw new Error(`no example "${name}" in ${file}`)
  return match[2]!.replace(new RegExp(`^${match[1]!}`, "gm"), "")
}

/** Writes the example to the scratch folder (`~/lib/auth` → the extracted configuration) and imports it. */
async function importExample<T>(name: string): Promise<T> {
  const file = join(scratch, `${name}.ts`)
  writeFileSync(file, readmeExample(readme, name).replaceAll('"~/lib/auth"', '"./auth-config.ts"'))
  return (await import(file)) as T
}

beforeAll(() => {
  mkdirSync(scratch, { recursive: true })
  vi.stubEnv("AUTH_SECRET", "readme-secret-0123456789-abcdefghijklmnop")
  vi.stubEnv("AUTH_MY_IDP_ISSUER", "https://idp.example.com")
  vi.stubEnv("AUTH_MY_IDP_ID", "my-app")
  vi.stubEnv("AUTH_MY_IDP_SECRET", "my-app-secret-0123456789")
})

afterAll(() => {
  vi.unstubAllEnvs()
})

describe("README examples", () => {
  it("configuration and route: the providers (one from the environment), a sign-in and the session", async () => {
    const { authConfig } = await importExample<{ authConfig: SolidAuthConfig }>("auth-config")
    const handlers = await importExample<SolidAuthHandlers>("route")
    const providers = (await (await call(handlers, "/api/auth/providers")).json()) as Record<string, { signinUrl: string }>
    expect(Object.keys(providers)).toEqual(["credentials", "my-idp"])
    expect(providers["my-idp"]?.signinUrl).toBe("http://localhost:3000/api/auth/signin/my-idp")

    const jar = new CookieJar()
    const { csrfToken } = (await (await call(handlers, "/api/auth/csrf", { jar })).json()) as { csrfToken: string }
    await call(handlers, "/api/auth/callback/credentials", { jar, form: { csrfToken, email: "ada@example.com", password: "analytical engine" } })
    const session = (await (await call(handlers, "/api/auth/session", { jar })).json()) as { user: { name: string } }
    expect(session.user.name).toBe("Ada")
    expect(authConfig.prefix).toBeUndefined()
  })

  it("server guard: the server functions read the session of the request they run in", async () => {
    await importExample("auth-config")
    const handlers = await importExample<SolidAuthHandlers>("route")
    const guard = await importExample<{ currentSession(): Promise<unknown>; accountSession(): Promise<{ user: { email: string } }> }>("server-guard")
    const inRequest = <T>(req: Request, fn: () => Promise<T>) =>
      provideRequestEvent({ ...event(req), locals: {}, response: { headers: new Headers() } } as unknown as Parameters<typeof provideRequestEvent>[0], fn)

    const signedOut = request("/account")
    expect(await inRequest(signedOut, () => guard.currentSession())).toBeNull()
    const redirect = await inRequest(signedOut, () => guard.accountSession()).catch((e: unknown) => e)
    expect(redirect).toBeInstanceOf(Response)
    // The built-in sign-in page, with the way back to the page asked for.
    expect((redirect as Response).headers.get("location")).toBe("http://localhost:3000/api/auth/signin?callbackUrl=%2Faccount")

    const jar = new CookieJar()
    const { csrfToken } = (await (await call(handlers, "/api/auth/csrf", { jar })).json()) as { csrfToken: string }
    await call(handlers, "/api/auth/callback/credentials", { jar, form: { csrfToken, email: "ada@example.com", password: "analytical engine" } })
    const account = await inRequest(request("/account", { jar }), () => guard.accountSession())
    expect(account.user.email).toBe("ada@example.com")
  })

  it("account functions: listed, password changed and account closed for the request's user, as written", async () => {
    // The example's `~/lib/auth`, here a configuration with an adapter and a password provider.
    writeFileSync(
      join(scratch, "account-auth.ts"),
      `import { MemoryAdapter } from "@sesame/core/adapters"
import Password from "@sesame/core/providers/password"
import { argon2id } from "@sesame/core/password"
import type { SolidAuthConfig } from "@sesame/solid-start"
export const authConfig: SolidAuthConfig = {
  adapter: MemoryAdapter(),
  providers: [Password({ sendEmail: () => {}, requireEmailVerification: false, hasher: argon2id({ memoryCost: 64, timeCost: 1 }) })],
}
`,
    )
    const file = join(scratch, "account.ts")
    writeFileSync(file, readmeExample(readme, "account").replaceAll('"~/lib/auth"', '"./account-auth.ts"'))
    const account = (await import(file)) as Record<"linkedAccounts" | "closeAccount" | "secondFactor" | "dangerZone", () => Promise<unknown>> & {
      newPassword(current: string, next: string): Promise<unknown>
    }
    const { authConfig } = (await import(join(scratch, "account-auth.ts"))) as { authConfig: SolidAuthConfig }
    const { SolidAuth } = await import("@sesame/solid-start")
    const handlers = SolidAuth(authConfig)
    const jar = new CookieJar()
    const { csrfToken } = (await (await call(handlers, "/api/auth/csrf", { jar })).json()) as { csrfToken: string }
    await call(handlers, "/api/auth/signup/password", { jar, form: { csrfToken, email: "ada@example.com", password: "analytical engine" } })
    const inRequest = <T>(fn: () => Promise<T>) =>
      provideRequestEvent({ ...event(request("/account", { jar })), locals: {}, response: { headers: new Headers() } } as unknown as Parameters<typeof provideRequestEvent>[0], fn)
    expect(await inRequest(() => account.linkedAccounts())).toEqual([])
    expect(await inRequest(() => account.newPassword("wrong guess", "difference engine"))).toEqual({ changed: false, reason: "WrongPassword" })
    expect(await inRequest(() => account.newPassword("analytical engine", "difference engine"))).toEqual({ changed: true, sessionsEnded: 0 })
    expect(await inRequest(() => account.secondFactor())).toEqual({ enabled: false, method: null, recoveryCodesLeft: 0, settingsUrl: "http://localhost:3000/api/auth/two-factor/setup" })
    expect(await inRequest(() => account.dangerZone())).toBe("ok")
    const now = Date.now()
    vi.spyOn(Date, "now").mockReturnValue(now + 6 * 60_000)
    const stale = await inRequest(() => account.dangerZone()).catch((thrown: unknown) => thrown)
    vi.restoreAllMocks()
    expect((stale as Response).headers.get("location")).toBe(`http://localhost:3000/api/auth/reauthenticate?callbackUrl=${encodeURIComponent("http://localhost:3000/account")}`)
    expect(await inRequest(() => account.closeAccount())).toEqual({ deleted: true })
    expect(await inRequest(() => account.linkedAccounts())).toBeNull()
  })

  it("when the database is down: the session, null, or \"unavailable\" while the storage cannot be reached", async () => {
    // The example's `~/lib/auth`, here database sessions on an adapter whose storage goes down.
    writeFileSync(
      join(scratch, "outage-auth.ts"),
      `import { MemoryAdapter } from "@sesame/core/adapters"
import Credentials from "@sesame/core/providers/credentials"
import { outage } from "@sesame/testing"
import type { SolidAuthConfig } from "@sesame/solid-start"
export const storage = outage(MemoryAdapter())
export const authConfig: SolidAuthConfig = {
  adapter: storage.adapter,
  session: { strategy: "database" },
  logger: { error: () => {}, warn: () => {}, debug: () => {} },
  providers: [Credentials({ createUser: true, authorize: ({ email }) => (email === "ada@example.com" ? { id: "1", name: "Ada", email } : null) })],
}
`,
    )
    const file = join(scratch, "session-or-unavailable.ts")
    writeFileSync(file, readmeExample(readme, "session-or-unavailable").replaceAll('"~/lib/auth"', '"./outage-auth.ts"'))
    const { sessionOrUnavailable } = (await import(file)) as { sessionOrUnavailable(): Promise<unknown> }
    const { authConfig, storage } = (await import(join(scratch, "outage-auth.ts"))) as { authConfig: SolidAuthConfig; storage: { down(): void; up(): void } }
    const { SolidAuth } = await import("@sesame/solid-start")
    const handlers = SolidAuth(authConfig)
    const jar = new CookieJar()
    const { csrfToken } = (await (await call(handlers, "/api/auth/csrf", { jar })).json()) as { csrfToken: string }
    await call(handlers, "/api/auth/callback/credentials", { jar, form: { csrfToken, email: "ada@example.com" } })
    const inRequest = <T>(req: Request, fn: () => Promise<T>) =>
      provideRequestEvent({ ...event(req), locals: {}, response: { headers: new Headers() } } as unknown as Parameters<typeof provideRequestEvent>[0], fn)

    expect(await inRequest(request("/"), () => sessionOrUnavailable())).toBeNull()
    expect(await inRequest(request("/", { jar }), () => sessionOrUnavailable())).toMatchObject({ user: { name: "Ada" } })
    storage.down()
    expect(await inRequest(request("/", { jar }), () => sessionOrUnavailable())).toBe("unavailable")
    storage.up()
    expect(await inRequest(request("/", { jar }), () => sessionOrUnavailable())).toMatchObject({ user: { name: "Ada" } })
  })

  it("the route and the account page are the guide's (which the newcomer test builds)", () => {
    expect(readmeExample(readme, "route")).toBe(markedBlock(guide, "route"))
    expect(markedBlock(readme, "account-page")).toBe(markedBlock(guide, "account"))
  })

  it("middleware and client: the README shows the example app's files as they are", () => {
    expect(readmeExample(readme, "middleware")).toBe(readFileSync(join(exampleApp, "middleware.ts"), "utf8"))
    expect(readmeExample(readme, "client")).toBe(readFileSync(join(exampleApp, "components", "Nav.tsx"), "utf8"))
  })
})
