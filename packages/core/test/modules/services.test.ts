/**
 * A module's machine-to-machine API (`SesameModule.services`): every method, the path under its
 * prefix, the request's body as it came; no cookie in or out, so a browser's session never
 * authenticates it; a storage outage is the `503` every endpoint answers, any other failure a
 * `500` without its details. The configuration's mistakes are refused.
 */
import { Auth, type AuthConfig, type SesameModule } from "@sesame/core"
import { MemoryAdapter } from "@sesame/core/adapters"
import { outage } from "@sesame/testing"
import { describe, expect, it } from "vitest"
import { origin, recordingLogger, secret, send, signInAlice, CookieJar, aliceCredentials } from "../helpers.js"

const api: SesameModule = {
  id: "machine",
  routes: { "GET machine/page": { run: () => ({ body: { page: true } }) } },
  services: {
    "machine/v2": {
      async handle(request, context) {
        if (context.path === "boom") throw new Error("secret detail")
        if (context.path === "store") await context.store!.count({ name: "x", table: "x", primaryKey: "id", fields: { id: { type: "string" } } })
        const body = request.method === "GET" || request.method === "HEAD" ? null : await request.text()
        return new Response(JSON.stringify({ method: request.method, path: context.path, authorization: request.headers.get("authorization"), cookie: request.headers.get("cookie"), body, authUrl: context.authUrl }), {
          status: request.method === "POST" ? 201 : 200,
          headers: { "content-type": "application/scim+json", "set-cookie": "planted=1" },
        })
      },
    },
  },
}

function config(overrides: Partial<AuthConfig> = {}): AuthConfig {
  return { secret, trustHost: true, providers: [aliceCredentials()], plugins: [api], ...overrides }
}

describe("a module's service", () => {
  it("takes every method under its prefix, with the path and body as they came, and answers as it says", async () => {
    const c = config()
    for (const method of ["GET", "POST", "PUT", "PATCH", "DELETE"]) {
      const response = await send(c, "/auth/machine/v2/Users/2819c223?filter=x", {
        method,
        headers: { authorization: "Bearer t0ken", "content-type": "application/scim+json" },
        ...(method === "GET" ? {} : { body: '{"active":false}' }),
      })
      expect(response.status, method).toBe(method === "POST" ? 201 : 200)
      expect(response.headers.get("content-type")).toBe("application/scim+json")
      expect(await response.json()).toEqual({ method, path: "Users/2819c223", authorization: "Bearer t0ken", cookie: null, body: method === "GET" ? null : '{"active":false}', authUrl: `${origin}/auth` })
    }
    expect(((await (await send(c, "/auth/machine/v2")).json()) as { path: string }).path).toBe("")
  })

  it("never sees the browser's cookies nor sets one, and needs no CSRF token or same-origin request", async () => {
    const c = config({ adapter: MemoryAdapter() })
    const jar = new CookieJar()
    await signInAlice(c, jar)
    const response = await send(c, "/auth/machine/v2/Users", { method: "POST", jar, body: "{}", headers: { origin: "https://evil.example", "sec-fetch-site": "cross-site" } })
    expect(response.status).toBe(201)
    expect(((await response.json()) as { cookie: unknown }).cookie).toBeNull()
    expect(response.headers.getSetCookie()).toEqual([])
    expect(response.headers.get("cache-control")).toMatch(/no-store/)
  })

  it("gets the body whatever carried the request, and a body over the core's limit is a 413 it never sees", async () => {
    const c = config()
    const posted = await send(c, "/auth/machine/v2/Users", { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: "a=1&b=2" })
    expect(((await posted.json()) as { body: string }).body).toBe("a=1&b=2")
    const huge = await send(c, "/auth/machine/v2/Users", { method: "POST", headers: { "content-type": "application/json" }, body: "x".repeat(1024 * 1024 + 1) })
    expect(huge.status).toBe(413)
  })

  it("leaves the module's endpoints and the core's where they are", async () => {
    const c = config()
    expect(await (await send(c, "/auth/machine/page")).json()).toEqual({ page: true })
    expect((await send(c, "/auth/machine/v3/Users")).status).toBe(400)
    expect((await send(c, "/auth/csrf")).status).toBe(200)
  })

  it("answers 500 without the failure's details, and 503 with Retry-After while the storage is out", async () => {
    const { logger, lines } = recordingLogger()
    const failed = await send(config({ logger }), "/auth/machine/v2/boom")
    expect(failed.status).toBe(500)
    expect(await failed.text()).not.toContain("secret detail")
    expect(lines.join("\n")).toContain("secret detail")

    const broken = outage(MemoryAdapter())
    broken.down()
    const down = await send(config({ adapter: broken.adapter, logger }), "/auth/machine/v2/store")
    expect(down.status).toBe(503)
    expect(down.headers.get("retry-after")).toMatch(/^\d+$/)
  })
})

describe("a browser service", () => {
  const browserApi: SesameModule = {
    id: "machine",
    routes: { "GET machine/page": { run: (request) => ({ body: { page: true, kept: request.cookie("kept") ?? null } }) } },
    services: {
      machine: {
        browser: true,
        async handle(request, context) {
          const user = await context.user!()
          return new Response(JSON.stringify({ path: context.path, cookie: request.headers.get("cookie"), user: user?.email ?? null }), {
            headers: [
              ["content-type", "application/json"],
              ["set-cookie", "sesame.machine.kept=1; Path=/; HttpOnly"],
              ["set-cookie", "sesame.session-token=forged; Path=/"],
              ["set-cookie", "other=1; Path=/"],
            ],
          })
        },
      },
    },
  }

  it("sees who is signed in and only its own cookies, sets only its own, and leaves the module's endpoints under its prefix to them", async () => {
    const c = config({ plugins: [browserApi] })
    const jar = new CookieJar()
    await signInAlice(c, jar)
    jar.cookies.set("sesame.machine.kept", "1")
    jar.cookies.set("unrelated", "2")
    const response = await send(c, "/auth/machine/authorize", { jar })
    const body = (await response.json()) as { path: string; cookie: string; user: string }
    expect(body.path).toBe("authorize")
    expect(body.user).toBe("alice@example.com")
    // Sesame's session token never reaches the module: only the cookies named for it.
    expect(body.cookie).toBe("sesame.machine.kept=1")
    expect(response.headers.getSetCookie()).toEqual(["sesame.machine.kept=1; Path=/; HttpOnly"])
    // The module's own endpoint under the service's prefix is still the endpoint, and reads the service's cookie.
    expect(await (await send(c, "/auth/machine/page", { jar })).json()).toEqual({ page: true, kept: "1" })
  })

  it("sees no one when the session cookie was sent twice (one planted by a sibling subdomain), or not at all", async () => {
    const c = config({ plugins: [browserApi] })
    const userOf = async (options: Parameters<typeof send>[2]) => ((await (await send(c, "/auth/machine/x", options)).json()) as { user: unknown }).user
    expect(await userOf({})).toBeNull()
    const jar = new CookieJar()
    await signInAlice(c, jar)
    expect(await userOf({ jar })).toBe("alice@example.com")
    expect(await userOf({ cookie: `${jar.header()}; sesame.session-token=planted` })).toBeNull()
  })
})

describe("the app's fixed URL in a module's request (publicAuthUrl)", () => {
  const reporter: SesameModule = {
    id: "reporter",
    routes: { "GET reporter/page": { run: (request) => ({ body: { publicAuthUrl: request.publicAuthUrl, authUrl: request.authUrl } }) } },
    services: { "reporter/v1": { handle: async (_request, context) => Response.json({ publicAuthUrl: context.publicAuthUrl, authUrl: context.authUrl }) } },
  }
  const read = async (c: AuthConfig, path: string, host?: string) => {
    const headers = host ? { host, "x-forwarded-host": host } : undefined
    return (await (await Auth(new Request(`http://localhost:3000${path}`, { headers }), c)).json()) as { publicAuthUrl: string | null; authUrl: string }
  }

  it("is AUTH_URL's, whatever Host a request names; a loopback request's without it; none for a forged Host behind trustHost", async () => {
    for (const path of ["/auth/reporter/page", "/auth/reporter/v1"]) {
      const loopback = config({ plugins: [reporter] })
      expect(await read(loopback, path)).toEqual({ publicAuthUrl: `${origin}/auth`, authUrl: `${origin}/auth` })
      // Behind trustHost without AUTH_URL, the links follow the Host; what names the app to others does not.
      expect(await read(loopback, path, "evil.example")).toEqual({ publicAuthUrl: null, authUrl: "http://evil.example/auth" })
      const previous = process.env.AUTH_URL
      process.env.AUTH_URL = "https://app.example/auth"
      try {
        expect((await read(config({ plugins: [reporter] }), path, "evil.example")).publicAuthUrl).toBe("https://app.example/auth")
      } finally {
        if (previous === undefined) delete process.env.AUTH_URL
        else process.env.AUTH_URL = previous
      }
    }
  })
})

describe("a service's configuration", () => {
  it("is refused outside the module's own path", async () => {
    for (const services of [{ "other/v2": { handle: async () => new Response() } }, { "machine/Users": { handle: async () => new Response() } }, { "machine/v2": {} }]) {
      const { logger, lines } = recordingLogger()
      const module = { ...api, services } as unknown as SesameModule
      const response = await Auth(new Request(`${origin}/auth/session`), config({ plugins: [module], logger }))
      expect(response.status, JSON.stringify(Object.keys(services))).toBe(500)
      expect(lines.join("\n")).toMatch(/service/)
    }
  })
})
