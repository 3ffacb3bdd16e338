/**
 * The authorization server's own secrets: the keys that sign its ID tokens and JWT access tokens,
 * and the keys of its cookies' signatures. Made on first use, stored sealed under the app's secret
 * (`oauthSecret`), so that every instance of the app signs with the same keys and a copy of the
 * database alone reveals none. Two instances starting at once both try to store theirs; the first
 * row wins and both use it.
 *
 * @module
 */
import { randomBytes } from "node:crypto"
import type { ModuleContext, Store } from "@sesame/core"
import { exportJWK, generateKeyPair, type JWK } from "jose"
import { secretModel } from "./models.js"

export interface ServerSecrets {
  /** Private signing keys, RS256 first (ID tokens' default algorithm), then ES256. */
  keys: JWK[]
  cookieKeys: string[]
}

const purpose = "oauth.secrets"
const rowId = "server"

/** The stored secrets, made and stored first when there are none. */
export async function serverSecrets(store: Store, sealing: ModuleContext["sealing"]): Promise<ServerSecrets> {
  const existing = await read(store, sealing)
  if (existing) return existing
  const made = await make()
  try {
    await store.create(secretModel, { id: rowId, value: await sealing.seal(purpose, JSON.stringify(made)), createdAt: new Date() })
    return made
  } catch (error) {
    // Another instance stored its secrets first: those are the server's.
    const stored = await read(store, sealing)
    if (stored) return stored
    throw error
  }
}

async function read(store: Store, sealing: ModuleContext["sealing"]): Promise<ServerSecrets | null> {
  const row = await store.findOne(secretModel, { id: rowId })
  if (!row) return null
  const opened = await sealing.open(purpose, row.value as string)
  if (!opened) {
    // Not the app's (another deployment's secret, or one retired): never sign with it.
    throw new Error("The authorization server's stored keys do not open with the app's secret (AUTH_SECRET replaced rather than rotated?). Delete the row of sesame_oauth_secrets to make new ones.")
  }
  if (opened.rotated) await store.update(secretModel, { id: rowId }, { value: await sealing.seal(purpose, opened.value) })
  return JSON.parse(opened.value) as ServerSecrets
}

async function make(): Promise<ServerSecrets> {
  const keys: JWK[] = []
  for (const alg of ["RS256", "ES256"] as const) {
    const { privateKey } = await generateKeyPair(alg, { extractable: true })
    const jwk = await exportJWK(privateKey)
    keys.push({ ...jwk, alg, use: "sig", kid: randomBytes(12).toString("base64url") })
  }
  return { keys, cookieKeys: [randomBytes(32).toString("base64url")] }
}
