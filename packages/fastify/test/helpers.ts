/**
 * Test helpers: a Fastify app reached two ways, over a real HTTP server on 127.0.0.1 and through
 * `fastify.inject` (no socket: light-my-request's), requests with a cookie jar, and a credentials
 * configuration. Most suites run on both (`describe.each(transports)`).
 */
import { request as httpRequest, type IncomingHttpHeaders } from "node:http"
import type { AddressInfo } from "node:net"
import Fastify, { type FastifyInstance, type FastifyServerOptions } from "fastify"
import { afterEach } from "vitest"
import type { AuthConfig } from "@sesame/core"
import { sesame } from "@sesame/fastify"
import { aliceCredentials, CookieJar, request, secret, users, type RequestOptions } from "../../core/test/helpers.js"

export { aliceCredentials, CookieJar, secret }

/** Alice, whom `aliceCredentials()` signs in (`username: "alice"`). */
export const alice = users.alice

/** A configuration with Alice's credentials; no `trustHost`: only loopback hosts are served. */
export function config(overrides: Partial<AuthConfig> = {}): AuthConfig {
  return { secret, providers: [aliceCredentials()], ...overrides }
}

/** A Fastify app with the plugin registered for `options` (the routes are the test's). */
export async function appWith(options: AuthConfig, server: FastifyServerOptions = {}): Promise<FastifyInstance> {
  const app = Fastify(server)
  await app.register(sesame, { config: options })
  return app
}

export interface Served {
  /** `http://127.0.0.1:<port>`, or for `inject` the origin its requests name in `Host`. */
  readonly origin: string
  readonly port: number
  /** Sends a web `Request` to the app, redirects not followed. */
  fetch(request: Request): Promise<Response>
}

const open: (() => Promise<void>)[] = []

afterEach(async () => {
  await Promise.all(open.splice(0).map((close) => close()))
})

/** Serves `app` on 127.0.0.1 and a free port until the test ends. */
export async function listen(app: FastifyInstance): Promise<Served> {
  await app.listen({ port: 0, host: "127.0.0.1" })
  open.push(async () => {
    app.server.closeAllConnections()
    await app.close()
  })
  const { port } = app.server.address() as AddressInfo
  return { origin: `http://127.0.0.1:${port}`, port, fetch: (req) => fetch(req, { redirect: "manual" }) }
}

/** Reaches `app` through `fastify.inject` until the test ends, as `http://localhost:3000`. */
export async function inject(app: FastifyInstance): Promise<Served> {
  await app.ready()
  open.push(() => app.close())
  const origin = "http://localhost:3000"
  return {
    origin,
    port: 3000,
    async fetch(req) {
      const url = new URL(req.url)
      const headers: Record<string, string> = { host: url.host }
      req.headers.forEach((value, name) => (headers[name] = value))
      const body = req.body ? Buffer.from(await req.arrayBuffer()) : undefined
      const injected = await app.inject({ method: req.method as "GET", url: url.pathname + url.search, headers, ...(body ? { payload: body } : {}) })
      const answer = new Headers()
      for (const [name, value] of Object.entries(injected.headers)) {
        if (value === undefined) continue
        for (const item of Array.isArray(value) ? value : [value]) answer.append(name, String(item))
      }
      const empty = [204, 205, 304].includes(injected.statusCode) || req.method === "HEAD"
      return new Response(empty ? null : new Uint8Array(injected.rawPayload), { status: injected.statusCode, headers: answer })
    },
  }
}

/** Both ways to reach an app: every suite that takes `serve` runs on each. */
export const transports = [
  { label: "a listening server", serve: listen },
  { label: "fastify.inject", serve: inject },
] as const

/** A request to the served app (`options` as the core tests' `request()` takes them), redirects not followed; the jar takes the cookies set. */
export async function send(served: Served, path: string, options: RequestOptions = {}): Promise<Response> {
  const response = await served.fetch(request(new URL(path, served.origin).href, options))
  options.jar?.apply(response)
  return response
}

/** A request with headers `fetch` will not send as given (`Host`), or an absolute-form target, to a listening server. */
export function rawSend(served: Served, target: string, headers: Record<string, string>): Promise<{ status: number; headers: IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: "127.0.0.1", port: served.port, path: target, headers, setHost: !("host" in headers) }, (res) => {
      let body = ""
      res.setEncoding("utf8").on("data", (chunk: string) => (body += chunk))
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }))
    })
    req.on("error", reject).end()
  })
}

/** A CSRF token from the endpoints under `basePath` (its cookie into the jar). */
export async function csrfOf(served: Served, jar: CookieJar, basePath = "/auth"): Promise<string> {
  return ((await (await send(served, `${basePath}/csrf`, { jar })).json()) as { csrfToken: string }).csrfToken
}

/** Signs Alice in through the endpoints under `basePath`; returns the callback's response. */
export async function signInAlice(served: Served, jar: CookieJar, basePath = "/auth"): Promise<Response> {
  return send(served, `${basePath}/callback/credentials`, { jar, form: { csrfToken: await csrfOf(served, jar, basePath), username: "alice", password: alice.password } })
}

/** The `Set-Cookie` line of `name` among `lines`. */
export function cookieLine(lines: readonly string[], name = "sesame.session-token"): string | undefined {
  return lines.find((line) => line.startsWith(`${name}=`))
}
