/**
 * The tests' world: Sesame with the organizations module on the memory adapter, users made with
 * proven (or unproven) addresses, and a browser per user that signs in and calls the module's
 * endpoints as a page's script would (JSON, with the CSRF token).
 */
import { Auth, callModuleApi, type AuthConfig, type SecurityEvent, type SesameModule } from "@sesame/core"
import { MemoryAdapter, type Adapter } from "@sesame/core/adapters"
import Credentials from "@sesame/core/providers/credentials"
import { organizations, type DomainOptions, type InvitationMessage, type OrganizationEvent } from "@sesame/organizations"
import { CookieJar } from "../../core/test/helpers.js"

export const origin = "http://localhost:3000"
export const secret = "organizations-test-secret-0123456789abcdefghij"

export { CookieJar }

export function makeWorld(
  options: {
    strategy?: "jwt" | "database"
    updateAge?: number
    allowCreate?: boolean
    adapter?: Adapter
    domains?: DomainOptions
    dynamicRoles?: boolean
    /** The app's secret, or its secrets newest first (a rotation). Default `secret`. */
    secret?: string | string[]
    /** Where Sesame's errors go. Default: nowhere. */
    logError?: (error: Error) => void
    /** Modules that work with this organizations module (`@sesame/sso`), after it in `plugins`. */
    plugins?: (orgs: ReturnType<typeof organizations>) => SesameModule[]
    /** The app's `events.security`. */
    onSecurityEvent?: (event: SecurityEvent) => void
  } = {},
) {
  const adapter = options.adapter ?? MemoryAdapter()
  const sent: InvitationMessage[] = []
  const events: OrganizationEvent[] = []
  const orgs = organizations({
    statements: { project: ["create", "read", "delete"] },
    roles: { member: { project: ["read"] }, admin: { project: ["create", "read"] }, billing: { project: ["read"] }, auditor: { project: ["delete"] } },
    invitations: { send: (message) => void sent.push(message), acceptUrl: "/invite", maxSends: 2 },
    onChange: (event) => void events.push(event),
    ...(options.allowCreate === undefined ? {} : { allowCreate: options.allowCreate }),
    ...(options.domains ? { domains: options.domains } : {}),
    ...(options.dynamicRoles ? { dynamicRoles: true } : {}),
  })
  const config: AuthConfig = {
    secret: options.secret ?? secret,
    trustHost: true,
    adapter,
    session: { strategy: options.strategy ?? "database", ...(options.updateAge === undefined ? {} : { updateAge: options.updateAge }) },
    providers: [
      Credentials({
        credentials: { email: {} },
        authorize: async ({ email }) => (typeof email === "string" ? await adapter.getUserByEmail!(email) : null),
      }),
    ],
    plugins: [orgs, ...(options.plugins?.(orgs) ?? [])],
    ...(options.onSecurityEvent ? { events: { security: options.onSecurityEvent } } : {}),
    apiTokens: { audience: "https://api.example.com" },
    logger: { error: options.logError ?? (() => {}), warn: () => {}, debug: () => {} },
  }

  class Browser {
    readonly jar = new CookieJar()
    constructor(readonly email?: string) {}

    /** A request with this browser's cookies: `json` as a script sends it, or `body` as given (a form's). */
    async send(path: string, init: { method?: string; json?: unknown; body?: string; query?: Record<string, string>; headers?: Record<string, string> } = {}): Promise<Response> {
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

    /** POSTs `fields` as JSON with the CSRF token; the status and the JSON answer. */
    async post(path: string, fields: Record<string, unknown> = {}): Promise<{ status: number; body: any }> {
      const response = await this.send(path, { json: { csrfToken: await this.csrf(), ...fields } })
      return { status: response.status, body: response.status === 204 ? null : await response.json() }
    }

    async get(path: string, query: Record<string, string> = {}): Promise<{ status: number; body: any }> {
      const response = await this.send(path, { query })
      return { status: response.status, body: await response.json() }
    }

    async signIn(): Promise<this> {
      const response = await this.send("callback/credentials", { json: { csrfToken: await this.csrf(), email: this.email } })
      if (response.status !== 302 || new URL(response.headers.get("location")!).searchParams.has("error")) throw new Error(`sign-in of ${this.email} failed`)
      return this
    }

    async session(): Promise<any> {
      return (await this.send("session")).json()
    }

    /** A server function, with this browser's cookies. */
    api(name: string, ...args: unknown[]): Promise<any> {
      return callModuleApi(new Request(`${origin}/app`, { headers: { cookie: this.jar.header() } }), config, name, ...args)
    }
  }

  /** A stored user (proven address unless said otherwise), signed in in a browser of their own. */
  async function user(email: string, { verified = true } = {}): Promise<Browser & { id: string }> {
    const stored = await adapter.createUser!({ id: crypto.randomUUID(), email, name: email.split("@")[0]!, emailVerified: verified ? new Date() : null })
    const browser = await new Browser(email).signIn()
    return Object.assign(browser, { id: stored.id })
  }

  /** An organization made by `owner` through the endpoint. */
  async function organization(owner: Browser, name: string): Promise<{ id: string; slug: string }> {
    const created = await owner.post("organization/create", { name })
    if (created.status !== 200) throw new Error(`create failed: ${JSON.stringify(created)}`)
    return created.body
  }

  /** `who` made a member of `org` with `roles`, by invitation from `by`. */
  async function join(by: Browser, org: { id: string }, who: Browser & { email?: string }, roles: string[] = ["member"]): Promise<string> {
    const invited = await by.post("organization/invitations/create", { organizationId: org.id, email: who.email, roles })
    if (invited.status !== 200) throw new Error(`invite failed: ${JSON.stringify(invited)}`)
    const accepted = await who.post("organization/invitations/accept", { token: tokenOf(sent.at(-1)!) })
    if (accepted.status !== 200) throw new Error(`accept failed: ${JSON.stringify(accepted)}`)
    return accepted.body.memberId
  }

  return { adapter, config, sent, events, orgs, Browser, user, organization, join }
}

/** The token of an invitation's link. */
export function tokenOf(message: InvitationMessage): string {
  return new URL(message.url).searchParams.get("token")!
}

/** Ada owns Acme; Bob is an admin, Cy a member; with their membership ids. */
export async function acmeWithStaff(options: Parameters<typeof makeWorld>[0] = {}) {
  const w = makeWorld(options)
  const ada = await w.user("ada@example.com")
  const bob = await w.user("bob@example.com")
  const cy = await w.user("cy@example.com")
  const org = await w.organization(ada, "Acme")
  const bobId = await w.join(ada, org, bob, ["admin"])
  const cyId = await w.join(ada, org, cy, ["member"])
  const members = (await ada.get("organization/members", { organizationId: org.id })).body as { id: string; userId: string }[]
  const adaId = members.find((m) => m.userId === ada.id)!.id
  return { w, ada, bob, cy, org, adaId, bobId, cyId }
}
