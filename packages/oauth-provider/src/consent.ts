/**
 * Consent: what a user allowed a client, remembered per user and client (`oauthConsent`) across
 * their sessions, and revocable. Each consent points to the oidc-provider grant that holds the
 * scopes; revoking it deletes the grant and every token it gave. A first-party client is allowed
 * what it asks without a page.
 *
 * @module
 */
import type { Store } from "@sesame/core"
import type { Grant, KoaContextWithOIDC, default as Provider } from "oidc-provider"
import { consentModel, recordModel } from "./models.js"

/**
 * The grant `accountId` gave `clientId`: the first of `first`, the remembered consent's, then
 * `last`, that is a grant of this user to this client. Never another's, whatever id a record names.
 */
export async function ownGrant(provider: Provider, store: Store, accountId: string, clientId: string, first: string | undefined, last?: string): Promise<Grant | undefined> {
  const remembered = (await store.findOne(consentModel, { userId: accountId, clientId }))?.grantId as string | undefined
  for (const id of [first, remembered, last]) {
    const grant = id ? await provider.Grant.find(id) : undefined
    if (grant && grant.accountId === accountId && grant.clientId === clientId) return grant
  }
  return undefined
}

/** oidc-provider's `loadExistingGrant`: the grant of this user's consent to this client, if it is theirs. */
export async function loadExistingGrant(ctx: KoaContextWithOIDC, store: Store, firstParty: ReadonlySet<string>): Promise<Grant | undefined> {
  const { oidc } = ctx
  const accountId = oidc.session?.accountId
  const client = oidc.client
  if (!accountId || !client) return undefined
  const existing = await ownGrant(oidc.provider, store, accountId, client.clientId, oidc.result?.consent?.grantId as string | undefined, oidc.session.grantIdFor(client.clientId))
  if (existing) return existing
  if (firstParty.has(client.clientId)) {
    const grant = new oidc.provider.Grant({ accountId, clientId: client.clientId })
    grant.addOIDCScope(oidc.requestParamOIDCScopes.size > 0 ? [...oidc.requestParamOIDCScopes].join(" ") : "openid")
    for (const [indicator, resource] of Object.entries(oidc.resourceServers ?? {})) {
      const wanted = [...oidc.requestParamScopes].filter((scope) => resource.scope.split(" ").includes(scope))
      if (wanted.length > 0) grant.addResourceScope(indicator, wanted.join(" "))
    }
    // Remembered as any consent: the user sees the app among those they allowed, and can take it back.
    await rememberConsent(store, accountId, client.clientId, await grant.save())
    return grant
  }
  return undefined
}

/** Records that `userId` allowed `clientId` what grant `grantId` holds. */
export async function rememberConsent(store: Store, userId: string, clientId: string, grantId: string): Promise<void> {
  const updated = await store.update(consentModel, { userId, clientId }, { grantId, createdAt: new Date() })
  if (updated === 0) await store.create(consentModel, { userId, clientId, grantId, createdAt: new Date() })
}

/** A client a user allowed, as the account page lists it. */
export interface Consent {
  clientId: string
  clientName: string
  /** The scopes allowed: OpenID scopes, and each resource's as `<resource> <scope>`. */
  scopes: string[]
  createdAt: Date
}

/** The user's consents, with what each grant holds. */
export async function consentsOf(store: Store, provider: Provider, userId: string): Promise<Consent[]> {
  const rows = await store.findMany(consentModel, { where: { userId } })
  const consents: Consent[] = []
  for (const row of rows) {
    const grant = await provider.Grant.find(row.grantId as string)
    if (!grant || grant.accountId !== userId) continue
    const client = await provider.Client.find(row.clientId as string)
    const resources = Object.entries(grant.resources ?? {}).flatMap(([resource, scope]) => String(scope).split(" ").map((s) => `${resource} ${s}`))
    consents.push({
      clientId: row.clientId as string,
      clientName: (client?.clientName as string | undefined) ?? (row.clientId as string),
      scopes: [...(grant.openid?.scope?.split(" ") ?? []), ...resources],
      createdAt: row.createdAt as Date,
    })
  }
  return consents
}

/** Withdraws the user's consent to `clientId`: the grant and every token it gave. Whether there was one. */
export async function revokeConsent(store: Store, userId: string, clientId: string): Promise<boolean> {
  const row = await store.findOne(consentModel, { userId, clientId })
  if (!row) return false
  await store.delete(consentModel, { userId, clientId })
  // Every grant of this user to this client (two consents given side by side made two), and every
  // code and token they gave: `storage.ts` keeps the user and the client on each record.
  await store.delete(recordModel, { accountId: userId, clientId })
  return true
}
