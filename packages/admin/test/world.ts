/**
 * The tests' world: Sesame with the admin module on the memory adapter, stored users, and a
 * browser per user that signs in (a credentials provider that trusts the posted address: a test
 * stand-in for any sign-in) and calls the module's endpoints as a page's script would (JSON, with
 * the CSRF token).
 */
import { Auth, callModuleApi, type AuthConfig, type SecurityEvent } from "@sesame/core"
import { MemoryAdapter, type Adapter, type AdapterUser } from "@sesame/core/adapters"
import Credentials from "@sesame/core/providers/credentials"
import { admin, type AdminOptions } from "@sesame/admin"
import { CookieJar } from "../../core/test/helpers.js"

export const origin = "http://localhost:3000"
export const secret = "admin-test-secret-0123456789abcdefghijklmnop"

export interface WorldOptions {
  strategy?: "jwt" | "database"
  revocation?: boolean | { cache?: number }
  adapter?: Adapter
  admins?: AdminOptions["admins"]
  actOnAdmins?: boolean
  impersonation?: AdminOptions["impersonation"]
}

export function makeWorld(options: WorldOptions = {}) {
  const adapter = options.adapter ?? MemoryAdapter()
  const security: SecurityEvent[] = []
  const adminIds: string[] = []
  const config: AuthConfig = {
    secret,
    trustHost: true,
    adapter,
    session: { strategy: options.strategy ?? "database", ...(options.revocation === undefined ? {} : { revocation: options.revocation }) },
    providers: [
      Credentials({
        credentials: { email: {} },
        authorize: async ({ email }) => (typeof email === "string" ? await adapter.getUserByEmail!(email) : null),
      }),
    ],
    plugins: [
      admin({
        admins: options.admins ?? ((user) => adminIds.includes(user.id)),
        ...(options.actOnAdmins === undefined ? {} : { actOnAdmins: options.actOnAdmins }),
        ...(options.impersonation === undefined ? {} : { impersonation: options.impersonation }),
      }),
    ],
    events: { security: (event) => void security.push(event) },
    logger: { error: () => {}, warn: () => {}, debug: () => {} },
  }

  async function user(email: string, role?: "admin"): Promise<AdapterUser> {
    const created = await adapter.createUser!({ id: crypto.randomUUID(), email, name: email.split("@")[0]!, image: null, emailVerified: new Date() })
    if (role === "admin") adminIds.push(created.id)
    return created
  }

  class Browser {
    readonly jar = new CookieJar()

    /** A request with this browser's cookies: `json` as a script sends it, or `body` as given (a form's). */
    async send(path: string, init: { method?: string; json?: unknown; body?: string; headers?: Record<string, string>; query?: Record<string, string> } = {}): Promise<Response> {
      const url = new URL(`${origin}/auth/${path}`)
      for (const [k, v] of Object.entries(init.query ?? {})) url.searchParams.set(k, v)
      const headers: Record<string, string> = { cookie: this.jar.header(), ...init.headers }
      let body = init.body
      if (init.json !== undefined) {
        headers["content-type"] = "application/json"
        headers.origin ??= origin
        body = JSON.stringify(init.json)
      }
      const response = await Auth(new Request(url, { method: init.method ?? (body ? "POST" : "GET"), headers, body }), config)
      this.jar.apply(response)
      return response
    }

    async csrf(): Promise<string> {
      return ((await (await this.send("csrf")).json()) as { csrfToken: string }).csrfToken
    }

    /** Signs in as `email`; the answer's `Location`. */
    async signIn(email: string): Promise<string> {
      const csrfToken = await this.csrf()
      const form = new URLSearchParams({ csrfToken, email })
      const response = await Auth(
        new Request(`${origin}/auth/callback/credentials`, { method: "POST", headers: { cookie: this.jar.header(), "content-type": "application/x-www-form-urlencoded", origin }, body: form }),
        config,
      )
      this.jar.apply(response)
      return response.headers.get("location") ?? ""
    }

    /** The email of the session's user, or null. */
    async who(): Promise<string | null> {
      const body = (await (await this.send("session")).json()) as { user?: { email?: string } } | null
      return body?.user?.email ?? null
    }

    /** Posts `json` to a module endpoint with the CSRF token, as the app's page would. */
    async post(path: string, json: Record<string, unknown>): Promise<Response> {
      return this.send(path, { json: { csrfToken: await this.csrf(), ...json } })
    }

    /** Calls a server function with this browser's cookies. */
    api(name: string, ...args: unknown[]): Promise<unknown> {
      return callModuleApi(new Request(`${origin}/`, { headers: { cookie: this.jar.header(), "user-agent": "admin-test" } }), config, name, ...args)
    }
  }

  return { adapter, config, security, user, browser: () => new Browser(), CookieJar }
}
