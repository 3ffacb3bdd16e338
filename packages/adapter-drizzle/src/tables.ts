/**
 * The shape the adapter needs of the ten tables, whatever the dialect: a Drizzle table with (at
 * least) the columns it looks rows up by. The tables exported per dialect (`schema/`) have it, and
 * so does an app's table that adds columns of its own. The tables of Sesame's own models
 * (passwords to signing keys) are read and written by the store, by the table's name and the
 * model's columns (those `schema/` defines), so the type asks only that they be tables.
 *
 * @module
 */
import type { Column, Table } from "drizzle-orm"

type WithColumns<K extends string> = Table & { [P in K]: Column }

export interface SesameTables {
  users: WithColumns<"id" | "email">
  accounts: WithColumns<"userId" | "provider" | "providerAccountId">
  sessions: WithColumns<"sessionToken" | "userId">
  verificationTokens: WithColumns<"identifier" | "token">
  authenticators: WithColumns<"credentialID" | "userId">
  passwords: Table
  counters: Table
  twoFactors: Table
  recoveryCodes: Table
  signingKeys: Table
}
