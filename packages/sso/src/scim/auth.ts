/**
 * Who is calling the SCIM service: the connection whose token the request carries as
 * `Authorization: Bearer …`, nothing else (the core hands a service no cookie, and a browser's
 * session never counts). A missing, malformed, unknown or revoked token, or one of a connection
 * that is turned off, is the same `401`. Every later lookup goes through the {@link Scope} this
 * returns, so a token of one organization never reaches another's data.
 *
 * @module
 */
import type { ModuleServiceContext, Store } from "@sesame/core"
import { connectionFrom } from "../connections.js"
import { connectionModel } from "../models.js"
import type { ResolvedSsoOptions } from "../options.js"
import { ScimError } from "./errors.js"
import { scimTokenModel } from "./models.js"
import { hashToken, servicePrefix, tokenPattern } from "./tokens.js"

/** What every SCIM action works within: one connection of one organization. */
export interface Scope {
  options: ResolvedSsoOptions
  context: ModuleServiceContext
  store: Store
  organizationId: string
  connectionId: string
  /** The roles the connection gives the people it provisions. */
  roles: readonly string[]
  /** The roles a group may give through this token (see `tokens.ts`). */
  groupRoles: readonly string[]
  /** The service's base URL, for `meta.location`. */
  base: string
}

/** `lastUsedAt` is written at most this often: a sync of many users makes many requests. */
const lastUsedEveryMs = 5 * 60 * 1000

export const unauthorized = () => new ScimError(401, undefined, "A valid SCIM bearer token is required.", { "www-authenticate": 'Bearer realm="SCIM"' })

/** The scope of the request's token; `401` when there is none that holds. */
export async function authenticate(options: ResolvedSsoOptions, request: Request, context: ModuleServiceContext): Promise<Scope> {
  const store = context.store
  if (!store) throw new TypeError("sso: no store (the module is off without one).")
  const header = request.headers.get("authorization") ?? ""
  const token = /^Bearer +(\S+) *$/i.exec(header)?.[1]
  if (!token || !tokenPattern.test(token)) throw unauthorized()
  const row = await store.findOne(scimTokenModel, { tokenHash: await hashToken(token) })
  if (!row) throw unauthorized()
  const organizationId = String(row.organizationId)
  const found = await store.findOne(connectionModel, { id: String(row.connectionId), organizationId })
  const connection = found && connectionFrom(found)
  if (!connection?.enabled) throw unauthorized()
  const lastUsed = row.lastUsedAt instanceof Date ? row.lastUsedAt.getTime() : 0
  if (Date.now() - lastUsed > lastUsedEveryMs) await store.update(scimTokenModel, { id: String(row.id) }, { lastUsedAt: new Date() })
  const groupRoles = Array.isArray(row.groupRoles) ? row.groupRoles.filter((role): role is string => typeof role === "string" && role !== "owner") : []
  return { options, context, store, organizationId, connectionId: connection.id, roles: connection.roles, groupRoles, base: `${context.authUrl}/${servicePrefix}` }
}
