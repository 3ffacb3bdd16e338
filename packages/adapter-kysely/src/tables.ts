/**
 * The tables as Kysely types, for an app that queries them itself: `SesameDatabase` merges into the
 * app's own database interface (`interface DB extends SesameDatabase { posts: … }`), so that
 * `db.selectFrom("sesame_users")` is typed. The keys are the default table names; an app that
 * renamed its tables (`tables` option) declares them under its names.
 *
 * A column's type is what the dialect's driver hands back, which differs: node-postgres returns
 * dates as `Date`s, flags as booleans and `bigint` columns as strings; mysql2 returns dates as
 * `Date`s (strings with `dateStrings`), flags and `bigint`s as numbers; better-sqlite3 stores
 * dates as milliseconds since the epoch and flags as 0 or 1. Name the dialect:
 * `SesameDatabase<"mysql">`, `SesameDatabase<"sqlite">` (PostgreSQL is the default).
 *
 * @module
 */

/** How each dialect's driver returns dates, flags and 64-bit integers. */
export interface DialectValues {
  postgres: { date: Date; flag: boolean; bigint: string }
  mysql: { date: Date; flag: number; bigint: number }
  sqlite: { date: number; flag: number; bigint: number }
}

/** A SQL dialect the adapter runs on. */
export type SqlDialect = keyof DialectValues

type Values<D extends SqlDialect> = DialectValues[D]

export interface SesameUsersTable<D extends SqlDialect = "postgres"> {
  id: string
  name: string | null
  email: string
  emailVerified: Values<D>["date"] | null
  image: string | null
}

export interface SesameAccountsTable<D extends SqlDialect = "postgres"> {
  id: string
  userId: string
  type: string
  provider: string
  providerAccountId: string
  refresh_token: string | null
  access_token: string | null
  expires_at: Values<D>["bigint"] | null
  token_type: string | null
  scope: string | null
  id_token: string | null
  session_state: string | null
}

export interface SesameSessionsTable<D extends SqlDialect = "postgres"> {
  /** SHA-256 (hex) of the session cookie's token. */
  sessionToken: string
  userId: string
  expires: Values<D>["date"]
  createdAt: Values<D>["date"] | null
  lastUsedAt: Values<D>["date"] | null
  userAgent: string | null
  /** How the user signed in, comma-separated (`password,totp`). */
  factors: string | null
}

export interface SesameVerificationTokensTable<D extends SqlDialect = "postgres"> {
  identifier: string
  /** HMAC-SHA-256 (hex) of the emailed token. */
  token: string
  expires: Values<D>["date"]
}

export interface SesameAuthenticatorsTable<D extends SqlDialect = "postgres"> {
  credentialID: string
  userId: string
  providerAccountId: string
  credentialPublicKey: string
  counter: Values<D>["bigint"]
  credentialDeviceType: string
  credentialBackedUp: Values<D>["flag"]
  transports: string | null
  name: string | null
  createdAt: Values<D>["date"] | null
}

export interface SesamePasswordsTable<D extends SqlDialect = "postgres"> {
  userId: string
  hash: string
  updatedAt: Values<D>["date"]
}

export interface SesameCountersTable<D extends SqlDialect = "postgres"> {
  key: string
  count: number
  expires: Values<D>["date"]
}

export interface SesameTwoFactorsTable<D extends SqlDialect = "postgres"> {
  userId: string
  method: string
  /** The TOTP secret, encrypted (a compact JWE); null for the email method. */
  secret: string | null
  enabledAt: Values<D>["date"]
  devicesRevokedAt: Values<D>["date"] | null
}

export interface SesameRecoveryCodesTable {
  userId: string
  /** SHA-256 (hex) of an unused recovery code. */
  hash: string
}

export interface SesameSigningKeysTable<D extends SqlDialect = "postgres"> {
  /** The key id (`kid`). */
  id: string
  algorithm: string
  /** The public JWK, as JSON text. */
  publicKey: string
  /** The private JWK, encrypted under the app's secret (a compact JWE). */
  privateKey: string
  createdAt: Values<D>["date"]
}

/** Sesame's ten tables under their default names, as `migrate` creates them on dialect `D`. */
export interface SesameDatabase<D extends SqlDialect = "postgres"> {
  sesame_users: SesameUsersTable<D>
  sesame_accounts: SesameAccountsTable<D>
  sesame_sessions: SesameSessionsTable<D>
  sesame_verificationTokens: SesameVerificationTokensTable<D>
  sesame_authenticators: SesameAuthenticatorsTable<D>
  sesame_passwords: SesamePasswordsTable<D>
  sesame_counters: SesameCountersTable<D>
  sesame_two_factors: SesameTwoFactorsTable<D>
  sesame_recovery_codes: SesameRecoveryCodesTable
  sesame_signing_keys: SesameSigningKeysTable<D>
}
