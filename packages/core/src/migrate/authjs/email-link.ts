/**
 * Email sign-in links sent by Auth.js v5 before the switch (`migrateFrom: "authjs"`): they work,
 * once, until they expire, and reach the sign-in decision exactly as Sesame's own links do
 * (`email/callback.ts`).
 *
 * Auth.js stored `createVerificationToken({ identifier: email, token: sha256hex(token + secret),
 * expires })`, where `secret` is the provider's own `secret`, else the configuration's, written into
 * the string as it is: an array comma-joined (`${["a", "b"]}` is `"a,b"`). Sesame stores a keyed
 * HMAC instead (`email/token.ts`), and keeps doing so; Auth.js's hash is only tried when Sesame's
 * own lookup found nothing, under each of the provider's secrets (the Auth.js app's single secret,
 * kept first or rotated behind a new one) and, with several, under all of them joined as Auth.js
 * would have. Each try is `useVerificationToken`, which deletes what it finds: a link is used once.
 *
 * @module
 */
import { backend } from "#crypto"
import type { VerificationToken } from "../../adapters/types.js"
import type { CheckedAdapter } from "../../adapters/wrap.js"
import { toHex } from "../../crypto/encoding.js"

/** The secrets as Auth.js may have written them into the hash: each alone, then the whole list joined. */
function authjsSecretForms(secrets: readonly string[]): string[] {
  return secrets.length > 1 ? [...secrets, secrets.join(",")] : [...secrets]
}

/** Uses (and so deletes) the record Auth.js stored for the link's `token` under `identifier`; null when none. */
export async function useAuthjsLink(
  adapter: CheckedAdapter,
  identifier: string,
  token: string,
  secrets: readonly string[],
  spent: VerificationToken[],
): Promise<VerificationToken | null> {
  for (const secret of authjsSecretForms(secrets)) {
    const stored = await adapter.useVerificationToken({ identifier, token: toHex(await backend.sha256(`${token}${secret}`)) })
    if (stored) {
      // Put back, as Sesame's own links are, if the request ends in a storage outage.
      spent.push(stored)
      return stored
    }
  }
  return null
}
