/**
 * Table names. Every SQL adapter lets the app rename its ten tables, and interpolates the names
 * into SQL (identifiers cannot be bound parameters), so a name must be a plain identifier: letters,
 * digits and underscores, not starting with a digit. The length limit leaves room for the index
 * and constraint names derived from it (`<table>_provider_key`) within PostgreSQL's 63 and
 * MySQL's 64 characters.
 *
 * @module
 */

/** Names of the ten tables. Defaults: `sesame_users`, `sesame_accounts`, … */
export interface TableNames {
  users: string
  accounts: string
  sessions: string
  verificationTokens: string
  authenticators: string
  /** Users' password hashes, one row a user. */
  passwords: string
  /** Attempt counters (brute-force defence), one row a key. */
  counters: string
  /** Users' second factors, one row a user. */
  twoFactors: string
  /** The hashes of users' unused recovery codes, one row a code. */
  recoveryCodes: string
  /** The keys that sign API tokens, one row a key; the app's, tied to no user. */
  signingKeys: string
}

export const defaultTableNames: TableNames = {
  users: "sesame_users",
  accounts: "sesame_accounts",
  sessions: "sesame_sessions",
  verificationTokens: "sesame_verificationTokens",
  authenticators: "sesame_authenticators",
  passwords: "sesame_passwords",
  counters: "sesame_counters",
  twoFactors: "sesame_two_factors",
  recoveryCodes: "sesame_recovery_codes",
  signingKeys: "sesame_signing_keys",
}

/** The table that records applied migrations, unless renamed. */
export const defaultMigrationsTable = "sesame_migrations"

/** Checks that `name` is a plain SQL identifier of at most `maxLength` characters; returns it. */
export function identifier(role: string, name: string, maxLength: number): string {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name) || name.length > maxLength) {
    throw new TypeError(`${role} must be a plain SQL identifier (letters, digits, _) of at most ${maxLength} characters; got ${JSON.stringify(name)}.`)
  }
  return name
}

/** The table names with defaults, each checked by {@link identifier}. */
export function tableNames(overrides: Partial<TableNames> = {}, maxLength = 48): TableNames {
  const names = { ...defaultTableNames, ...overrides }
  for (const [role, name] of Object.entries(names)) identifier(`tables.${role}`, name, maxLength)
  return names
}
