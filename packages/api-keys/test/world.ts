/**
 * The tests' world: Sesame with the API keys module (and, when asked, the organizations module) on
 * the memory adapter or another, stored users each signed in in a browser of their own (a
 * credentials provider that trusts the posted address: a stand-in for any sign-in), every store
 * call recorded (what was written, how many reads), and every log line and security event kept.
 */
import { Auth, callModuleApi, type AuthConfig, type ModelDeclaration, type SecurityEvent, type SesameModule, type Store } from "@sesame/core"
import { MemoryAdapter, type Adapter } from "@sesame/core/adapters"
import Credentials from "@sesame/core/providers/credentials"
import { organizations, type InvitationMessage } from "@sesame/organizations"
import { apiKeys, verifyApiKey, type ApiKeyEvent, type ApiKeysOptions } from "@sesame/api-keys"
import { CookieJar } from "../../core/test/helpers.js"

export const origin = "http://localhost:3000"
export const secret = "api-keys-test-secret-0123456789abcdefghijklmn"

export interface WorldOptions {
  strategy?: "jwt" | "database"
  adapter?: Adapter
  keys?: Omit<ApiKeysOptions, "organizations" | "onChange">
  /** With the organizations module, whose admins manage the organization's keys. */
  organizations?: boolean
  /** Plugins after the API keys module. */
  plugins?: SesameModule[]
}

/** A store that records what is written to it and counts its reads. */
function recording(store: Store, written: string[], reads: { count: number }): Store {
  const note = (value: unknown) => void written.push(JSON.stringify(value))
  const wrap = (inner: Store): Store => ({
    create: (model, data) => (note(data), inner.create(model, data)),
    findOne: (model, where) => (reads.count++, inner.findOne(model, where)),
    findMany: (model, query) => (reads.count++, inner.findMany(model, query)),
    update: (model, where, values) => (note(values), inner.update(model, where, values)),
    delete: (model, where) => inner.delete(model, where),
    count: (model, where) => (reads.count++, inner.count(model, where)),
    increment: (model, key, field, options) => (note([key, options]), inner.increment(model, key, field, options)),
    transaction: (fn) => inner.transaction((tx) => fn(wrap(tx))),
  })
  return wrap(store)
}

export function makeWorld(options: WorldOptions = {}) {
  const base = options.adapter ?? MemoryAdapter()
  const written: string[] = []
  const reads = { count: 0 }
  const adapter: Adapter = base.store ? { ...base, store: recording(base.store, written, reads) } : base
  const logs: string[] = []
  const security: SecurityEvent[] = []
  const changes: ApiKeyEvent[] = []
  const invitations: InvitationMessage[] = []
  const orgs = options.organizations ? organizations({ invitations: { send: (message) => void invitations.push(message), acceptUrl: "/invite" } }) : undefined
  const keys = apiKeys({ scopes: ["read", "write", "admin"], ...options.keys, ...(orgs ? { organizations: orgs } : {}), onChange: (event) => void changes.push(event) })
  const log =
    (level: string) =>
    (...args: unknown[]) =>
      void logs.push(`${level} ${args.map((a) => (a instanceof Error ? `${a.name}: ${a.message} ${String(a.stack)} ${String((a as { cause?: unknown }).cause)}` : JSON.stringify(a))).join(" ")}`)
  const config: AuthConfig = {
    secret,
    trustHost: true,
    adapter,
    session: { strategy: options.strategy ?? "database" },
    providers: [
      Credentials({
        credentials: { email: {} },
        authorize: async ({ email }) => (typeof email === "string" ? await adapter.getUserByEmail!(email) : null),
      }),
    ],
    plugins: [...(orgs ? [orgs] : []), keys, ...(options.plugins ?? [])],
    events: { security: (event) => void security.push(event) },
    logger: { error: log("error"), warn: log("warn"), debug: log("debug") },
    debug: true,
  }

  class Browser {
    readonly jar = new CookieJar()
    constructor(
      readonly email: string,
      readonly id: string,
    ) {}

    async send(path: string, init: { method?: string; json?: unknown; body?: string; query?: Record<string, string>; headers?: Record<string, string> } = {}): Promise<Response> {
      const url = new URL(`${origin}/auth/${path}`)
      for (const [k, v] of Object.entries(init.query ?? {})) url.searchParams.set(k, v)
      const headers: Record<string, string> = { cookie: this.jar.header(), ...init.headers }
      let body = init.body
      if (init.json !== undefined) {
        headers["content-type"] = "application/json"
        body = JSON.stringify(init.json)
      }
      if (body !== undefined) headers.origin ??= origin
      const response = await Auth(new Request(url, { method: init.method ?? (body !== undefined ? "POST" : "GET"), headers, body }), config)
      this.jar.apply(response)
      return response
    }

    async csrf(): Promise<string> {
      return ((await (await this.send("csrf")).json()) as { csrfToken: string }).csrfToken
    }

    /** POSTs `fields` as JSON with the CSRF token. */
    async post(path: string, fields: Record<string, unknown> = {}): Promise<{ status: number; body: any }> {
      const response = await this.send(path, { json: { csrfToken: await this.csrf(), ...fields } })
      return { status: response.status, body: await response.json() }
    }

    /** POSTs a form as the built-in page does; the answer's status, text and `Location`. */
    async form(path: string, fields: Record<string, string>): Promise<{ status: number; text: string; location: string | null }> {
      const response = await this.send(path, {
        body: new URLSearchParams({ csrfToken: await this.csrf(), ...fields }).toString(),
        headers: { "content-type": "application/x-www-form-urlencoded" },
      })
      return { status: response.status, text: await response.text(), location: response.headers.get("location") }
    }

    async signIn(): Promise<this> {
      const response = await this.send("callback/credentials", { json: { csrfToken: await this.csrf(), email: this.email } })
      if (response.status !== 302 || new URL(response.headers.get("location")!).searchParams.has("error")) throw new Error(`sign-in of ${this.email} failed`)
      return this
    }

    /** A server function, with this browser's cookies. */
    api(name: string, ...args: unknown[]): Promise<any> {
      return callModuleApi(new Request(`${origin}/app`, { headers: { cookie: this.jar.header() } }), config, name, ...args)
    }
  }

  /** A stored user, signed in in a browser of their own. */
  async function user(email: string): Promise<Browser> {
    const stored = await adapter.createUser!({ id: crypto.randomUUID(), email, name: email.split("@")[0]!, emailVerified: new Date() })
    return new Browser(email, stored.id).signIn()
  }

  /** What the app's API route sees of a request carrying `headers` (`Authorization: Bearer <key>`). */
  const verify = (headers: Record<string, string>) => verifyApiKey(new Request(`${origin}/api/things`, { headers }), config)
  const bearer = (key: string) => verify({ authorization: `Bearer ${key}` })

  /** Every row of every model the configuration declares, as JSON. */
  async function storedRows(): Promise<string> {
    const models = config.plugins!.flatMap((m) => [...(m.models ?? [])]) as ModelDeclaration[]
    const rows = await Promise.all(models.map((model) => base.store!.findMany(model)))
    return JSON.stringify(rows)
  }

  return { adapter, config, written, reads, logs, security, changes, invitations, user, verify, bearer, storedRows, Browser }
}

export type World = ReturnType<typeof makeWorld>

/** Ada owns Acme; Bob is an admin there, Cy a member; with their membership ids. */
export async function acme(world: World) {
  const ada = await world.user("ada@example.com")
  const bob = await world.user("bob@example.com")
  const cy = await world.user("cy@example.com")
  const created = await ada.post("organization/create", { name: "Acme" })
  const org = created.body as { id: string }
  const join = async (who: InstanceType<World["Browser"]>, roles: string[]) => {
    const invited = await ada.post("organization/invitations/create", { organizationId: org.id, email: who.email, roles })
    if (invited.status !== 200) throw new Error(`invite failed: ${JSON.stringify(invited)}`)
    const token = new URL(world.invitations.at(-1)!.url).searchParams.get("token")!
    const accepted = await who.post("organization/invitations/accept", { token })
    if (accepted.status !== 200) throw new Error(`accept failed: ${JSON.stringify(accepted)}`)
    return accepted.body.memberId as string
  }
  const bobMember = await join(bob, ["admin"])
  const cyMember = await join(cy, ["member"])
  return { ada, bob, cy, org, bobMember, cyMember }
}

/** The key in a page that shows one. */
export function keyIn(page: string, prefix = "sesame_"): string | null {
  return new RegExp(`${prefix}[0-9A-Za-z]{49}`).exec(page)?.[0] ?? null
}
