/**
 * Test helpers: SolidStart-like events around real requests, a cookie jar, and a credentials
 * configuration.
 */
import Credentials from "@sesame/core/providers/credentials"
import type { SolidAuthConfig, SolidAuthHandlers } from "@sesame/solid-start"

export const origin = "http://localhost:3000"
export const secret = "solid-start-test-secret-0123456789-abcdefghijklmnop"

/** What SolidStart hands a route or a middleware, as far as Sesame reads it. */
export function event(request: Request): { request: Request; params: Record<string, string> } {
  return { request, params: {} }
}

export class CookieJar {
  readonly cookies = new Map<string, string>()

  apply(response: Response): this {
    for (const header of response.headers.getSetCookie()) {
      const [pair = "", ...attributes] = header.split(";")
      const name = pair.slice(0, pair.indexOf("=")).trim()
      const value = pair.slice(pair.indexOf("=") + 1).trim()
      const expired = attributes.some((a) => /^\s*max-age=0\s*$/i.test(a))
      if (expired) this.cookies.delete(name)
      else this.cookies.set(name, value)
    }
    return this
  }

  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ")
  }
}

export interface RequestOptions {
  jar?: CookieJar
  form?: Record<string, string>
  headers?: Record<string, string>
  method?: string
}

export function request(path: string, options: RequestOptions = {}): Request {
  const headers = new Headers(options.headers)
  if (options.jar) headers.set("cookie", options.jar.header())
  let body: string | undefined
  if (options.form) {
    body = new URLSearchParams(options.form).toString()
    headers.set("content-type", "application/x-www-form-urlencoded")
  }
  return new Request(new URL(path, origin), { method: options.method ?? (body === undefined ? "GET" : "POST"), headers, body })
}

/** Calls the route's handler for `path` (GET, or POST with a form), applying cookies to the jar. */
export async function call(handlers: SolidAuthHandlers, path: string, options: RequestOptions = {}): Promise<Response> {
  const req = request(path, options)
  const response = await (req.method === "POST" ? handlers.POST : handlers.GET)(event(req))
  if (!response) throw new Error(`the handler ignored ${path}`)
  options.jar?.apply(response)
  return response
}

export const alice = { id: "1", name: "Alice", email: "alice@example.com", password: "correct horse" }

export function aliceCredentials(options: { createUser?: boolean } = {}) {
  return Credentials({
    ...options,
    credentials: { username: { label: "Username" }, password: { label: "Password", type: "password" } },
    async authorize({ username, password }) {
      return username === "alice" && password === alice.password ? { id: alice.id, name: alice.name, email: alice.email } : null
    },
  })
}

export function config(overrides: Partial<SolidAuthConfig> = {}): SolidAuthConfig {
  return { secret, trustHost: true, providers: [aliceCredentials()], ...overrides }
}

/** Signs alice in through the route's handlers; returns the callback's response. */
export async function signInAlice(handlers: SolidAuthHandlers, jar: CookieJar, prefix = "/api/auth", password = alice.password): Promise<Response> {
  const { csrfToken } = (await (await call(handlers, `${prefix}/csrf`, { jar })).json()) as { csrfToken: string }
  return call(handlers, `${prefix}/callback/credentials`, { jar, form: { csrfToken, username: "alice", password } })
}
