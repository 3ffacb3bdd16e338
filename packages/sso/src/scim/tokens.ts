/**
 * A connection's SCIM token: what its identity provider sends as `Authorization: Bearer …` to
 * provision the organization's people. Made and revoked by those who may manage the connection,
 * with exactly the check every connection action makes (`getConnection`: signed in, allowed to
 * update the organization, the connection its own; `NotFound` otherwise). The token is 32 random
 * bytes in base64url after a prefix that secret scanners can recognise (`sesame_scim_`); it is shown
 * once, and only its SHA-256 is stored: finding a token is a lookup by hash, so no comparison of
 * the secret itself can leak through timing. One token per connection: a new one replaces the last.
 *
 * The token also records which roles the IdP's groups may give (`membership.ts`): the built-in
 * roles but `owner`, and the organization's own, each only when its maker could give it by
 * invitation (the organizations module's `refusedRoles`), as for the connection's own roles.
 *
 * @module
 */
import type { ModuleRequest, Store } from "@sesame/core"
import { builtInRoles, roleModel } from "@sesame/organizations"
import { connectionApi } from "../connections.js"
import type { ResolvedSsoOptions } from "../options.js"
import { scimTokenModel } from "./models.js"
import { storeOf } from "../stored.js"

export const tokenPrefix = "sesame_scim_"

/** What a well-formed token looks like: the prefix and 32 bytes in base64url (43 characters). */
export const tokenPattern = /^sesame_scim_[A-Za-z0-9_-]{43}$/

/** Where the service is, below the auth URL: what the IdP is given as the SCIM base URL. */
export const servicePrefix = "sso/scim/v2"

/** SHA-256 of `token`, hex. */
export async function hashToken(token: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(token))
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, "0")).join("")
}

function newToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32))
  return `${tokenPrefix}${Buffer.from(bytes).toString("base64url")}`
}

/** The roles `request`'s user could give in `organizationId` that a group may map to (see the module comment). */
async function groupRolesOf(options: ResolvedSsoOptions, request: ModuleRequest, store: Store, organizationId: string): Promise<string[]> {
  const own = await store.findMany(roleModel, { where: { organizationId }, limit: 50 })
  const candidates = [...new Set([...builtInRoles.filter((role) => role !== "owner"), ...own.map((row) => String(row.name))])]
  const allowed = await Promise.all(candidates.map(async (role) => (await options.organizations.refusedRoles(request as never, organizationId, [role])) === null))
  return candidates.filter((_, i) => allowed[i])
}

/** A new SCIM token, shown once. */
export interface ScimToken {
  token: string
  createdAt: Date
  /** The SCIM base URL to give the identity provider (`<authUrl>/sso/scim/v2`). */
  url: string
}

export function scimTokenApi(options: ResolvedSsoOptions) {
  const connections = connectionApi(options)
  return {
    /** Makes the SCIM token of connection `connectionId` of `organizationId`, replacing the one it had. */
    async createScimToken(request: ModuleRequest, organizationId: string, connectionId: string): Promise<ScimToken> {
      const connection = await connections.getConnection(request, organizationId, connectionId)
      const store = storeOf(request)
      const groupRoles = await groupRolesOf(options, request, store, connection.organizationId)
      const token = newToken()
      const createdAt = new Date()
      const row = { id: crypto.randomUUID(), connectionId: connection.id, organizationId: connection.organizationId, tokenHash: await hashToken(token), groupRoles, createdAt, lastUsedAt: null }
      await store.transaction(async (tx) => {
        await tx.delete(scimTokenModel, { connectionId: connection.id, organizationId: connection.organizationId })
        await tx.create(scimTokenModel, row)
      })
      return { token, createdAt, url: `${request.authUrl}/${servicePrefix}` }
    },

    /** Revokes the SCIM token of connection `connectionId` of `organizationId` (nothing when it has none). */
    async revokeScimToken(request: ModuleRequest, organizationId: string, connectionId: string): Promise<void> {
      const connection = await connections.getConnection(request, organizationId, connectionId)
      await storeOf(request).delete(scimTokenModel, { connectionId: connection.id, organizationId: connection.organizationId })
    },
  }
}
