/**
 * Verified domains. An organization's admin (`organization: ["update"]`) adds a domain and gets a
 * TXT record to publish (`<recordPrefix>.<domain>`, value `sesame-verification=<token>`, the token
 * random and the organization's own); verifying looks the record up in DNS and, when one of the
 * answers is exactly that value, marks the domain proven. One organization at most holds a domain
 * proven: the first to verify it (the store's unique `verifiedDomain` decides a race); another
 * may add it but never verify it while the first keeps it.
 *
 * With `autoJoin` turned on (off by default) for a proven domain, a user who signs in with a
 * proven address at exactly that domain (the part after the last `@`: `ada@sub.acme.com` is not
 * at `acme.com`) becomes a member with the domain's `joinRoles`. The address and its proof are
 * read from the store at sign-in, never from what a provider or `authorize` returned.
 *
 * @module
 */
import { Resolver } from "node:dns/promises"
import { isIP } from "node:net"
import { StoreConflict, type ModelDeclaration, type ModuleContext, type ModuleEvents, type ModuleRequest, type ModuleRoute, type StoredRow } from "@sesame/core"
import { actorOf, asMember, rolesFrom, storeOf, withGrant, type Deps } from "./context.js"
import { OrganizationError } from "./errors.js"
import { report } from "./events.js"
import { idOf, roleNamesOf } from "./input.js"
import { join } from "./join.js"
import { booleanField, field, route } from "./route.js"

export const domainModel = {
  name: "organizationDomain",
  table: "sesame_organization_domains",
  primaryKey: "id",
  fields: {
    id: { type: "string" },
    organizationId: { type: "string", references: { model: "organization" } },
    /** The domain as added: lowercase ASCII (punycode), no trailing dot. */
    domain: { type: "string", index: true },
    /** What the TXT record must carry (after `sesame-verification=`): public once published. */
    verificationToken: { type: "string" },
    verifiedAt: { type: "date", optional: true },
    /** The domain once this organization proved it, else null: one organization at most per proven domain. */
    verifiedDomain: { type: "string", optional: true, unique: true },
    autoJoin: { type: "boolean", default: false },
    /** The roles a user who joins by this domain gets. */
    joinRoles: { type: "json" },
    createdAt: { type: "date" },
  },
  indexes: [{ fields: ["organizationId", "domain"], unique: true }],
} as const satisfies ModelDeclaration

/** The options of verified domains (`domains` in the module's options). */
export interface DomainOptions {
  /**
   * The DNS servers verification asks (`"127.0.0.1"`, `"10.0.0.2:5353"`, `"[::1]:53"`): for an app
   * behind a resolver of its own, and for tests. Default: the system's.
   */
  resolver?: { servers: string[] }
  /** The first label(s) of the TXT record's name, before the domain. Default `_sesame-verification`. */
  recordPrefix?: string
}

/** The options with their defaults. */
export interface ResolvedDomainOptions {
  servers: string[] | undefined
  recordPrefix: string
}

/** The changes verified domains report to `onChange`. */
export type DomainEvent = { organizationId: string; actorId: string } & (
  | { type: "domain.added" | "domain.verified" | "domain.removed"; domainId: string; domain: string }
  | { type: "domain.auto-join-changed"; domainId: string; domain: string; autoJoin: boolean; roles: string[] }
  | { type: "member.added"; memberId: string; userId: string; roles: string[] }
)

/** A domain as the organization's members see it. */
export interface DomainInfo {
  id: string
  organizationId: string
  domain: string
  /** What to publish in DNS to prove the domain. */
  record: { type: "TXT"; name: string; value: string }
  verified: boolean
  verifiedAt: Date | null
  autoJoin: boolean
  joinRoles: string[]
  createdAt: Date
}

const label = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/
const prefixLabel = /^[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9])?$/
/** How many domains one organization may add. */
const maxDomains = 50
/** How long a verification may wait for DNS, in all. */
const lookupDeadline = 3000

/** Checks `options`; throws a `TypeError` naming the option that is wrong. */
export function resolveDomainOptions(options: DomainOptions = {}): ResolvedDomainOptions {
  if (options === null || typeof options !== "object") throw new TypeError("organizations: `domains` must be an object.")
  const { resolver, recordPrefix = "_sesame-verification" } = options
  let servers: string[] | undefined
  if (resolver !== undefined) {
    if (resolver === null || typeof resolver !== "object" || !Array.isArray(resolver.servers) || resolver.servers.length === 0 || !resolver.servers.every((s) => typeof s === "string")) {
      throw new TypeError("organizations: `domains.resolver.servers` must be a list of DNS server addresses.")
    }
    servers = [...resolver.servers]
    try {
      new Resolver().setServers(servers)
    } catch (error) {
      throw new TypeError(`organizations: \`domains.resolver.servers\` has an address that is not one: ${(error as Error).message}`)
    }
  }
  if (typeof recordPrefix !== "string" || recordPrefix.length > 63 || !recordPrefix.split(".").every((part) => prefixLabel.test(part))) {
    throw new TypeError("organizations: `domains.recordPrefix` must be one or more DNS labels (`_sesame-verification`).")
  }
  return { servers, recordPrefix }
}

const invalid = (message: string) => new OrganizationError("InvalidInput", message)

/**
 * A domain as stored: trimmed, lowercased, an ASCII (punycode) hostname of at least two labels of
 * at most 63 characters, at most 253 in all, no trailing dot, not an IP address.
 */
export function domainOf(value: unknown): string {
  const domain = typeof value === "string" ? value.trim().toLowerCase() : ""
  const message = "`domain` must be a domain name such as example.com (ASCII: punycode for an international one)."
  if (domain.length === 0 || domain.length > 253 || isIP(domain) !== 0) throw invalid(message)
  const labels = domain.split(".")
  if (labels.length < 2 || !labels.every((part) => label.test(part))) throw invalid(message)
  // A top-level domain is never all digits: this also refuses IPv4 addresses written oddly.
  if (/^[0-9]+$/.test(labels.at(-1)!)) throw invalid(message)
  return domain
}

/** The domain of `email` as domains are stored (after the last `@`, lowercased), or null. */
export function emailDomainOf(email: string | null | undefined): string | null {
  if (typeof email !== "string") return null
  const at = email.lastIndexOf("@")
  if (at < 1) return null
  const domain = email.slice(at + 1).trim().toLowerCase()
  try {
    return domainOf(domain)
  } catch {
    return null
  }
}

/** The TXT record that proves `domain` with `token`. */
export function recordOf(options: ResolvedDomainOptions, domain: string, token: string): { type: "TXT"; name: string; value: string } {
  return { type: "TXT", name: `${options.recordPrefix}.${domain}`, value: `sesame-verification=${token}` }
}

function infoFrom(options: ResolvedDomainOptions, row: StoredRow): DomainInfo {
  const domain = String(row.domain)
  return {
    id: String(row.id),
    organizationId: String(row.organizationId),
    domain,
    record: recordOf(options, domain, String(row.verificationToken)),
    verified: row.verifiedAt instanceof Date,
    verifiedAt: (row.verifiedAt as Date | null) ?? null,
    autoJoin: row.autoJoin === true,
    joinRoles: rolesFrom(row.joinRoles),
    createdAt: row.createdAt as Date,
  }
}

/** The domain `domainId` of `organizationId` (one of another organization is `NotFound`). */
async function domainIn(request: ModuleRequest, organizationId: string, domainId: string): Promise<StoredRow> {
  const row = await storeOf(request).findOne(domainModel, { id: idOf(domainId, "domainId"), organizationId })
  if (!row) throw new OrganizationError("NotFound", "No such domain.")
  return row
}

const takenElsewhere = () => new OrganizationError("DomainTaken", "Another organization has verified this domain.")

/** The TXT values at `name` (each record's chunks joined); a DNS failure is `InvalidInput`. */
async function txtValues(options: ResolvedDomainOptions, name: string, missing: () => OrganizationError): Promise<string[]> {
  const resolver = new Resolver({ timeout: 1000, tries: 2 })
  if (options.servers) resolver.setServers(options.servers)
  let timer: ReturnType<typeof setTimeout> | undefined
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      resolver.cancel()
      reject(Object.assign(new Error("DNS lookup timed out"), { code: "ETIMEOUT" }))
    }, lookupDeadline)
  })
  try {
    const records = await Promise.race([resolver.resolveTxt(name), deadline])
    return records.map((chunks) => chunks.join(""))
  } catch {
    // ENOTFOUND, ENODATA, ETIMEOUT, ECONNREFUSED, ESERVFAIL, EREFUSED…: all say "not there (yet)".
    throw missing()
  } finally {
    clearTimeout(timer)
  }
}

/**
 * The server functions of verified domains for `deps` and `options` (the module's `domains`):
 * each takes the request first, as the module's other server functions.
 */
export function domainApi(deps: Deps, options?: DomainOptions) {
  const resolved = resolveDomainOptions(options)

  /** Adds `domain` to `organizationId` (`organization: ["update"]`); one it has already is answered as it is. */
  async function addDomain(request: ModuleRequest, organizationId: string, domain: string): Promise<DomainInfo> {
    const actor = await actorOf(request)
    const store = storeOf(request)
    const id = idOf(organizationId, "organizationId")
    await withGrant(deps, store, actor, id, { organization: ["update"] })
    const name = domainOf(domain)
    const existing = await store.findOne(domainModel, { organizationId: id, domain: name })
    if (existing) return infoFrom(resolved, existing)
    if (await store.findOne(domainModel, { verifiedDomain: name })) throw takenElsewhere()
    if ((await store.count(domainModel, { organizationId: id })) >= maxDomains) throw invalid(`An organization may have at most ${maxDomains} domains.`)
    const token = Buffer.from(crypto.getRandomValues(new Uint8Array(24))).toString("base64url")
    let row: StoredRow
    try {
      row = await store.create(domainModel, { id: crypto.randomUUID(), organizationId: id, domain: name, verificationToken: token, verifiedAt: null, verifiedDomain: null, autoJoin: false, joinRoles: ["member"], createdAt: new Date() })
    } catch (error) {
      if (!(error instanceof StoreConflict)) throw error
      // Added at the same moment by another request of this organization.
      const again = await store.findOne(domainModel, { organizationId: id, domain: name })
      if (!again) throw error
      return infoFrom(resolved, again)
    }
    const info = infoFrom(resolved, row)
    await report(deps.options, request, { type: "domain.added", organizationId: id, actorId: actor.id, domainId: info.id, domain: name } satisfies DomainEvent)
    return info
  }

  /**
   * Looks the domain's TXT record up and marks it proven when it is there with its value
   * (`organization: ["update"]`). Not there (yet), or DNS failing, is `InvalidInput`; a domain
   * another organization proved first is `DomainTaken`. Verifying a proven domain again is a no-op.
   */
  async function verifyDomain(request: ModuleRequest, organizationId: string, domainId: string): Promise<DomainInfo> {
    const actor = await actorOf(request)
    const store = storeOf(request)
    const id = idOf(organizationId, "organizationId")
    await withGrant(deps, store, actor, id, { organization: ["update"] })
    const row = await domainIn(request, id, domainId)
    if (row.verifiedAt instanceof Date) return infoFrom(resolved, row)
    const domain = String(row.domain)
    if (await store.findOne(domainModel, { verifiedDomain: domain })) throw takenElsewhere()
    const record = recordOf(resolved, domain, String(row.verificationToken))
    const missing = () => invalid(`The TXT record ${record.name} with the value ${record.value} was not found. Publish it at your DNS provider, wait for it to propagate, and try again.`)
    const values = await txtValues(resolved, record.name, missing)
    if (!values.includes(record.value)) throw missing()
    const verifiedAt = new Date()
    try {
      // The unique `verifiedDomain` makes the first organization to get here the only one.
      const updated = await store.update(domainModel, { id: String(row.id), organizationId: id }, { verifiedAt, verifiedDomain: domain })
      if (updated === 0) throw new OrganizationError("NotFound", "No such domain.")
    } catch (error) {
      if (error instanceof StoreConflict) throw takenElsewhere()
      throw error
    }
    await report(deps.options, request, { type: "domain.verified", organizationId: id, actorId: actor.id, domainId: String(row.id), domain } satisfies DomainEvent)
    return infoFrom(resolved, { ...row, verifiedAt, verifiedDomain: domain })
  }

  /** Removes a domain (`organization: ["update"]`): its auto-join stops, and another organization may verify it. */
  async function removeDomain(request: ModuleRequest, organizationId: string, domainId: string): Promise<void> {
    const actor = await actorOf(request)
    const store = storeOf(request)
    const id = idOf(organizationId, "organizationId")
    await withGrant(deps, store, actor, id, { organization: ["update"] })
    const row = await domainIn(request, id, domainId)
    if ((await store.delete(domainModel, { id: String(row.id), organizationId: id })) === 0) throw new OrganizationError("NotFound", "No such domain.")
    await report(deps.options, request, { type: "domain.removed", organizationId: id, actorId: actor.id, domainId: String(row.id), domain: String(row.domain) } satisfies DomainEvent)
  }

  /** The domains of an organization the signed-in user belongs to, oldest first. */
  async function listDomains(request: ModuleRequest, organizationId: string): Promise<DomainInfo[]> {
    const actor = await actorOf(request)
    const store = storeOf(request)
    const id = idOf(organizationId, "organizationId")
    await asMember(store, actor, id)
    const rows = await store.findMany(domainModel, { where: { organizationId: id }, orderBy: [{ field: "createdAt" }, { field: "domain" }], limit: maxDomains * 2 })
    return rows.map((row) => infoFrom(resolved, row))
  }

  /**
   * Turns auto-join on or off for a proven domain (`organization: ["update"]`), with the roles a
   * user who joins gets (default: as they are, first `["member"]`): known roles, within the
   * actor's own, never `owner`.
   */
  async function setDomainAutoJoin(request: ModuleRequest, organizationId: string, domainId: string, autoJoin: boolean, roles?: string[]): Promise<DomainInfo> {
    const actor = await actorOf(request)
    const store = storeOf(request)
    const id = idOf(organizationId, "organizationId")
    const { membership, book } = await withGrant(deps, store, actor, id, { organization: ["update"] })
    if (typeof autoJoin !== "boolean") throw invalid("`autoJoin` must be true or false.")
    const row = await domainIn(request, id, domainId)
    const given = roles === undefined ? rolesFrom(row.joinRoles) : roleNamesOf(roles)
    // Turning auto-join off keeps the roles as they are, whoever does it; giving them is checked.
    if (autoJoin || roles !== undefined) {
      const unknown = book.unknown(given)
      if (unknown.length > 0) throw invalid(`No such role: ${unknown.join(", ")}.`)
      if (given.length === 0) throw invalid("`roles` must be one role name or a list of them.")
      if (given.includes("owner")) throw new OrganizationError("Forbidden", "Users who join by their address cannot be owners.")
      if (!book.mayGive(membership.roles, given)) throw new OrganizationError("Forbidden", "You cannot give roles beyond your own.")
    }
    if (autoJoin && !(row.verifiedAt instanceof Date)) throw invalid("Verify the domain first.")
    if ((await store.update(domainModel, { id: String(row.id), organizationId: id }, { autoJoin, joinRoles: given })) === 0) throw new OrganizationError("NotFound", "No such domain.")
    await report(deps.options, request, { type: "domain.auto-join-changed", organizationId: id, actorId: actor.id, domainId: String(row.id), domain: String(row.domain), autoJoin, roles: given } satisfies DomainEvent)
    return infoFrom(resolved, { ...row, autoJoin, joinRoles: given })
  }

  return { addDomain, verifyDomain, removeDomain, listDomains, setDomainAutoJoin }
}

/** The endpoints of verified domains, at `<basePath>/organization/domains…`. */
export function domainRoutes(deps: Deps, options?: DomainOptions): Record<string, ModuleRoute> {
  const api = domainApi(deps, options)
  const id = (request: ModuleRequest) => field(request, "organizationId") as string
  const domainId = (request: ModuleRequest) => field(request, "domainId") as string
  return {
    "POST organization/domains/add": route((r) => api.addDomain(r, id(r), field(r, "domain") as string)),
    "POST organization/domains/verify": route((r) => api.verifyDomain(r, id(r), domainId(r))),
    "POST organization/domains/remove": route((r) => api.removeDomain(r, id(r), domainId(r))),
    "POST organization/domains/auto-join": route(async (r) => api.setDomainAutoJoin(r, id(r), domainId(r), booleanField(r, "autoJoin"), field(r, "roles") as string[] | undefined)),
    "GET organization/domains": route((r) => api.listDomains(r, id(r))),
  }
}

/**
 * The module's `signIn` handler: a user whose stored address is proven, at a domain an
 * organization proved with auto-join on, becomes a member of it with the domain's roles (nothing
 * when a member already). Roles the configuration no longer defines, and `owner`, are dropped.
 */
export function domainSignIn(deps: Deps): NonNullable<ModuleEvents["signIn"]> {
  return async (message, context: ModuleContext) => {
    const userId = message.user?.id
    if (!userId || !context.store || !context.users) return
    // The stored user, not the message's: `authorize` may return anything.
    const user = await context.users.get(userId)
    if (!user?.emailVerified) return
    const domain = emailDomainOf(user.email)
    if (!domain) return
    const store = context.store
    const row = await store.findOne(domainModel, { verifiedDomain: domain })
    if (!row || row.autoJoin !== true || !(row.verifiedAt instanceof Date) || row.domain !== domain) return
    await join(deps, store, context, { organizationId: String(row.organizationId), userId: user.id, roles: rolesFrom(row.joinRoles) })
  }
}
