/**
 * Test helpers: the two Express majors, an app served on a real HTTP server on 127.0.0.1, requests
 * with a cookie jar, and a credentials configuration.
 */
import { request as httpRequest, type IncomingHttpHeaders } from "node:http"
import type { AddressInfo } from "node:net"
import express5 from "express"
import express4 from "express4"
import type { Express } from "express"
import { afterEach } from "vitest"
import type { AuthConfig } from "@sesame/core"
import { aliceCredentials, CookieJar, request, secret, users, type RequestOptions } from "../../core/test/helpers.js"

export { aliceCredentials, CookieJar, secret }

/** Both majors: every suite runs on each (`describe.each(versions)`). */
export const versions = [
  { label: "Express 5", express: express5 },
  { label: "Express 4", express: express4 },
] as const

export type ExpressModule = (typeof versions)[number]["express"]

/** Alice, whom `aliceCredentials()` signs in (`username: "alice"`). */
export const alice = users.alice

/** A configuration with Alice's credentials; no `trustHost`: only loopback hosts are served. */
export function config(overrides: Partial<AuthConfig> = {}): AuthConfig {
  return { secret, providers: [aliceCredentials()], ...overrides }
}

export interface Served {
  /** `http://127.0.0.1:<port>`. */
  readonly origin: string
  readonly port: number
}

const open: (() => Promise<void>)[] = []

afterEach(async () => {
  await Promise.all(open.splice(0).map((close) => close()))
})

/** Serves `app` on 127.0.0.1 and a free port until the test ends. */
export async function serve(app: Express): Promise<Served> {
  const server = app.listen(0, "127.0.0.1")
  await new Promise<void>((resolve, reject) => server.once("listening", resolve).once("error", reject))
  open.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  )
  const { port } = server.address() as AddressInfo
  return { origin: `http://127.0.0.1:${port}`, port }
}

/** A request to the served app (`options` as the core tests' `request()` takes them), redirects not followed; the jar takes the cookies set. */
export async function send(served: Served, path: string, options: RequestOptions = {}): Promise<Response> {
  const response = await fetch(request(new URL(path, served.origin).href, options), { redirect: "manual" })
  options.jar?.apply(response)
  return response
}

/** A request with headers `fetch` will not send as given (`Host`), or an absolute-form target. */
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
