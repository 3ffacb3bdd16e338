/**
 * Clients the app's users register themselves: a developer's app that signs people in with their
 * account here, owned by the user who registered it or by an organization (then managed by
 * whoever may update the organization: `organization: ["update"]`, its owners and admins by
 * default). The configuration's clients are the app's own and are never managed here.
 *
 * Policy, in one place:
 * - An app is found together with its owner: another user's app, an organization's app the user
 *   may not manage, a configured client and an id that exists nowhere are all `NotFound`, with the
 *   same words, so that nobody learns another owner's client ids.
 * - The client ID is `sesame_` and 16 random bytes; the secret is 32 random bytes, returned once
 *   (at creation, at each rotation) and stored sealed under the app's secret (`storage.ts`). A
 *   public app (a browser, mobile or command-line app) has none: it proves itself with PKCE.
 * - The metadata is checked by oidc-provider itself (`Client.validate`) before anything is stored,
 *   and a redirect URI must be https, http on a loopback host, or an app's own scheme (RFC 8252).
 * - Such an app asks each user for consent: it is never first party (the configuration's word
 *   alone), and it never gets the client credentials grant, which would give it tokens for the
 *   app's APIs in nobody's name.
 * - Deleting an app deletes its client, every consent to it and the grants behind them, so its
 *   refresh and opaque access tokens stop working at once; a JWT access token made for a resource
 *   is checked by the resource alone and lasts until it expires (`accessTokenTtl`).
 *
 * @module
 */
import { randomBytes } from "node:crypto"
import type { ModuleRequest, Store } from "@sesame/core"
import { errors, type Adapter, type AdapterPayload, type ClientMetadata } from "oidc-provider"
import { clientModel, consentModel, recordModel } from "./models.js"
import { knownScopes, type GrantType, type ResolvedOptions } from "./options.js"
import type { ServerFor } from "./servers.js"
import { isHttpsOrLoopback, loopbackHosts } from "./uris.js"
import { storeAdapter } from "./storage.js"

/** Why a client action was refused, with the status an endpoint answers it with. */
export const oauthClientErrorStatus = {
  /** The request has no signed-in user. */
  NotSignedIn: 401,
  /** The input is not what the action takes (the metadata oidc-provider refused, a bad redirect URI). */
  InvalidInput: 400,
  /** No such app for this user: another's, a configured client, none at all, or an organization they may not manage. */
  NotFound: 404,
} as const

export type OAuthClientErrorCode = keyof typeof oauthClientErrorStatus

export class OAuthClientError extends Error {
  override readonly name = "OAuthClientError"
  readonly code: OAuthClientErrorCode
  readonly status: number

  constructor(code: OAuthClientErrorCode, message: string) {
    super(message)
    this.code = code
    this.status = oauthClientErrorStatus[code]
  }
}

/** The grants a registered app may use: every one but client credentials (see the module comment). */
export type RegisteredGrantType = Exclude<GrantType, "client_credentials">

/** What `createOAuthClient` takes. */
export interface CreateOAuthClientInput {
  /** What the consent page calls it: 1 to 100 characters. */
  name: string
  /** Where codes may be sent, compared exactly. Needed by the authorization code grant. */
  redirectUris: readonly string[]
  /** Where RP-initiated logout may send the browser afterwards. */
  postLogoutRedirectUris?: readonly string[]
  /** An app that cannot keep a secret: it gets none, and proves itself with PKCE alone. Default false. */
  public?: boolean
  /** Default: the authorization code and refresh tokens. */
  grantTypes?: readonly RegisteredGrantType[]
  /** The organization whose app it is (the module's `organizations` option); default: the signed-in user's. */
  organizationId?: string
}

/** A new app: its client ID, and its secret when it has one (shown this once: it is stored sealed). */
export interface CreatedOAuthClient {
  clientId: string
  clientSecret?: string
}

/** An app as its owner sees it: never its secret. */
export interface OAuthClientInfo {
  clientId: string
  name: string
  redirectUris: string[]
  postLogoutRedirectUris: string[]
  grantTypes: string[]
  /** Without a secret (PKCE alone). */
  public: boolean
  /** The organization whose app it is; null for a user's own. */
  organizationId: string | null
  createdAt: Date
}

/** The form of the client IDs made here: what the functions manage, and nothing else. */
const managedId = /^sesame_[A-Za-z0-9_-]{22}$/

const registeredGrants: readonly RegisteredGrantType[] = ["authorization_code", "refresh_token", "urn:ietf:params:oauth:grant-type:device_code"]


const notFound = () => new OAuthClientError("NotFound", "No such app, or you may not manage it.")

function storeOf(request: Pick<ModuleRequest, "store">): Store {
  if (!request.store) throw new TypeError("oauthProvider: no store (the module is off without one).")
  return request.store
}

/** The signed-in user's id, for a server function that acts on their own: `NotSignedIn` without one. */
export async function signedInUserId(request: ModuleRequest): Promise<string> {
  const id = (await request.user())?.id
  if (!id) throw new OAuthClientError("NotSignedIn", "Sign in first.")
  return id
}

function nameOf(value: unknown): string {
  const trimmed = typeof value === "string" ? value.trim() : ""
  if (trimmed.length === 0 || trimmed.length > 100 || /[\u0000-\u001f\u007f]/.test(trimmed)) {
    throw new OAuthClientError("InvalidInput", "`name` must be 1 to 100 characters, without control characters.")
  }
  return trimmed
}

/**
 * A list of redirect URIs: https, http on a loopback host, or an app's own scheme (RFC 8252 §7.1;
 * oidc-provider refuses `javascript:` and the like). The rest (no fragment, a loopback host for
 * http) oidc-provider checks too.
 */
function urisOf(value: unknown, field: string): string[] {
  if (!Array.isArray(value) || value.length > 20) throw new OAuthClientError("InvalidInput", `\`${field}\` must be a list of at most 20 URIs.`)
  const uris = new Set<string>()
  for (const uri of value) {
    const url = typeof uri === "string" && uri.length <= 2000 && URL.canParse(uri) ? new URL(uri) : null
    if (!url) throw new OAuthClientError("InvalidInput", `\`${field}\`: ${JSON.stringify(String(uri).slice(0, 100))} is not a URI.`)
    if (url.protocol === "http:" && !loopbackHosts.has(url.hostname)) {
      throw new OAuthClientError("InvalidInput", `\`${field}\`: ${JSON.stringify(uri)} must be https (http only on a loopback host: 127.0.0.1, [::1], localhost).`)
    }
    uris.add(uri as string)
  }
  return [...uris]
}

/** `native` when the app receives codes on the user's device (a loopback or a custom-scheme URI), else `web`. */
function applicationTypeOf(uris: readonly string[]): "native" | "web" {
  return uris.some((uri) => {
    const { protocol, hostname } = new URL(uri)
    return protocol === "http:" ? loopbackHosts.has(hostname) : protocol !== "https:"
  })
    ? "native"
    : "web"
}

function grantsOf(value: unknown, deviceFlow: boolean): RegisteredGrantType[] {
  if (value === undefined) return ["authorization_code", "refresh_token"]
  if (!Array.isArray(value) || value.length === 0) throw new OAuthClientError("InvalidInput", "`grantTypes` must list at least one grant.")
  for (const grant of value) {
    if (grant === "client_credentials") throw new OAuthClientError("InvalidInput", "`grantTypes`: a registered app acts for its users; the client credentials grant is the configuration's clients' alone.")
    if (!registeredGrants.includes(grant)) throw new OAuthClientError("InvalidInput", `\`grantTypes\`: unknown grant ${JSON.stringify(String(grant).slice(0, 100))}.`)
    if (grant === "urn:ietf:params:oauth:grant-type:device_code" && !deviceFlow) throw new OAuthClientError("InvalidInput", "`grantTypes`: the device flow is off (`deviceFlow: false`).")
  }
  return [...new Set(value as RegisteredGrantType[])]
}


/** Refuses unless the signed-in user may update `organizationId` (`NotFound` otherwise, as for an organization that does not exist). */
async function mayManageOrganization(options: ResolvedOptions, request: ModuleRequest, organizationId: unknown): Promise<string> {
  if (!options.organizations) throw new OAuthClientError("InvalidInput", "`organizationId` needs the module's `organizations` option.")
  if (typeof organizationId !== "string" || !/^[A-Za-z0-9_-]{1,64}$/.test(organizationId)) throw new OAuthClientError("InvalidInput", "`organizationId` must be an id.")
  const allowed = await options.organizations.api.hasPermission(request as never, organizationId, { organization: ["update"] })
  if (!allowed) throw new OAuthClientError("NotFound", "No such organization, or you may not manage its apps.")
  return organizationId
}

/** The ownership row of `clientId` when the signed-in user may manage it; `NotFound` otherwise, whatever the reason. */
async function managedClient(options: ResolvedOptions, request: ModuleRequest, clientId: unknown) {
  const userId = await signedInUserId(request)
  if (typeof clientId !== "string") throw new OAuthClientError("InvalidInput", "`clientId` must be a string.")
  if (!managedId.test(clientId) || options.clients.some((client) => client.clientId === clientId)) throw notFound()
  const row = await storeOf(request).findOne(clientModel, { clientId })
  if (!row) throw notFound()
  if (row.ownerUserId === userId) return row
  if (typeof row.organizationId === "string" && options.organizations) {
    if (await options.organizations.api.hasPermission(request as never, row.organizationId, { organization: ["update"] })) return row
  }
  throw notFound()
}

/** oidc-provider's `Client` records on the request's store (`storage.ts`: the secret sealed). */
const clientRecords = (request: ModuleRequest): Adapter => storeAdapter(storeOf(request), request.sealing)("Client")

function infoOf(row: Record<string, unknown>, payload: AdapterPayload | undefined | void): OAuthClientInfo {
  return {
    clientId: String(row.clientId),
    name: String(row.name),
    redirectUris: [...(payload?.redirect_uris ?? [])],
    postLogoutRedirectUris: [...(payload?.post_logout_redirect_uris ?? [])],
    grantTypes: [...(payload?.grant_types ?? [])],
    public: payload?.token_endpoint_auth_method === "none",
    organizationId: typeof row.organizationId === "string" ? row.organizationId : null,
    createdAt: row.createdAt as Date,
  }
}

/** The server functions (the module's `api`), for the options `options`. */
export function clientApi(options: ResolvedOptions, serverFor: ServerFor) {
  return {
    /**
     * Registers an app owned by the signed-in user, or by `organizationId` when the user may update
     * it. Its secret is in this answer only: keep it now.
     */
    async createOAuthClient(request: ModuleRequest, input: CreateOAuthClientInput): Promise<CreatedOAuthClient> {
      const userId = await signedInUserId(request)
      const fields = (typeof input === "object" && input !== null ? input : {}) as Partial<Record<keyof CreateOAuthClientInput, unknown>>
      // Who owns it first: a member who may not manage the organization learns nothing from the rest.
      const organizationId = fields.organizationId === undefined ? null : await mayManageOrganization(options, request, fields.organizationId)
      const name = nameOf(fields.name)
      const redirectUris = urisOf(fields.redirectUris, "redirectUris")
      const postLogoutRedirectUris = fields.postLogoutRedirectUris === undefined ? [] : urisOf(fields.postLogoutRedirectUris, "postLogoutRedirectUris")
      // After a logout the browser goes back to a web page: an app's own scheme is for codes only.
      if (!postLogoutRedirectUris.every(isHttpsOrLoopback)) throw new OAuthClientError("InvalidInput", "`postLogoutRedirectUris` must be https, or http on a loopback host.")
      if (fields.public !== undefined && typeof fields.public !== "boolean") throw new OAuthClientError("InvalidInput", "`public` must be true or false.")
      const grantTypes = grantsOf(fields.grantTypes, options.deviceFlow)
      if (grantTypes.includes("authorization_code") && redirectUris.length === 0) throw new OAuthClientError("InvalidInput", "`redirectUris`: the authorization code grant needs at least one.")
      const server = await serverFor(request)
      if (!server) throw new Error("oauthProvider: the authorization server needs AUTH_URL.")

      const clientId = `sesame_${randomBytes(16).toString("base64url")}`
      const clientSecret = fields.public === true ? undefined : randomBytes(32).toString("base64url")
      const metadata: ClientMetadata = {
        client_id: clientId,
        client_name: name,
        ...(clientSecret === undefined ? { token_endpoint_auth_method: "none" } : { client_secret: clientSecret, token_endpoint_auth_method: "client_secret_basic" }),
        redirect_uris: redirectUris,
        post_logout_redirect_uris: postLogoutRedirectUris,
        grant_types: grantTypes,
        response_types: grantTypes.includes("authorization_code") ? ["code"] : [],
        scope: knownScopes(options).join(" "),
        application_type: applicationTypeOf([...redirectUris, ...postLogoutRedirectUris]),
      }
      try {
        await server.provider.Client.validate(metadata)
      } catch (error) {
        if (error instanceof errors.OIDCProviderError) throw new OAuthClientError("InvalidInput", error.error_description ?? error.message)
        throw error
      }
      const store = storeOf(request)
      // The ownership row first: its key is the client ID, so no client is ever written over.
      await store.create(clientModel, { clientId, ownerUserId: organizationId === null ? userId : null, organizationId, name, createdAt: new Date() })
      try {
        await clientRecords(request).upsert(clientId, metadata)
      } catch (error) {
        await store.delete(clientModel, { clientId })
        throw error
      }
      return clientSecret === undefined ? { clientId } : { clientId, clientSecret }
    },

    /** The signed-in user's own apps, or `organizationId`'s when they may update it. Never a secret. */
    async listOAuthClients(request: ModuleRequest, which: { organizationId?: string } = {}): Promise<OAuthClientInfo[]> {
      const userId = await signedInUserId(request)
      const organizationId = which?.organizationId === undefined ? null : await mayManageOrganization(options, request, which.organizationId)
      const rows = await storeOf(request).findMany(clientModel, {
        where: organizationId === null ? { ownerUserId: userId } : { organizationId },
        orderBy: [{ field: "createdAt", direction: "asc" }],
      })
      const records = clientRecords(request)
      return Promise.all(rows.map(async (row) => infoOf(row, await records.find(String(row.clientId)))))
    },

    /** A new secret for a confidential app: the old one stops working now. The new one is in this answer only. */
    async rotateOAuthClientSecret(request: ModuleRequest, clientId: string): Promise<{ clientId: string; name: string; clientSecret: string }> {
      const row = await managedClient(options, request, clientId)
      const records = clientRecords(request)
      const payload = await records.find(String(row.clientId))
      if (!payload) throw notFound()
      if (payload.token_endpoint_auth_method === "none") throw new OAuthClientError("InvalidInput", "A public app has no secret.")
      const clientSecret = randomBytes(32).toString("base64url")
      await records.upsert(String(row.clientId), { ...payload, client_secret: clientSecret })
      return { clientId: String(row.clientId), name: String(row.name), clientSecret }
    },

    /** Deletes an app: its client, every consent to it and the grants behind them (see the module comment). */
    async deleteOAuthClient(request: ModuleRequest, clientId: string): Promise<void> {
      const row = await managedClient(options, request, clientId)
      const id = String(row.clientId)
      const store = storeOf(request)
      // The client first, so that it gets nothing new; the ownership row last, so that a failure
      // halfway leaves the owner an app to delete again.
      await clientRecords(request).destroy(id)
      // Every grant, code and token any user gave it (`storage.ts` keeps the client on each record).
      await store.delete(recordModel, { clientId: id })
      await store.delete(consentModel, { clientId: id })
      await store.delete(clientModel, { clientId: id })
    },
  }
}

/**
 * oidc-provider's `Client` adapter, refusing an app registered here whose ownership row is gone
 * (its user deleted, which deletes the row with them): such a client signs no one in any more.
 * Other clients (dynamically registered ones) are found as the adapter finds them. For the
 * adapter factory `server.ts` configures: `Client` records through this, the others as they are.
 */
export function ownedClientsOnly(adapter: Adapter, store: Store): Adapter {
  return {
    upsert: (id, payload, expiresIn) => adapter.upsert(id, payload, expiresIn),
    async find(id) {
      if (managedId.test(id) && !(await store.findOne(clientModel, { clientId: id }))) return undefined
      return adapter.find(id)
    },
    findByUserCode: (userCode) => adapter.findByUserCode(userCode),
    findByUid: (uid) => adapter.findByUid(uid),
    consume: (id) => adapter.consume(id),
    destroy: (id) => adapter.destroy(id),
    revokeByGrantId: (grantId) => adapter.revokeByGrantId(grantId),
  }
}
