/**
 * What switching an Auth.js database to Sesame changes for its users, computed from its rows: who
 * keeps which way in, which sessions and email links carry over with `migrateFrom: "authjs"`, which
 * provider ids the configuration must keep, and which addresses would collide once Sesame
 * normalises them. Pure: no database, no output.
 *
 * @module
 */
import type { AuthjsData } from "./read.js"

/**
 * The folding Sesame gives every address before it names a user (`foldEmail` in
 * packages/core/src/email/normalize.ts, which a test keeps this equal to): Unicode NFKC, trimmed,
 * lower case. Two stored addresses with one folding are one mailbox to Sesame.
 */
export function foldEmail(input: string): string {
  return input.normalize("NFKC").trim().toLowerCase()
}

/**
 * A session token of 64 hex digits (Auth.js v4's `randomBytes(32).toString("hex")`, or an app's own
 * `generateSessionToken`): of the form of the hashes Sesame stores, so never looked up as it is
 * (packages/core/src/migrate/authjs/database-session.ts), and never carried over.
 */
const hashForm = /^[0-9a-f]{64}$/i
/** What that lookup takes at all: 1 to 512 visible ASCII characters (the core's `maxSessionTokenLength`). */
const lookedUp = /^[\x21-\x7e]{1,512}$/
/** An Auth.js v5 session token (`crypto.randomUUID()`). */
const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** Account types that are not a provider's: passkeys, and the email rows some adapters keep. */
const notProviders = new Set(["webauthn", "email", "credentials"])

export interface ProviderAccounts {
  /** The provider id stored in the accounts table. */
  id: string
  /** The account types stored with it (`oauth`, `oidc`, `webauthn`, `email`). */
  types: string[]
  accounts: number
  users: number
}

export interface Collision {
  /** The address as Sesame normalises it. */
  address: string
  /** The users whose stored addresses fold to it. */
  users: { id: string; email: string }[]
}

export interface Findings {
  users: number
  /** Users with a provider account whose `emailVerified` is null: Auth.js's OAuth users. */
  unverifiedWithProvider: number
  /** Users with a provider account and a verified address. */
  verifiedWithProvider: number
  /** Users without a provider account but with a passkey. */
  passkeyOnly: number
  /** Users with an address and neither a provider account nor a passkey, by whether it is verified. */
  addressOnly: { verified: number; unverified: number }
  /** Users with no provider account, no passkey and no address. */
  noWayIn: number
  /** Users without an address, whatever else they have. */
  withoutAddress: number
  providers: ProviderAccounts[]
  /** Rows of the authenticators table, when there is one. */
  passkeys?: number
  sessions?: {
    live: number
    expired: number
    /** Live sessions whose token is a UUID (Auth.js v5's). */
    uuid: number
    /** Live sessions whose token is not a UUID but carries over all the same (an app's own generateSessionToken). */
    other: number
    /** Live sessions whose token is 64 hex digits (Auth.js v4's): these do not carry over. */
    hashForm: number
    /** Live sessions whose token is not 1 to 512 visible ASCII characters (never Auth.js's): these do not carry over. */
    unusable: number
  }
  verificationTokens?: { live: number; expired: number }
  /** Rows of Sesame's own in the verification tokens (its marks of unproven users): Sesame has run on this database already. */
  sesameRows: number
  collisions: Collision[]
  /** Addresses stored otherwise than Sesame normalises them, that collide with no other. */
  unnormalised: number
}

/** The findings for `data` at the time `now`. */
export function findings(data: AuthjsData, now: Date = new Date()): Findings {
  const withProvider = new Set<string>()
  const withPasskey = new Set<string>()
  const byProvider = new Map<string, { types: Set<string>; accounts: number; users: Set<string> }>()
  for (const account of data.accounts) {
    if (account.type === "webauthn") withPasskey.add(account.userId)
    else if (!notProviders.has(account.type)) withProvider.add(account.userId)
    const entry = byProvider.get(account.provider) ?? { types: new Set<string>(), accounts: 0, users: new Set<string>() }
    entry.types.add(account.type)
    entry.accounts++
    entry.users.add(account.userId)
    byProvider.set(account.provider, entry)
  }
  for (const authenticator of data.authenticators ?? []) withPasskey.add(authenticator.userId)

  const result: Findings = {
    users: data.users.length,
    unverifiedWithProvider: 0,
    verifiedWithProvider: 0,
    passkeyOnly: 0,
    addressOnly: { verified: 0, unverified: 0 },
    noWayIn: 0,
    withoutAddress: 0,
    providers: [...byProvider]
      .map(([id, e]) => ({ id, types: [...e.types].sort(), accounts: e.accounts, users: e.users.size }))
      .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)),
    collisions: [],
    unnormalised: 0,
    sesameRows: 0,
  }
  const byAddress = new Map<string, { id: string; email: string }[]>()
  for (const user of data.users) {
    if (!user.email) result.withoutAddress++
    else {
      const folded = foldEmail(user.email)
      byAddress.set(folded, [...(byAddress.get(folded) ?? []), { id: user.id, email: user.email }])
    }
    if (withProvider.has(user.id)) {
      if (user.verified) result.verifiedWithProvider++
      else result.unverifiedWithProvider++
    } else if (withPasskey.has(user.id)) result.passkeyOnly++
    else if (user.email) result.addressOnly[user.verified ? "verified" : "unverified"]++
    else result.noWayIn++
  }
  for (const [address, users] of byAddress) {
    if (users.length > 1) result.collisions.push({ address, users })
    else if (users[0]!.email !== address) result.unnormalised++
  }
  result.collisions.sort((a, b) => (a.address < b.address ? -1 : 1))

  if (data.sessions) {
    const sessions = { live: 0, expired: 0, uuid: 0, other: 0, hashForm: 0, unusable: 0 }
    for (const { token, expires } of data.sessions) {
      if (expires <= now) {
        sessions.expired++
        continue
      }
      sessions.live++
      if (uuid.test(token)) sessions.uuid++
      else if (hashForm.test(token)) sessions.hashForm++
      else if (lookedUp.test(token)) sessions.other++
      else sessions.unusable++
    }
    result.sessions = sessions
  }
  if (data.verificationTokens) {
    // Sesame keeps its marks of unproven users among the verification tokens, under identifiers
    // of its own (`sesame:unproven:<user id>`); they are no email links.
    const links = data.verificationTokens.filter((t) => !t.identifier.startsWith("sesame:"))
    result.sesameRows = data.verificationTokens.length - links.length
    const live = links.filter((t) => t.expires > now).length
    result.verificationTokens = { live, expired: links.length - live }
  }
  if (data.authenticators) result.passkeys = data.authenticators.length
  return result
}
