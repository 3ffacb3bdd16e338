/**
 * oidc-provider's storage on the app's store (`oauthRecord`, `models.ts`). Using a record once is
 * one conditional update, so of two requests racing with the same authorization code or refresh
 * token only one wins; the other is refused as a replay and the grant behind it is revoked, as
 * oidc-provider does for a replay it sees.
 *
 * @module
 */
import type { Store } from "@sesame/core"
import { errors, type Adapter, type AdapterPayload } from "oidc-provider"
import { recordModel } from "./models.js"

/** A record without an end (a registered client) is kept until it is deleted. */
const never = new Date("9999-12-31T00:00:00Z")

/** The adapter factory oidc-provider is configured with, on `store`. */
export function storeAdapter(store: Store): (name: string) => Adapter {
  return (name) => new StoreAdapter(store, name)
}

class StoreAdapter implements Adapter {
  constructor(
    private readonly store: Store,
    private readonly name: string,
  ) {}

  private key(id: string): string {
    return `${this.name}:${id}`
  }

  async upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
    const row = {
      payload: payload as never,
      // A grant's own id is what its tokens name: deleting by grant removes it with them.
      grantId: (this.name === "Grant" ? payload.jti : payload.grantId) ?? null,
      userCode: payload.userCode ?? null,
      uid: payload.uid ?? null,
      consumed: payload.consumed ? new Date(Number(payload.consumed) * 1000) : null,
      expires: expiresIn ? new Date(Date.now() + expiresIn * 1000) : never,
    }
    const updated = await this.store.update(recordModel, { id: this.key(id) }, row)
    if (updated === 0) await this.store.create(recordModel, { id: this.key(id), ...row })
  }

  async find(id: string): Promise<AdapterPayload | undefined> {
    return payloadOf(await this.store.findOne(recordModel, { id: this.key(id) }))
  }

  async findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
    return payloadOf(await this.store.findOne(recordModel, { userCode }))
  }

  async findByUid(uid: string): Promise<AdapterPayload | undefined> {
    return payloadOf(await this.store.findOne(recordModel, { uid }))
  }

  async consume(id: string): Promise<void> {
    const row = await this.store.findOne(recordModel, { id: this.key(id), consumed: null })
    const now = new Date()
    const payload = row && { ...(row.payload as Record<string, unknown>), consumed: Math.floor(now.getTime() / 1000) }
    const won = row ? await this.store.update(recordModel, { id: this.key(id), consumed: null }, { consumed: now, payload: payload as never }) : 0
    if (won === 0) {
      // Another request used it first: both hold the same code or token, so the grant is no one's.
      const grantId = (row?.grantId ?? (await this.store.findOne(recordModel, { id: this.key(id) }))?.grantId) as string | null | undefined
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
}

function payloadOf(row: Record<string, unknown> | null): AdapterPayload | undefined {
  return row ? (row.payload as AdapterPayload) : undefined
}
