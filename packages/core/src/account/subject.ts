/**
 * The user id of a provider account when there is no adapter to keep users in.
 *
 * It must stay the same from one sign-in to the next (apps key their data on `sub`), and never be
 * the same for two people: account ids are only unique within their provider, so user `12345` of
 * one provider and user `12345` of another must not both become `sub=12345`. The id is derived
 * from both: the SHA-256 of the provider id and the account id, printed as a UUID (version 8,
 * RFC 9562 §5.8), so it has the shape apps expect of an id and reveals neither part.
 *
 * @module
 */
import { backend } from "#crypto"
import { toHex } from "../crypto/encoding.js"

export async function accountSubject(provider: string, providerAccountId: string): Promise<string> {
  const digest = await backend.sha256(`sesame-account-subject\u0000${provider}\u0000${providerAccountId}`)
  const bytes = digest.slice(0, 16)
  bytes[6] = (bytes[6]! & 0x0f) | 0x80
  bytes[8] = (bytes[8]! & 0x3f) | 0x80
  const hex = toHex(bytes)
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
}
