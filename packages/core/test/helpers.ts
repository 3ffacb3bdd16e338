/**
 * Test helpers: build real requests for `Auth()` and carry cookies between them like a browser.
 */
import { Auth } from "@sesame/core"
import type { AuthConfig } from "@sesame/core"
import type { Adapter } from "@sesame/core/adapters"
import Credentials from "@sesame/core/providers/credentials"
import Email from "@sesame/core/providers/email"
import { afterEach, beforeEach, vi } from "vitest"
import { throughNodeHandler } from "./node-transport.js"

export const origin = "http://localhost:3000"
/** Where flows end by default: the origin, as a URL. */
export const home = `${origin}/`
export const secret = "test-secret-0123456789-abcdefghijklmnopqrstuvwxyz"

/** A minimal browser cookie store: applies Set-Cookie (including deletions) and sends Cookie. */
export class CookieJar {
  readonly cookies = new Map<string, string>()

  apply(response: Response): this {
    for (const header of response.headers.getSetCookie()) {
      const [pair, ...attributes] = header.split(";")
      const eq = pair!.indexOf("=")
      const name = pair!.slice(0, eq).trim()
      const value = pair!.slice(eq + 1).trim()
      const maxAge = attributes.map((a) => a.trim()).find((a) => a.toLowerCase().startsWith("max-age="))
      if (maxAge && Number(maxAge.split("=")[1]) <= 0) this.cookies.delete(name)
      else this.cookies.set(name, value)
    }
    return this
  }

  get(name: string): string | undefined {
    const value = this.cookies.get(name)
    return value === undefined ? undefined : decodeURIComponent(value)
  }

  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ")
  }
}

export interface RequestOptions {
  method?: string
  form?: Record<string, string>
  json?: unknown
  body?: BodyInit
  headers?: Record<string, string>
  jar?: CookieJar
  cookie?: string
}

export function request(path: string, options: RequestOptions = {}): Request {
  const headers = new Headers(options.headers)
  const cookie = options.cookie ?? options.jar?.header()
  if (cookie) headers.set("cookie", cookie)
  let body: BodyInit | undefined = options.body
  if (options.form) {
    body = new URLSearchParams(options.form).toString()
    headers.set("content-type", "application/x-www-form-urlencoded")
  } else if (options.json !== undefined) {
    body = JSON.stringify(options.json)
    headers.set("content-type", "application/json")
  }
  const url = path.startsWith("http") ? path : `${origin}${path}`
  return new Request(url, { method: options.method ?? (body !== undefined ? "POST" : "GET"), headers, body })
}

/** Tests run by the `node-handler` project send their requests through the Node.js handler instead of `Auth()`. */
const viaNodeHandler = process.env.SESAME_TEST_HANDLER === "node"

/**
 * Sends a request through `Auth()` (or, in the `node-handler` project, through `toNodeHandler` over
 * HTTP), applying the response's cookies to the jar.
 */
export async function send(config: AuthConfig, path: string, options: RequestOptions = {}): Promise<Response> {
  const built = request(path, options)
  const response = viaNodeHandler ? await throughNodeHandler(config, built) : await Auth(built, config)
  options.jar?.apply(response)
  return response
}

/** Fetches a CSRF token (and cookie) into the jar. */
export async function csrfToken(config: AuthConfig, jar: CookieJar, basePath = "/auth"): Promise<string> {
  const response = await send(config, `${basePath}/csrf`, { jar })
  const { csrfToken } = (await response.json()) as { csrfToken: string }
  return csrfToken
}

export const users = {
  alice: { id: "1", name: "Alice", email: "alice@example.com", password: "correct horse" },
}

/** A credentials provider accepting alice / "correct horse". */
export function aliceCredentials(overrides: Partial<Parameters<typeof Credentials>[0]> = {}) {
  return Credentials({
    credentials: {
      username: { label: "Username", autocomplete: "username" },
      password: { label: "Password", type: "password", autocomplete: "current-password" },
    },
    async authorize(credentials) {
      const { alice } = users
      if (credentials.username === "alice" && credentials.password === alice.password) {
        return { id: alice.id, name: alice.name, email: alice.email }
      }
      return null
    },
    ...overrides,
  })
}

/** A JWT-session configuration with the alice credentials provider. */
export function jwtConfig(overrides: Partial<AuthConfig> = {}): AuthConfig {
  return { secret, trustHost: true, providers: [aliceCredentials()], ...overrides }
}

/** An email sign-in configuration on `adapter` whose links are kept in `links` instead of sent, and whose log is recorded, not printed. */
export function emailLinkConfig(adapter: Adapter): { config: AuthConfig; links: string[] } {
  const links: string[] = []
  const config: AuthConfig = {
    secret,
    trustHost: true,
    adapter,
    providers: [Email({ sendVerificationRequest: ({ url }) => void links.push(url) })],
    logger: recordingLogger().logger,
  }
  return { config, links }
}

/** Signs alice in; returns the response of the credentials callback. */
export async function signInAlice(config: AuthConfig, jar: CookieJar, basePath = "/auth", extra: Record<string, string> = {}) {
  const token = await csrfToken(config, jar, basePath)
  return send(config, `${basePath}/callback/credentials`, {
    jar,
    form: { csrfToken: token, username: "alice", password: users.alice.password, ...extra },
  })
}

/** Everything a logger call received, flattened to text (errors with their causes). */
export function logText(value: unknown, depth = 0): string {
  if (depth > 6) return ""
  if (value instanceof Error) {
    const cause = (value as { cause?: unknown }).cause
    return `${value.name} ${value.message} ${value.stack ?? ""} ${logText(cause, depth + 1)}`
  }
  if (value && typeof value === "object") return Object.entries(value).map(([k, v]) => `${k}=${logText(v, depth + 1)}`).join(" ")
  return String(value)
}

/** A logger that records everything it receives as text, debug included. */
export function recordingLogger() {
  const lines: string[] = []
  const logger = {
    error: (e: Error) => void lines.push(logText(e)),
    warn: (code: string) => void lines.push(code),
    debug: (message: string, metadata?: unknown) => void lines.push(`${message} ${logText(metadata)}`),
  }
  return { lines, logger }
}

/**
 * Freezes `Date` at `start` before each test of the file (timers keep running, so servers and
 * awaits are unaffected) and returns `advance(ms)`, which moves the clock on.
 */
export function frozenClock(start: string): (ms: number) => void {
  let now = Date.parse(start)
  beforeEach(() => {
    now = Date.parse(start)
    vi.useFakeTimers({ toFake: ["Date"] })
    vi.setSystemTime(now)
  })
  afterEach(() => {
    vi.useRealTimers()
  })
  return (ms: number) => {
    now += ms
    vi.setSystemTime(now)
  }
}

/** The placeholder address a user set aside for the address's owner holds (`account/set-aside.ts`): its id, then a random part. */
export function setAsideAddressOf(userId: string): RegExp {
  return new RegExp(`^unproven\\+${userId.replace(/[^\w-]/g, "")}\\.[0-9a-f]{16}@sesame\\.invalid$`)
}
