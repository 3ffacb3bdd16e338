/**
 * The key layout, under the adapter's prefix (default `sesame:`):
 *
 * | key | type | holds |
 * |---|---|---|
 * | `user:<id>` | hash | the user |
 * | `email:<email>` | string | the id of the user with that email (the unique index) |
 * | `account:<provider>:<providerAccountId>` | hash | an account (the key is the unique index) |
 * | `user-accounts:<id>` | set | the `<provider>:<providerAccountId>` of the user's accounts |
 * | `session:<sessionToken>` | hash | a session, expiring at its `expires` |
 * | `user-sessions:<id>` | set | the user's session tokens (dead ones are pruned as met) |
 * | `token:<identifier>:<token>` | hash | a verification token |
 * | `authenticator:<credentialID>` | hash | a WebAuthn credential |
 * | `user-authenticators:<id>` | set | the user's credential ids |
 * | `store-layout` | string | `1` once the records of release 0.1 are in the store (see `migrate.ts`) |
 *
 * Declared models' rows, Sesame's own (password hashes, counters, second factors, recovery codes,
 * signing keys) among them, are under `model…:` keys (see `store/keys.ts`).
 *
 * Each namespace ends at its first colon (`store-layout`, the one key without one, is no
 * namespace's prefix), so a key of one namespace never equals a key of another. Keys made of two
 * parts escape `%` and `:` in each part, so that `a:b` + `c` and `a` + `b:c` stay apart. The Lua
 * operations (see `lua/`) build the same keys from these parts.
 *
 * @module
 */

/** Escapes `%` and `:` so that a part can sit between colons without ambiguity. */
export function keyPart(value: string): string {
  return value.replaceAll("%", "%25").replaceAll(":", "%3A")
}

/** The `<provider>:<providerAccountId>` part of an account key. */
export function accountRef(provider: string, providerAccountId: string): string {
  return `${keyPart(provider)}:${keyPart(providerAccountId)}`
}

/** The `<identifier>:<token>` part of a verification token key. */
export function tokenRef(identifier: string, token: string): string {
  return `${keyPart(identifier)}:${keyPart(token)}`
}

/** The key (after the prefix) that `migrate` sets to `storeLayoutVersion` when a whole run is done. */
export const storeLayoutKey = "store-layout"

/** The layout `storeLayoutKey` marks: Sesame's own data in the store, none left in 0.1's keys. */
export const storeLayoutVersion = "1"

/** Full key names under `prefix`, for tools and tests that read the store directly. */
export function keys(prefix: string) {
  return {
    user: (id: string) => `${prefix}user:${id}`,
    email: (email: string) => `${prefix}email:${email}`,
    account: (provider: string, providerAccountId: string) => `${prefix}account:${accountRef(provider, providerAccountId)}`,
    userAccounts: (id: string) => `${prefix}user-accounts:${id}`,
    session: (sessionToken: string) => `${prefix}session:${sessionToken}`,
    userSessions: (id: string) => `${prefix}user-sessions:${id}`,
    verificationToken: (identifier: string, token: string) => `${prefix}token:${tokenRef(identifier, token)}`,
    authenticator: (credentialID: string) => `${prefix}authenticator:${credentialID}`,
    userAuthenticators: (id: string) => `${prefix}user-authenticators:${id}`,
    storeLayout: () => `${prefix}${storeLayoutKey}`,
  }
}
