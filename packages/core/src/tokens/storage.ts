/**
 * Where generated signing keys are kept: the model `signingKeys` of the adapter's generic store
 * (the table `sesame_signing_keys` every release has made, so a database made before the store
 * keeps working), else a store in this process's memory.
 *
 * @module
 */
import type { ModelDeclaration, Store } from "../store/model.js"
import type { SigningKeyStore } from "./key-ring.js"

/** A key that signs API tokens, as stored. */
export interface AdapterSigningKey {
  /** The key id (`kid`), random. */
  id: string
  /** `EdDSA`, `ES256` or `RS256`. */
  algorithm: string
  /** The public key, a JWK as JSON text: published at `<basePath>/jwks`. */
  publicKey: string
  /** The private key, a JWK encrypted under the app's secret (a compact JWE): never usable from a copy of the database alone. */
  privateKey: string
  createdAt: Date
}

export const signingKeyModel = {
  name: "signingKeys",
  table: "sesame_signing_keys",
  primaryKey: "id",
  fields: {
    id: { type: "string" },
    algorithm: { type: "string" },
    publicKey: { type: "text" },
    privateKey: { type: "text" },
    createdAt: { type: "date" },
  },
} as const satisfies ModelDeclaration

/** The signing keys of `store`. */
export function storeSigningKeys(store: Store): SigningKeyStore {
  return {
    async listSigningKeys() {
      const rows = await store.findMany(signingKeyModel)
      return rows.map((row) => ({
        id: row.id as string,
        algorithm: row.algorithm as string,
        publicKey: row.publicKey as string,
        privateKey: row.privateKey as string,
        createdAt: row.createdAt as Date,
      }))
    },
    async createSigningKey(key) {
      await store.create(signingKeyModel, { ...key })
    },
    async deleteSigningKey(id) {
      await store.delete(signingKeyModel, { id })
    },
  }
}
