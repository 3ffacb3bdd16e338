/**
 * The tests' world: Sesame with the admin module on the memory adapter, stored users, and a
 * browser per user that signs in (a credentials provider that trusts the posted address: a test
 * stand-in for any sign-in) and calls the module's endpoints as a page's script would (JSON, with
 * the CSRF token).
 */
import { Auth, callModuleApi, type AuthConfig, type PasswordEmailParams, type SecurityEvent, type SesameModule } from "@sesame/core"
import { argon2id } from "@sesame/core/password"
import Password from "@sesame/core/providers/password"
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
  /** A password provider whose emails land in `mails` (`emailsPerAddress`, or a `sendEmail` that fails, to test those). */
  password?: { emailsPerAddress?: number; failing?: boolean }
  /** Plugins beside the admin module. */
  plugins?: SesameModule[]
}

export function makeWorld(options: WorldOptions = {}) {
  const adapter = options.adapter ?? MemoryAdapter()
  const security: SecurityEvent[] = []
  const adminIds: string[] = []
  const mails: PasswordEmailParams[] = []
  const password = options.password
    ? [
        Password({
          hasher: argon2id({ memoryCost: 64, timeCost: 1 }),
          ...(options.password.emailsPerAddress ? { emailsPerAddress: options.password.emailsPerAddress } : {}),
          sendEmail: (params) => {
            if (options.password!.failing) throw new Error("the mail server said no")
            mails.push(params)
          },
        }),
      ]
    : []
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
      ...password,
    ],
    plugins: [
      admin({
        admins: options.admins ?? ((user) => adminIds.includes(user.id)),
        ...(options.actOnAdmins === undefined ? {} : { actOnAdmins: options.actOnAdmins }),
        ...(options.impersonation === undefined ? {} : { impersonation: options.impersonation }),
      }),
      ...(options.plugins ?? []),
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

  return { adapter, config, security, mails, user, browser: () => new Browser(), CookieJar }
}

/** A world with Boss, an admin, and Pat, a user, each signed in in a browser of their own. */
export async function bossAndPat(options: WorldOptions = {}) {
  const world = makeWorld(options)
  const boss = await world.user("boss@example.com", "admin")
  const pat = await world.user("pat@example.com")
  const [admins, pats] = [world.browser(), world.browser()]
  for (const [browser, email] of [[admins, boss.email], [pats, pat.email]] as const) {
    const landed = await browser.signIn(email)
    if (landed !== `${origin}/`) throw new Error(`${email} could not sign in: ${landed}`)
  }
  return { ...world, boss, pat, admins, pats }
}

/** A world with Boss, an admin, signed in, and Pat, a user, stored; `extra` adjusts the world first. */
export async function bossSignedIn(options: WorldOptions = {}, extra: (world: ReturnType<typeof makeWorld>) => void = () => {}) {
  const world = makeWorld(options)
  extra(world)
  const boss = await world.user("boss@example.com", "admin")
  const pat = await world.user("pat@example.com")
  const admins = world.browser()
  await admins.signIn(boss.email)
  return { ...world, boss, pat, admins }
}

/** Another admin, Chief, signed in in a browser of their own. */
export async function chiefSignedIn(world: ReturnType<typeof makeWorld>) {
  const chief = await world.user("chief@example.com", "admin")
  const chiefs = world.browser()
  await chiefs.signIn(chief.email)
  return { chief, chiefs }
}
