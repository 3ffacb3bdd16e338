/**
 * The client side of the protocol: who we are to the provider (client metadata) and how we prove
 * it at the token endpoint.
 *
 * @module
 */
import { importJWK } from "jose"
import * as oauth from "oauth4webapi"
import { InvalidProvider } from "../errors.js"
import type { OAuthProvider } from "./provider.js"

/** Client metadata for oauth4webapi: the client id plus the provider's `client` settings. */
export function clientOf(provider: OAuthProvider): oauth.Client {
  const { token_endpoint_auth_method: _method, privateKey: _key, privateKeyId: _kid, ...settings } = provider.config.client ?? {}
  const metadata: oauth.Client = { client_id: provider.clientId }
  for (const [name, value] of Object.entries(settings)) {
    if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") metadata[name] = value
  }
  return metadata
}

const importedKeys = new WeakMap<OAuthProvider, Promise<CryptoKey>>()

async function importPrivateKey(provider: OAuthProvider, key: JsonWebKey): Promise<CryptoKey> {
  const imported = await importJWK(key, key.alg)
  if (!(imported instanceof CryptoKey)) {
    throw new InvalidProvider(`\`client.privateKey\` of provider "${provider.id}" must be an asymmetric private key.`)
  }
  return imported
}

/** How the client authenticates at the token endpoint. */
export async function clientAuthOf(provider: OAuthProvider): Promise<oauth.ClientAuth> {
  const auth = provider.clientAuth
  switch (auth.method) {
    case "client_secret_basic":
      return oauth.ClientSecretBasic(auth.secret)
    case "client_secret_post":
      return oauth.ClientSecretPost(auth.secret)
    case "client_secret_jwt":
      return oauth.ClientSecretJwt(auth.secret)
    case "private_key_jwt": {
      const { key } = auth
      let cryptoKey: Promise<CryptoKey>
      if (key instanceof CryptoKey) cryptoKey = Promise.resolve(key)
      else {
        cryptoKey = importedKeys.get(provider) ?? importPrivateKey(provider, key)
        importedKeys.set(provider, cryptoKey)
      }
      return oauth.PrivateKeyJwt(auth.kid === undefined ? { key: await cryptoKey } : { key: await cryptoKey, kid: auth.kid })
    }
    case "none":
      return oauth.None()
  }
}
