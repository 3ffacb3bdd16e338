/**
 * Table names, the same as `@sesame/adapter-sqlite` and the other SQL adapters use, so that one
 * database can move between them.
 *
 * @module
 */

/** Names of the five tables. Defaults: `sesame_users`, `sesame_accounts`, … */
export interface TableNames {
  users: string
  accounts: string
  sessions: string
  verificationTokens: string
  authenticators: string
}

export const defaultTableNames: TableNames = {
  users: "sesame_users",
  accounts: "sesame_accounts",
  sessions: "sesame_sessions",
  verificationTokens: "sesame_verificationTokens",
  authenticators: "sesame_authenticators",
}

export function tableNames(overrides: Partial<TableNames> = {}): TableNames {
  return { ...defaultTableNames, ...overrides }
}
