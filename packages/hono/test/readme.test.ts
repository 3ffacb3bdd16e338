/**
 * The README's examples, extracted and run as written: the quick start's app through
 * `app.request()`, its Node.js server on a real port (the one change: port 0, and the server kept
 * to close it), the route that calls `assertSession`, and the worker reading its bindings. The
 * repository README's Hono quick start is checked to be the package README's, block for block. The
 * outage example runs on database sessions in a memory adapter that goes down.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import type { AddressInfo } from "node:net"
import { join } from "node:path"
import type { Hono } from "hono"
import type { ServerType } from "@hono/node-server"
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest"
import type { Outage } from "@sesame/testing"
import { call, CookieJar, origin, users } from "./helpers.js"

const readme = join(import.meta.dirname, "..", "README.md")
const scratch = join(import.meta.dirname, ".scratch", "readme")

/** The code block that follows `<!-- example: <name> (…) -->` in `file`. */
function example(file: string, name: string): string {
  const match = new RegExp(`<!-- example: ${name} \\([^)]*\\) -->\\n\`\`\`\\w+\\n([\\s\\S]*?)^\`\`\``, "m").exec(readFileSync(file, "utf8"))
  if (!match) throw new Error(`no example "${name}" in ${file}`)
  return match[1]!
}

/** Writes the example as `<file>` in the scratch folder (where they import each other) and imports it. */
async function run<T>(name: string, file: string, edit: (code: string) => string = (code) => code): Promise<T> {
  const path = join(scratch, file)
  writeFileSync(path, edit(example(readme, name)))
  return (await import(path)) as T
}

let app: Hono

beforeAll(async () => {
  rmSync(scratch, { recursive: true, force: true })
  mkdirSync(scratch, { recursive: true })
  vi.stubEnv("AUTH_SECRET", "readme-secret-0123456789-abcdefghijklmnop")
  // Every route is added before the app answers its first request, as in an app's start-up.
  ;({ app } = await run<{ app: Hono }>("quick-start", "app.ts"))
  await run("assert-session", "billing.ts")
})
afterAll(() => {
  vi.unstubAllEnvs()
  rmSync(scratch, { recursive: true, force: true })
})

describe("README examples", () => {
  it("quick start: the guard, the app's own sign-in form, the session, the JSON guard, sign-out", async () => {
    const jar = new CookieJar()
    const turnedAway = await call(app, "/account", { jar })
    expect(turnedAway.headers.get("location")).toBe(`${origin}/auth/signin?callbackUrl=%2Faccount`)
    expect(await (await call(app, turnedAway.headers.get("location")!, { jar })).text()).toContain("Sign in")
    expect((await call(app, "/api/me", { jar, headers: { accept: "application/json" } })).status).toBe(401)

    const wrong = await call(app, "/login", { jar, form: { email: "ada@example.com", password: "difference engine" } })
    expect(wrong.status).toBe(401)
    expect(await wrong.text()).toBe("Wrong email or password")
    const signedIn = await call(app, "/login", { jar, form: { email: "ada@example.com", password: "analytical engine", redirectTo: "/account" } })
    expect(signedIn.headers.get("location")).toBe(`${origin}/account`)
    expect(await (await call(app, "/account", { jar })).text()).toBe("Your account, ada@example.com")
    expect(await (await call(app, "/", { jar })).text()).toBe("Hello Ada")
    expect(await (await call(app, "/api/me", { jar })).json()).toMatchObject({ name: "Ada", email: "ada@example.com" })

    expect((await call(app, "/logout", { jar, form: {} })).headers.get("location")).toBe(`${origin}/`)
    expect(await (await call(app, "/", { jar })).text()).toBe("Hello stranger")
  })

  it("quick start: /login answers a body that is not a form, or a form it cannot read, with a 4xx, never a 500", async () => {
    const sameSite = { origin, "sec-fetch-site": "same-origin" }
    const credentials = "email=ada%40example.com&password=analytical+engine"
    // A text/plain post (what a form with enctype="text/plain" sends, and another site can without a preflight): no fields.
    const plain = await call(app, "/login", { body: credentials, headers: { ...sameSite, "content-type": "text/plain" } })
    expect(plain.status).toBe(401)
    expect(await plain.text()).toBe("Wrong email or password")
    expect((await call(app, "/login", { body: credentials, headers: { origin: "https://evil.example", "content-type": "text/plain" } })).status).toBe(403)
    const broken = await call(app, "/login", { body: "--x\r\nnot a part", headers: { ...sameSite, "content-type": "multipart/form-data; boundary=x" } })
    expect(broken.status).toBe(400)
    expect(await broken.text()).not.toMatch(/\bat .*\.(ts|js):\d+/)
  })

  it("node server: serves the app on Node.js", async () => {
    const { server } = await run<{ server: ServerType }>("node-server", "server.ts", (code) =>
      code.replace("serve({ fetch: app.fetch, port: 3000 })", "export const server = serve({ fetch: app.fetch, port: 0, hostname: \"127.0.0.1\" })"),
    )
    try {
      await new Promise((resolve) => (server.listening ? resolve(undefined) : server.once("listening", resolve)))
      const { port } = server.address() as AddressInfo
      const home = await fetch(`http://localhost:${port}/`)
      expect(await home.text()).toBe("Hello stranger")
      const guarded = await fetch(`http://localhost:${port}/account`, { redirect: "manual" })
      expect(guarded.headers.get("location")).toBe(`http://localhost:${port}/auth/signin?callbackUrl=%2Faccount`)
    } finally {
      await new Promise((resolve) => server.close(resolve))
    }
  })

  it("assertSession: the route's own check", async () => {
    const jar = new CookieJar()
    expect((await call(app, "/billing", { jar })).headers.get("location")).toBe(`${origin}/auth/signin?callbackUrl=%2Fbilling`)
    await call(app, "/login", { jar, form: { email: "ada@example.com", password: "analytical engine" } })
    expect(await (await call(app, "/billing", { jar })).text()).toBe("Invoices of ada@example.com")
  })

  it("worker: the configuration from the bindings, the JSON guard", async () => {
    vi.stubEnv("AUTH_SECRET", undefined)
    const { default: app } = await run<{ default: Hono }>("worker", "worker.ts")
    const env = { AUTH_SECRET: "a-worker-secret-0123456789-abcdefghijklmnop", GITHUB_ID: "an-id", GITHUB_SECRET: "a-secret" }
    const providers = (await (await call(app, "https://worker.example.com/auth/providers", {}, env)).json()) as Record<string, { signinUrl: string }>
    expect(providers.github?.signinUrl).toBe("https://worker.example.com/auth/signin/github")
    const refused = await call(app, "https://worker.example.com/api/me", { headers: { accept: "application/json" } }, env)
    expect(refused.status).toBe(401)
    expect(await refused.json()).toEqual({ error: "Unauthorized", message: "Sign in first." })
  })

  it("when the database is down: the public page, the page that catches, the guard's and the middleware's 503; the session back after", async () => {
    // The example's `./auth.js`: database sessions in a memory adapter that can go down.
    writeFileSync(
      join(scratch, "auth.ts"),
      [
        'import { MemoryAdapter } from "@sesame/core/adapters"',
        'import { outage } from "@sesame/testing"',
        'import { aliceCredentials, secret } from "../../../../core/test/helpers.ts"',
        "export const storage = outage(MemoryAdapter())",
        'export const authConfig = { secret, adapter: storage.adapter, session: { strategy: "database" as const }, providers: [aliceCredentials({ createUser: true })], logger: { error() {}, warn() {}, debug() {} } }',
      ].join("\n"),
    )
    const { storage } = (await import(join(scratch, "auth.ts"))) as { storage: Outage<object> }
    // The example imports the quick start's configuration; here it is the one above.
    const { app } = await run<{ app: Hono }>("outage", "outage.ts", (code) => code.replace('from "./app.js"', 'from "./auth.js"'))
    const jar = new CookieJar()
    const { csrfToken } = (await (await call(app, "/auth/csrf", { jar })).json()) as { csrfToken: string }
    await call(app, "/auth/callback/credentials", { jar, form: { csrfToken, username: "alice", password: users.alice.password } })
    expect(await (await call(app, "/", { jar })).text()).toBe("Hello Alice")
    expect(await (await call(app, "/dashboard", { jar })).text()).toBe("Dashboard of Alice")

    storage.down()
    expect(await (await call(app, "/about", { jar })).text()).toBe("About us")
    expect(await (await call(app, "/", { jar })).text()).toBe("Hello! (Your account is out of reach for a moment.)")
    for (const path of ["/account", "/dashboard"]) {
      const down = await call(app, path, { jar, headers: { accept: "text/html" } })
      expect(down.status).toBe(503)
      expect(down.headers.get("retry-after")).toBe("3")
      expect(await down.text()).toContain("Try again in a moment")
      const script = await call(app, path, { jar, headers: { accept: "application/json" } })
      expect(script.status).toBe(503)
      expect(await script.json()).toMatchObject({ error: "StorageUnavailable" })
    }

    storage.up()
    expect(await (await call(app, "/account", { jar })).text()).toBe(`Your account, ${users.alice.email}`)
  })
})
