/**
 * The shape the adapter needs of the ten tables, whatever the dialect: a Drizzle table with (at
 * least) the columns it looks rows up by. The tables exported per dialect (`schema/`) have it, and
 * so does an app's table that adds columns of its own.
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
  passwords: WithColumns<"userId">
  /**
   * The counters. `count` must come before `expires` among the table's columns: on MySQL the
   * increment's `ON DUPLICATE KEY UPDATE` assigns columns in the table's order, each seeing the
   * ones before it, and the new count must be decided by the stored expiry, not the new one.
   */
  counters: WithColumns<"key" | "count" | "expires">
  twoFactors: WithColumns<"userId">
  recoveryCodes: WithColumns<"userId" | "hash">
  signingKeys: WithColumns<"id">
}
