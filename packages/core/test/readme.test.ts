/**
 * The README's quick-start example, extracted and run as written.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { afterAll, describe, expect, it, vi } from "vitest"
import type { AuthConfig } from "@sesame/core"
import { MemoryAdapter } from "@sesame/core/adapters"
import { aliceCredentials, CookieJar, secret, signInAlice } from "./helpers.js"

const root = join(import.meta.dirname, "..", "..", "..")
const scratch = join(import.meta.dirname, ".scratch")

/** The code block that follows `<!-- example: <name> ... -->` in a Markdown file. */
export function readmeExample(file: string, name: string): string {
  const text = readFileSync(file, "utf8")
  const marker = text.indexOf(`<!-- example: ${name}`)
  if (marker === -1) throw new Error(`no example "${name}" in ${file}`)
  const match = /```(?:ts|typescript)\n([\s\S]*?)```/.exec(text.slice(marker))
  if (!match) throw new Error(`example "${name}" has no code block`)
  return match[1]!
}

afterAll(() => {
  vi.unstubAllEnvs()
})

describe("package README: getToken", () => {
  it("runs as written: 401 without a session, the user id with one", async () => {
    vi.stubEnv("AUTH_SECRET", "readme-secret-0123456789-abcdefghijklmnop")
    mkdirSync(scratch, { recursive: true })
    const file = join(scratch, "get-token.ts")
    writeFileSync(file, readmeExample(join(root, "packages", "core", "README.md"), "get-token"))
    const { handler } = (await import(file)) as { handler: (r: Request) => Promise<Response> }
    expect((await handler(new Request("http://localhost:3000/api/me"))).status).toBe(401)
    const config = { trustHost: true, providers: [aliceCredentials()] }
    const jar = new CookieJar()
    await signInAlice(config, jar)
    const res = await handler(new Request("http://localhost:3000/api/me", { headers: { cookie: jar.header() } }))
    expect(await res.json()).toEqual({ userId: "1" })
  })
})

describe("README session management", () => {
  it("lists, revokes one and revokes the others, as written", async () => {
    mkdirSync(scratch, { recursive: true })
    const file = join(scratch, "session-management.ts")
    writeFileSync(file, readmeExample(join(root, "README.md"), "session-management"))
    const example = (await import(file)) as {
      devices: (r: Request, c: AuthConfig) => Promise<{ id: string; current: boolean }[] | null>
      signOutDevice: (r: Request, c: AuthConfig, id: string) => Promise<boolean>
      signOutEverywhereElse: (r: Request, c: AuthConfig) => Promise<number>
    }
    const config: AuthConfig = { secret, trustHost: true, adapter: MemoryAdapter(), providers: [aliceCredentials({ createUser: true })] }
    const jars = [new CookieJar(), new CookieJar(), new CookieJar()]
    for (const jar of jars) await signInAlice(config, jar)
    const me = new Request("http://localhost:3000/", { headers: { cookie: jars[0]!.header() } })
    const listed = (await example.devices(me, config))!
    expect(listed).toHaveLength(3)
    expect(await example.signOutDevice(me, config, listed.find((s) => !s.current)!.id)).toBe(true)
    expect(await example.signOutEverywhereElse(me, config)).toBe(1)
    expect(await example.devices(me, config)).toHaveLength(1)
  })
})

describe("README quick start", () => {
  it("runs as written: sign-in page, credentials sign-in, session", async () => {
    vi.stubEnv("AUTH_SECRET", "readme-secret-0123456789-abcdefghijklmnop")
    mkdirSync(scratch, { recursive: true })
    const file = join(scratch, "quick-start.ts")
    writeFileSync(file, readmeExample(join(root, "README.md"), "quick-start"))
    const app = (await import(file)).default as { fetch: (r: Request) => Promise<Response> }
    const jar = new CookieJar()
    const call = async (path: string, init: RequestInit = {}) => {
      const headers = new Headers(init.headers)
      headers.set("cookie", jar.header())
      const res = await app.fetch(new Request(`http://localhost:3000${path}`, { ...init, headers }))
      jar.apply(res)
      return res
    }
    const page = await (await call("/auth/signin")).text()
    expect(page).toContain('name="username"')
    const { csrfToken } = await (await call("/auth/csrf")).json()
    const signIn = await call("/auth/callback/credentials", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ csrfToken, username: "ada", password: "analytical engine" }).toString(),
    })
    expect(signIn.status).toBe(302)
    expect(await (await call("/auth/session")).json()).toMatchObject({ user: { name: "Ada", email: "ada@example.com", image: null } })
  })
})
