/**
 * The indexes every SQL dialect's schema must have: the unique constraints of the adapter
 * contract and one on every column the adapters look rows up by. Each schema test reads its
 * database's catalogue into this shape and checks that it contains all of them.
 */
export interface IndexShape {
  table: string
  unique: boolean
  columns: string[]
}

export const lookupIndexes: IndexShape[] = [
  { table: "sesame_users", unique: true, columns: ["id"] },
  { table: "sesame_users", unique: true, columns: ["email"] },
  { table: "sesame_accounts", unique: true, columns: ["provider", "providerAccountId"] },
  { table: "sesame_accounts", unique: false, columns: ["userId"] },
  { table: "sesame_sessions", unique: true, columns: ["sessionToken"] },
  { table: "sesame_sessions", unique: false, columns: ["userId"] },
  { table: "sesame_verificationTokens", unique: true, columns: ["identifier", "token"] },
  { table: "sesame_authenticators", unique: true, columns: ["credentialID"] },
  { table: "sesame_authenticators", unique: false, columns: ["userId"] },
  { table: "sesame_passwords", unique: true, columns: ["userId"] },
  { table: "sesame_counters", unique: true, columns: ["key"] },
  { table: "sesame_two_factors", unique: true, columns: ["userId"] },
  { table: "sesame_recovery_codes", unique: true, columns: ["userId", "hash"] },
  { table: "sesame_signing_keys", unique: true, columns: ["id"] },
]

/** The tables whose foreign key to users cascades on delete, sorted by name. */
export const cascadingTables = ["sesame_accounts", "sesame_authenticators", "sesame_passwords", "sesame_recovery_codes", "sesame_sessions", "sesame_two_factors"]
