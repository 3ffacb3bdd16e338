/**
 * Table names the SQL adapters' tests share: every default table as the catalogue lists them
 * (sorted, with the migrations table), and a renamed set for running a second adapter beside the
 * default one on the same database.
 */
import type { TableNames } from "@sesame/sql-common"

/** The tables `migrate` creates with the default names, sorted by name. */
export const defaultTables = [
  "sesame_accounts",
  "sesame_authenticators",
  "sesame_counters",
  "sesame_migrations",
  "sesame_passwords",
  "sesame_recovery_codes",
  "sesame_sessions",
  "sesame_signing_keys",
  "sesame_two_factors",
  "sesame_users",
  "sesame_verificationTokens",
]

/** Every table renamed. */
export const renamedTables: TableNames = {
  users: "app_users",
  accounts: "app_accounts",
  sessions: "app_sessions",
  verificationTokens: "app_tokens",
  authenticators: "app_passkeys",
  passwords: "app_passwords",
  counters: "app_counters",
  twoFactors: "app_two_factors",
  recoveryCodes: "app_recovery_codes",
  signingKeys: "app_signing_keys",
}
