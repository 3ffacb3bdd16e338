/**
 * The README's examples, run as written: the configuration and the app of the quick start (its
 * `app.listen(3000)` made to listen on a free port), on Express 5 and on Express 4, driven over
 * HTTP through every route it shows and attacked with another site's posts to its sign-in and
 * sign-out routes; the proxy example with a proxy's headers; and the outage example with database
 * sessions on a memory adapter that goes down.
 */
import { mkdirSync, writeFileSync } from "node:fs"
import type { Server } from "node:http"
import type { AddressInfo } from "node:net"
import { join } from "node:path"
import type { Express } from "express"
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest"
import { CookieJar, send, serve, signInAlice, type Served } from "./helpers.js"
import { readmeExample, type Outage } from "@sesame/testing"

const readmeFile = join(import.meta.dirname, "..", "README.md")
const scratch = join(import.meta.dirname, ".scratch")


/** Writes the example to the scratch folder as `file` (its `./auth.js` import is the extracted configuration) and imports it. */
async function importExample<T>(name: string, file: string, edit: (code: string) => string = (code) => code): Promise<T> {
  const path = join(scratch, file)
  writeFileSync(path, edit(readmeExample(readmeFile, name)).replaceAll('"./auth.js"', '"./auth.ts"'))
  return (await import(path)) as T
}

const servers: Server[] = []

beforeAll(() => {
  mkdirSync(scratch, { recursive: true })
  vi.stubEnv("AUTH_SECRET", "readme-secret-0123456789-abcdefghijklmnop")
  vi.stubEnv("AUTH_MY_IDP_ISSUER", "https://idp.example.com")
  vi.stubEnv("AUTH_MY_IDP_ID", "my-app")
  vi.stubEnv("AUTH_MY_IDP_SECRET", "my-app-secret-0123456789")
})

afterAll(async () => {
  vi.unstubAllEnvs()
  await Promise.all(
    servers.map((server) => {
      server.closeAllConnections()
      return new Promise((resolve) => server.close(resolve))
    }),
  )
})

const quickStarts = new Map<string, Promise<Served>>()

/** The quick start's app, on the Express of `module` (`express` or `express4`), listening on a free port: started once per module. */
function quickStart(module: string): Promise<Served> {
  let started = quickStarts.get(module)
  if (!started) quickStarts.set(module, (started = startQuickStart(module)))
  return started
}

async function startQuickStart(module: string): Promise<Served> {
  await importExample("auth-config", "auth.ts")
  const { server } = await importExample<{ server: Server }>("server", `server-${module}.ts`, (code) => {
    expect(code).toContain("app.listen(3000)")
    expect(code).toContain('from "express"\n')
    return code.replace('from "express"\n', `from "${module}"\n`).replace("app.listen(3000)", 'export const server = app.listen(0, "127.0.0.1")')
  })
  servers.push(server)
  if (!server.listening) await new Promise((resolve) => server.once("listening", resolve))
  const port = (server.address() as AddressInfo).port
  return { origin: `http://127.0.0.1:${port}`, port }
}

describe.each([
  { label: "Express 5", module: "express" },
  { label: "Express 4", module: "express4" },
])("README examples on $label", ({ module }) => {
  it("quick start: every route of the app, signed out, with a wrong and a right password, signed in, signed out", async () => {
    const served = await quickStart(module)

    const providers = (await (await send(served, "/auth/providers")).json()) as Record<string, unknown>
    expect(Object.keys(providers)).toEqual(["credentials", "my-idp"])
    expect(await (await send(served, "/")).text()).toBe("Hello, stranger")
    const guarded = await send(served, "/account")
    expect(guarded.status).toBe(303)
    expect(guarded.headers.get("location")).toBe(`${served.origin}/auth/signin?callbackUrl=%2Faccount`)
    expect((await send(served, "/api/me", { headers: { accept: "application/json" } })).status).toBe(401)

    const jar = new CookieJar()
    const wrong = await send(served, "/login", { jar, form: { email: "ada@example.com", password: "difference engine" } })
    expect(wrong.status).toBe(401)
    expect(await wrong.text()).toBe("Wrong email or password")
    const signedIn = await send(served, "/login", { jar, form: { email: "ada@example.com", password: "analytical engine" } })
    expect(signedIn.headers.get("location")).toBe(`${served.origin}/account`)
    expect(await (await send(served, "/", { jar })).text()).toBe("Hello, Ada")
    expect(await (await send(served, "/account", { jar })).text()).toBe("Signed in as ada@example.com")
    expect(await (await send(served, "/api/me", { jar })).json()).toMatchObject({ name: "Ada", email: "ada@example.com" })

    const signedOut = await send(served, "/logout", { jar, method: "POST" })
    expect(signedOut.headers.get("location")).toBe(`${served.origin}/`)
    expect(await (await send(served, "/", { jar })).text()).toBe("Hello, stranger")
  })

  it("quick start: another site's posts to /login and /logout are refused with a 403 without a stack trace, and the server stays up", async () => {
    const served = await quickStart(module)
    const jar = new CookieJar()
    await send(served, "/login", { jar, form: { email: "ada@example.com", password: "analytical engine" } })
    const crossSite = { origin: "https://evil.example", "sec-fetch-site": "cross-site" }
    // Before the README's routes passed errors to `next`, Express 4 never answered these: Node.js
    // ended the process on the unhandled rejection.
    for (const [path, form] of [
      ["/logout", {}],
      ["/login", { email: "ada@example.com", password: "analytical engine" }],
    ] as const) {
      const refused = await send(served, path, { jar, form, headers: crossSite })
      expect(refused.status).toBe(403)
      expect(await refused.text()).toBe("Refused")
    }
    // Still signed in, and still served.
    expect(await (await send(served, "/", { jar })).text()).toBe("Hello, Ada")
  })
})

describe("README examples", () => {

  it("behind a proxy: the origin is the proxy's forwarded host", async () => {
    await importExample("auth-config", "auth.ts")
    const { app } = await importExample<{ app: Express }>("proxy", "proxy.ts")
    const served = await serve(app)
    const response = await send(served, "/account", { headers: { "x-forwarded-host": "app.example.com", "x-forwarded-proto": "https" } })
    expect(response.headers.get("location")).toBe("https://app.example.com/auth/signin?callbackUrl=%2Faccount")
  })

  it("when the database is down: the public page, the page that catches, the guard's 503, sessionLocals through unavailableHandler; the session back after", async () => {
    // The example's configuration, on database sessions in a memory adapter that can go down.
    writeFileSync(
      join(scratch, "outage-auth.ts"),
      [
        'import { MemoryAdapter } from "@sesame/core/adapters"',
        'import { outage } from "@sesame/testing"',
        'import { aliceCredentials, secret } from "../helpers.ts"',
        "export const storage = outage(MemoryAdapter())",
        'export const authConfig = { secret, adapter: storage.adapter, session: { strategy: "database" as const }, providers: [aliceCredentials({ createUser: true })], logger: { error() {}, warn() {}, debug() {} } }',
      ].join("\n"),
    )
    const { storage } = (await import(join(scratch, "outage-auth.ts"))) as { storage: Outage<object> }
    const { app } = await importExample<{ app: Express }>("outage", "outage.ts", (code) => code.replaceAll('"./auth.js"', '"./outage-auth.ts"'))
    const served = await serve(app)
    const jar = new CookieJar()
    await signInAlice(served, jar)
    const page = { accept: "text/html" }
    expect(await (await send(served, "/", { jar })).text()).toBe("Hello, Alice")
    expect(await (await send(served, "/dashboard", { jar })).text()).toBe("Dashboard of Alice")

    storage.down()
    expect(await (await send(served, "/about", { jar })).text()).toBe("About us")
    expect(await (await send(served, "/", { jar })).text()).toBe("Hello! (Your account is out of reach for a moment.)")
    for (const path of ["/account", "/dashboard"]) {
      const down = await send(served, path, { jar, headers: page })
      expect(down.status).toBe(503)
      expect(down.headers.get("retry-after")).toBe("3")
      expect(await down.text()).toContain("Try again in a moment")
      const script = await send(served, path, { jar, headers: { accept: "application/json" } })
      expect(script.status).toBe(503)
      expect(await script.json()).toMatchObject({ error: "StorageUnavailable" })
    }

    storage.up()
    expect(await (await send(served, "/account", { jar })).text()).toBe("Signed in as alice@example.com")
  })
})
