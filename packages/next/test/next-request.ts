/**
 * What Next.js itself provides to server code, at the module boundary: `headers()` and `cookies()`
 * of `next/headers` for the request being handled. Each test sets the browser's headers and cookie
 * jar; `readonly` makes `cookies().set` throw as it does in a server component. Everything of
 * Sesame's runs for real.
 */
import { vi } from "vitest"
import type { ResponseCookie } from "@sesame/core"
import type { PrimaryAuthConfig } from "@sesame/next"
import Credentials from "@sesame/core/providers/credentials"

export interface FakeRequest {
  headers: Headers
  /** The browser's cookies: what `cookies()` reads, and what it sets (deleted when maxAge is 0). */
  jar: Map<string, string>
  /** Options of the cookies set through `cookies().set`, by name. */
  written: Map<string, ResponseCookie["options"]>
  /** Like a server component: setting a cookie throws. */
  readonly: boolean
}

export const current: FakeRequest = { headers: new Headers(), jar: new Map(), written: new Map(), readonly: false }

/** Starts a new request from `host` (Next.js says `localhost` in `request.url`, never this). */
export function newRequest(options: { host?: string; referer?: string; readonly?: boolean } = {}): FakeRequest {
  current.headers = new Headers({ host: options.host ?? "app.example.test:8443", "x-forwarded-proto": "https" })
  if (options.referer) current.headers.set("referer", options.referer)
  current.readonly = options.readonly ?? false
  current.written = new Map()
  return current
}

/** The cookie header the browser would send. */
export function cookieHeader(): string {
  return [...current.jar].map(([name, value]) => `${name}=${encodeURIComponent(value)}`).join("; ")
}

vi.mock("next/headers.js", () => ({
  headers: async () => current.headers,
  cookies: async () => ({
    getAll: () => [...current.jar].map(([name, value]) => ({ name, value })),
    get: (name: string) => (current.jar.has(name) ? { name, value: current.jar.get(name)! } : undefined),
    set: (name: string, value: string, options: ResponseCookie["options"]) => {
      if (current.readonly) throw new Error("Cookies can only be modified in a Server Action or Route Handler.")
      current.written.set(name, options)
      if (options.maxAge === 0 || value === "") current.jar.delete(name)
      else current.jar.set(name, value)
    },
  }),
}))

export const secret = "next-unit-secret-0123456789-abcdefghijklmnop"

/** Alice signs in with the password "wonderland". */
export function aliceCredentials(createUser = false) {
  return Credentials({
    createUser,
    credentials: { email: { type: "email" }, password: { type: "password" } },
    authorize: async ({ email, password }) =>
      email === "alice@example.com" && password === "wonderland" ? { id: "alice", name: "Alice", email: "alice@example.com" } : null,
  })
}

/** A JWT configuration with Alice, trusting the host headers. */
export function jwtConfig(extra: Partial<PrimaryAuthConfig> = {}): PrimaryAuthConfig {
  return { secret, trustHost: true, providers: [aliceCredentials()], ...extra }
}

/** The error Next's `redirect()` throws, or null. */
export function redirectTarget(error: unknown): string | null {
  const digest = (error as { digest?: unknown } | null)?.digest
  if (typeof digest !== "string" || !digest.startsWith("NEXT_REDIRECT")) return null
  return digest.split(";")[2] ?? null
}

/** What `promise` rejects with; throws when it resolves. */
export async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise
  } catch (error) {
    return error
  }
  throw new Error("expected a rejection")
}

/** A pages-router response (`res` of `getServerSideProps`), its headers kept by lower-case name. */
export function pagesResponse() {
  const headers = new Map<string, number | string | readonly string[]>()
  return {
    headers,
    getHeader: (name: string) => headers.get(name.toLowerCase()),
    setHeader: (name: string, value: number | string | readonly string[]) => headers.set(name.toLowerCase(), value),
  }
}
