/**
 * Connections: an organization's identity providers, created and changed by those who may update
 * the organization (`organization: ["update"]`: its owners and admins by default), never by
 * anyone else. Every connection is looked up together with the organization the request names,
 * so another organization's connection id matches nothing, and a member who may not manage
 * connections gets `NotFound`, as for an organization they are not in.
 *
 * A connection's client secret is write-only: no answer carries it, and it is stored sealed under
 * the app's secret (`context.sealing`), so that a copy of the database does not hold it.
 *
 * @module
 */
import type { ModuleRequest, ModuleSealing, Store, StoredRow } from "@sesame/core"
import { SsoError } from "./errors.js"
import { connectionModel } from "./models.js"
import { providerUrl } from "./network.js"
import type { ResolvedSsoOptions, ServiceProviderKey } from "./options.js"
import { booleanOf, certificateInfo, effectiveSignRequests, samlSettings, serviceProviderOf, type CertificateInfo, type SamlSettings } from "./saml-settings.js"
import { isId, storeOf } from "./stored.js"

export type Protocol = "oidc" | "saml"

/** An OpenID Connect connection's settings, as stored. */
export interface OidcSettings {
  issuer: string
  clientId: string
  /** Sealed (`clientSecretPurpose`): `providers.ts` opens it for a sign-in. */
  clientSecret: string
}

/** What a client secret is sealed for (`ModuleSealing`). */
export const clientSecretPurpose = "sso.client-secret"

/** A stored connection. */
export type Connection = ConnectionBase & ({ protocol: "oidc"; settings: OidcSettings } | { protocol: "saml"; settings: SamlSettings })

interface ConnectionBase {
  id: string
  organizationId: string
  name: string
  enabled: boolean
  roles: string[]
  createdAt: Date
  updatedAt: Date
}

/** A connection as its organization's admins see it: what to register at the IdP, and no secret. */
export interface ConnectionInfo {
  id: string
  organizationId: string
  protocol: Protocol
  name: string
  enabled: boolean
  /** The roles a user it provisions gets in the organization. */
  roles: string[]
  /** The Sesame provider id of its sign-ins (`sso-<id>`), as accounts and the `signIn` event name it. */
  providerId: string
  /** An OpenID Connect connection's settings, and the redirect URI to register at the IdP. */
  oidc?: { issuer: string; clientId: string; hasClientSecret: boolean; redirectUri: string }
  /**
   * A SAML connection's settings, and what the IdP asks of this service provider (entity ID, ACS
   * URL, metadata). `signRequests` says whether its AuthnRequests are signed (never without the
   * app's service provider key); `spCertificate`, there when the app has that key, is the
   * certificate to give an IdP that takes a file rather than the metadata (to check signed
   * requests, to encrypt assertions).
   */
  saml?: {
    idpEntityId: string
    ssoUrl: string
    certificates: CertificateInfo[]
    allowIdpInitiated: boolean
    signRequests: boolean
    spEntityId: string
    acsUrl: string
    metadataUrl: string
    spCertificate?: string
  }
  createdAt: Date
  updatedAt: Date
}

interface CommonInput {
  name: string
  /** The roles it gives the people it provisions. Default: the module's `defaultRoles`. */
  roles?: string[]
  enabled?: boolean
}

/** What `createConnection` takes: an OpenID Connect provider, or a SAML one (its metadata XML, or its entity ID, sign-in URL and certificates). */
export type CreateConnectionInput =
  | (CommonInput & { protocol: "oidc"; issuer: string; clientId: string; clientSecret: string })
  | (CommonInput & { protocol: "saml"; metadata?: string; idpEntityId?: string; ssoUrl?: string; certificates?: string[]; allowIdpInitiated?: boolean; signRequests?: boolean })

/** What `updateConnection` takes: the fields to change (a client secret left out stays as it is). */
export type UpdateConnectionInput = Partial<CommonInput> & Record<string, unknown>

export const providerPrefix = "sso-"

export function connectionFrom(row: StoredRow): Connection {
  return {
    id: String(row.id),
    organizationId: String(row.organizationId),
    protocol: row.protocol,
    name: String(row.name),
    enabled: row.enabled === true,
    roles: Array.isArray(row.roles) ? row.roles.filter((role): role is string => typeof role === "string") : [],
    settings: row.settings,
    createdAt: row.createdAt as Date,
    updatedAt: row.updatedAt as Date,
  } as unknown as Connection
}

export function infoOf(request: Pick<ModuleRequest, "authUrl">, connection: Connection, serviceProvider: ServiceProviderKey | null): ConnectionInfo {
  const providerId = `${providerPrefix}${connection.id}`
  return {
    id: connection.id,
    organizationId: connection.organizationId,
    protocol: connection.protocol,
    name: connection.name,
    enabled: connection.enabled,
    roles: connection.roles,
    providerId,
    ...(connection.protocol === "oidc"
      ? {
          oidc: {
            issuer: connection.settings.issuer,
            clientId: connection.settings.clientId,
            hasClientSecret: connection.settings.clientSecret.length > 0,
            redirectUri: `${request.authUrl}/callback/${providerId}`,
          },
        }
      : {
          saml: {
            idpEntityId: connection.settings.idpEntityId,
            ssoUrl: connection.settings.ssoUrl,
            certificates: connection.settings.certificates.map(certificateInfo),
            allowIdpInitiated: connection.settings.allowIdpInitiated,
            signRequests: effectiveSignRequests(connection.settings, serviceProvider !== null),
            ...serviceProviderOf(request.authUrl, connection.id),
            ...(serviceProvider ? { spCertificate: serviceProvider.certificate } : {}),
          },
        }),
    createdAt: connection.createdAt,
    updatedAt: connection.updatedAt,
  }
}

function text(value: unknown, field: string, max: number): string {
  if (typeof value !== "string") throw new SsoError("InvalidInput", `\`${field}\` must be a string.`)
  const trimmed = value.trim()
  if (trimmed.length === 0 || trimmed.length > max || /[\u0000-\u001f\u007f]/.test(trimmed)) {
    throw new SsoError("InvalidInput", `\`${field}\` must be 1 to ${max} characters, without control characters.`)
  }
  return trimmed
}

function rolesOf(value: unknown, fallback: readonly string[]): string[] {
  if (value === undefined) return [...fallback]
  const list = typeof value === "string" ? [value] : value
  if (!Array.isArray(list) || list.length === 0 || list.length > 20 || list.some((role) => typeof role !== "string" || !/^[a-z][a-z0-9_-]{0,39}$/.test(role))) {
    throw new SsoError("InvalidInput", "`roles` must list 1 to 20 role names.")
  }
  if (list.includes("owner")) throw new SsoError("InvalidInput", "A connection cannot make owners: `roles` must not include `owner`.")
  return [...new Set(list as string[])]
}

/** Refuses unless the signed-in user may update `organizationId` (`NotFound` otherwise, see the module comment). */
async function mayManage(options: ResolvedSsoOptions, request: ModuleRequest, organizationId: unknown): Promise<string> {
  if (!(await request.user())) throw new SsoError("NotSignedIn", "Sign in first.")
  if (!isId(organizationId)) throw new SsoError("InvalidInput", "`organizationId` must be an id.")
  const allowed = await options.organizations.api.hasPermission(request as never, organizationId, { organization: ["update"] })
  if (!allowed) throw new SsoError("NotFound", "No such organization, or you may not manage its connections.")
  return organizationId
}

/**
 * Refuses roles the user may not have a connection give: unknown in the organization, `owner`, or
 * beyond their own (an admin cannot provision auditors if an admin may not invite one).
 */
async function checkRoles(options: ResolvedSsoOptions, request: ModuleRequest, organizationId: string, roles: readonly string[]): Promise<void> {
  const refused = await options.organizations.refusedRoles(request as never, organizationId, roles)
  if (refused) throw new SsoError("InvalidInput", `\`roles\`: ${refused}.`)
}

/** The connection `connectionId` of `organizationId`: never one of another organization. */
async function connectionIn(store: Store, organizationId: string, connectionId: unknown): Promise<Connection> {
  if (!isId(connectionId)) throw new SsoError("InvalidInput", "`connectionId` must be an id.")
  const row = await store.findOne(connectionModel, { id: connectionId, organizationId })
  if (!row) throw new SsoError("NotFound", "No such connection in this organization.")
  return connectionFrom(row)
}

async function oidcSettings(options: ResolvedSsoOptions, sealing: ModuleSealing, input: Record<string, unknown>, previous?: OidcSettings): Promise<OidcSettings> {
  let issuer = previous?.issuer ?? ""
  if (input.issuer !== undefined || !previous) {
    await providerUrl(input.issuer, "issuer", options.allowPrivateNetworks)
    // Kept as typed once checked: an issuer identifier is compared as a string, and some end in "/" (Entra ID v1).
    issuer = input.issuer as string
  }
  const clientId = input.clientId === undefined && previous ? previous.clientId : text(input.clientId, "clientId", 255)
  // The stored secret goes only to the provider it was entered for: a new issuer or client ID
  // needs it entered again, or an admin could point the connection at a server of theirs and
  // receive it at the token endpoint.
  const samePlace = previous !== undefined && issuer === previous.issuer && clientId === previous.clientId
  if (input.clientSecret === undefined && previous && !samePlace) {
    throw new SsoError("InvalidInput", "A new `issuer` or `clientId` needs its `clientSecret` too.")
  }
  const clientSecret = input.clientSecret === undefined && previous ? previous.clientSecret : await sealing.seal(clientSecretPurpose, text(input.clientSecret, "clientSecret", 1024))
  return { issuer, clientId, clientSecret }
}

export function connectionApi(options: ResolvedSsoOptions) {
  return {
    /** Adds a connection to `organizationId`; its info says what to register at the IdP (the redirect URI; the SAML entity ID and ACS URL). */
    async createConnection(request: ModuleRequest, organizationId: string, input: CreateConnectionInput): Promise<ConnectionInfo> {
      const orgId = await mayManage(options, request, organizationId)
      const fields = (input ?? {}) as unknown as Record<string, unknown>
      if (fields.protocol !== "oidc" && fields.protocol !== "saml") throw new SsoError("InvalidInput", '`protocol` must be "oidc" or "saml".')
      const now = new Date()
      const common = {
        id: crypto.randomUUID(),
        organizationId: orgId,
        name: text(fields.name, "name", 100),
        enabled: fields.enabled === undefined ? true : booleanOf(fields.enabled, "enabled"),
        roles: rolesOf(fields.roles, options.defaultRoles),
        createdAt: now,
        updatedAt: now,
      }
      await checkRoles(options, request, orgId, common.roles)
      const connection: Connection =
        fields.protocol === "oidc"
          ? { ...common, protocol: "oidc", settings: await oidcSettings(options, request.sealing, fields) }
          : { ...common, protocol: "saml", settings: samlSettings(fields, undefined, options.allowPrivateNetworks, options.serviceProvider !== null) }
      await storeOf(request).create(connectionModel, { ...connection, settings: { ...connection.settings } })
      return infoOf(request, connection, options.serviceProvider)
    },

    /** Changes the fields `input` names; the others, and a client secret left out, stay. */
    async updateConnection(request: ModuleRequest, organizationId: string, connectionId: string, input: UpdateConnectionInput): Promise<ConnectionInfo> {
      const orgId = await mayManage(options, request, organizationId)
      const store = storeOf(request)
      const current = await connectionIn(store, orgId, connectionId)
      const fields = (input ?? {}) as Record<string, unknown>
      if (fields.roles !== undefined) await checkRoles(options, request, orgId, rolesOf(fields.roles, options.defaultRoles))
      const next = {
        ...current,
        name: fields.name === undefined ? current.name : text(fields.name, "name", 100),
        enabled: fields.enabled === undefined ? current.enabled : booleanOf(fields.enabled, "enabled"),
        roles: fields.roles === undefined ? current.roles : rolesOf(fields.roles, options.defaultRoles),
        settings: current.protocol === "oidc" ? await oidcSettings(options, request.sealing, fields, current.settings) : samlSettings(fields, current.settings, options.allowPrivateNetworks, options.serviceProvider !== null),
        updatedAt: new Date(),
      } as Connection
      await store.update(connectionModel, { id: current.id, organizationId: orgId }, { name: next.name, enabled: next.enabled, roles: next.roles, settings: { ...next.settings }, updatedAt: next.updatedAt })
      return infoOf(request, next, options.serviceProvider)
    },

    async deleteConnection(request: ModuleRequest, organizationId: string, connectionId: string): Promise<void> {
      const orgId = await mayManage(options, request, organizationId)
      const store = storeOf(request)
      const current = await connectionIn(store, orgId, connectionId)
      await store.delete(connectionModel, { id: current.id, organizationId: orgId })
    },

    async getConnection(request: ModuleRequest, organizationId: string, connectionId: string): Promise<ConnectionInfo> {
      const orgId = await mayManage(options, request, organizationId)
      return infoOf(request, await connectionIn(storeOf(request), orgId, connectionId), options.serviceProvider)
    },

    async listConnections(request: ModuleRequest, organizationId: string): Promise<ConnectionInfo[]> {
      const orgId = await mayManage(options, request, organizationId)
      const rows = await storeOf(request).findMany(connectionModel, { where: { organizationId: orgId }, orderBy: [{ field: "createdAt", direction: "asc" }] })
      return rows.map((row) => infoOf(request, connectionFrom(row), options.serviceProvider))
    },
  }
}
