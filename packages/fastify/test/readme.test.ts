/**
 * The README's examples, run as written: the configuration and the app of the quick start (its
 * `app.listen({ port: 3000 })` made to listen on a free port of 127.0.0.1), driven over HTTP
 * through every route it shows, and attacked with another site's posts to its sign-in and sign-out
 * routes.
 */
import { mkdirSync, rmSync, writeFileSync } from "node:fs"
import type { AddressInfo } from "node:net"
import { join } from "node:path"
import type { FastifyInstance } from "fastify"
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest"
import { readmeExample } from "@sesame/testing"
import { CookieJar, send, type Served } from "./helpers.js"

const readmeFile = join(import.meta.dirname, "..", "README.md")
const scratch = join(import.meta.dirname, ".scratch")

/** Writes the example to the scratch folder as `file` (its `./auth.js` import is the extracted configuration) and imports it. */
async function importExample<T>(name: string, file: string, edit: (code: string) => string = (code) => code): Promise<T> {
  const path = join(scratch, file)
  writeFileSync(path, edit(readmeExample(readmeFile, name)).replaceAll('"./auth.js"', '"./auth.ts"'))
  return (await import(path)) as T
}

let app: FastifyInstance
let served: Served

beforeAll(async () => {
  mkdirSync(scratch, { recursive: true })
  vi.stubEnv("AUTH_SECRET", "readme-secret-0123456789-abcdefghijklmnop")
  vi.stubEnv("AUTH_MY_IDP_ISSUER", "https://idp.example.com")
  vi.stubEnv("AUTH_MY_IDP_ID", "my-app")
  vi.stubEnv("AUTH_MY_IDP_SECRET", "my-app-secret-0123456789")
  await importExample("auth-config", "auth.ts")
  ;({ app } = await importExample<{ app: FastifyInstance }>("server", "server.ts", (code) => {
    expect(code).toContain("await app.listen({ port: 3000 })")
    return code.replace("await app.listen({ port: 3000 })", 'await app.listen({ port: 0, host: "127.0.0.1" })\nexport { app }')
  }))
  const { port } = app.server.address() as AddressInfo
  served = { origin: `http://127.0.0.1:${port}`, port, fetch: (request) => fetch(request, { redirect: "manual" }) }
})

afterAll(async () => {
  vi.unstubAllEnvs()
  await app?.close()
  rmSync(scratch, { recursive: true, force: true })
})

describe("README examples", () => {
  it("quick start: every route of the app, signed out, with a wrong and a right password, signed in, signed out", async () => {
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

  it("quick start: another site's posts to /login and /logout are refused with a 403, and the server stays up", async () => {
    const jar = new CookieJar()
    await send(served, "/login", { jar, form: { email: "ada@example.com", password: "analytical engine" } })
    const crossSite = { origin: "https://evil.example", "sec-fetch-site": "cross-site" }
    for (const [path, form] of [
      ["/logout", {}],
      ["/login", { email: "ada@example.com", password: "analytical engine" }],
    ] as const) {
      const refused = await send(served, path, { jar, form, headers: crossSite })
      expect(refused.status).toBe(403)
      expect(await refused.text()).not.toContain("    at ")
    }
    expect(await (await send(served, "/", { jar })).text()).toBe("Hello, Ada")
  })
})
