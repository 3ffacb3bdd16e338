/**
 * oidc-provider's storage on the app's store (`oauthRecord`, `models.ts`).
 * - A record's key is a hash of its id, and the id is not kept in the record: for a token or a
 *   code the id is the value a client presents, so a copy of the table holds none that works.
 * - A registered client's secret is sealed under the app's secret, as other secrets Sesame keeps.
 * - Using a record once is one conditional update, so of two requests racing with the same
 *   authorization code or refresh token only one wins; the other is refused as a replay and the
 *   grant behind it is revoked, as oidc-provider does for a replay it sees.
 *
 * @module
 */
import { createHash } from "node:crypto"
import type { ModuleSealing, Store } from "@sesame/core"
import { errors, type Adapter, type AdapterPayload } from "oidc-provider"
import { recordModel } from "./models.js"

/** A record without an end (a registered client) is kept until it is deleted. */
const never = new Date("9999-12-31T00:00:00Z")

const secretPurpose = "oauth.client-secret"
const idPurpose = "oauth.record-id"

/** The records also found by another field (a device code by its user code, a session by its uid): they keep their id, sealed. */
const foundOtherwise = new Set(["DeviceCode", "Session"])

/** The adapter factory oidc-provider is configured with, on `store`. */
export function storeAdapter(store: Store, sealing: ModuleSealing): (name: string) => Adapter {
  return (name) => new StoreAdapter(store, sealing, name)
}

class StoreAdapter implements Adapter {
  constructor(
    private readonly store: Store,
    private readonly sealing: ModuleSealing,
    private readonly name: string,
  ) {}

  private key(id: string): string {
    return `${this.name}:${createHash("sha256").update(id).digest("base64url")}`
  }

  async upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
    const { jti: _id, ...kept } = payload as AdapterPayload & { sealedId?: string }
    if (this.name === "Client" && typeof kept.client_secret === "string") kept.client_secret = await this.sealing.seal(secretPurpose, kept.client_secret)
    if (foundOtherwise.has(this.name)) kept.sealedId = await this.sealing.seal(idPurpose, id)
    const row = {
      payload: kept as never,
      // A grant's own id is what its tokens name: deleting by grant removes it with them. An
      // interaction under way names a grant too, but is no token of it: revoking the grant (a user
      // switch ends the former user's) must not end the new user's sign-in in the same browser.
      grantId: this.name === "Interaction" ? null : ((this.name === "Grant" ? id : payload.grantId) ?? null),
      userCode: payload.userCode ?? null,
      uid: payload.uid ?? null,
      accountId: this.name === "Interaction" ? null : (payload.accountId ?? null),
      clientId: this.name === "Interaction" ? null : (payload.clientId ?? null),
      consumed: payload.consumed ? new Date(Number(payload.consumed) * 1000) : null,
      expires: expiresIn ? new Date(Date.now() + expiresIn * 1000) : never,
    }
    const updated = await this.store.update(recordModel, { id: this.key(id) }, row)
    if (updated === 0) await this.store.create(recordModel, { id: this.key(id), ...row })
  }

  async find(id: string): Promise<AdapterPayload | undefined> {
    return this.payloadOf(await this.store.findOne(recordModel, { id: this.key(id) }), id)
  }

  async findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
    return this.payloadOf(await this.store.findOne(recordModel, { userCode }))
  }

  async findByUid(uid: string): Promise<AdapterPayload | undefined> {
    return this.payloadOf(await this.store.findOne(recordModel, { uid }))
  }

  async consume(id: string): Promise<void> {
    const key = this.key(id)
    const row = await this.store.findOne(recordModel, { id: key, consumed: null })
    const now = new Date()
    const payload = row && { ...(row.payload as Record<string, unknown>), consumed: Math.floor(now.getTime() / 1000) }
    const won = row ? await this.store.update(recordModel, { id: key, consumed: null }, { consumed: now, payload: payload as never }) : 0
    if (won === 0) {
      // Another request used it first: both hold the same code or token, so the grant is no one's.
      const grantId = (row?.grantId ?? (await this.store.findOne(recordModel, { id: key }))?.grantId) as string | null | undefined
      if (grantId) await this.revokeByGrantId(grantId)
      throw new errors.InvalidGrant(`${this.name === "AuthorizationCode" ? "authorization code" : "token"} already used`)
    }
  }

  async destroy(id: string): Promise<void> {
    await this.store.delete(recordModel, { id: this.key(id) })
  }

  async revokeByGrantId(grantId: string): Promise<void> {
    await this.store.delete(recordModel, { grantId })
  }

  /** The record as oidc-provider wrote it: its id back (when the caller knows it), a client's secret opened. */
  private async payloadOf(row: Record<string, unknown> | null, id?: string): Promise<AdapterPayload | undefined> {
    if (!row) return undefined
    const { sealedId, ...payload } = row.payload as AdapterPayload & { sealedId?: string }
    if (id === undefined && sealedId !== undefined) {
      const opened = await this.sealing.open(idPurpose, sealedId)
      if (!opened) return undefined
      id = opened.value
    }
    if (id !== undefined && this.name !== "Client") payload.jti = id
    if (this.name === "Client" && typeof payload.client_secret === "string") {
      const opened = await this.sealing.open(secretPurpose, payload.client_secret)
      // A secret none of the app's secrets opens authenticates no one.
      if (!opened) return undefined
      payload.client_secret = opened.value
    }
    return payload
  }
}
