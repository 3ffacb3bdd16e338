/**
 * The SQLite schema, which `@sesame/adapter-sqlite` and `@sesame/adapter-kysely` both apply (and
 * the SQLite tables of `@sesame/adapter-drizzle` match): ten tables with foreign keys (cascading on
 * user deletion), the unique constraints of the contract, and an index on every column the
 * adapters look rows up by. Dates are milliseconds since the epoch in `INTEGER`s, flags 0 or 1.
 * A run applies the pending migrations in one immediate transaction, so two processes migrating
 * the same file cannot both apply one.
 *
 * @module
 */
import type { Migration } from "../migrations.js"

/** The table recording applied migrations, made when missing. `log` is a checked identifier. */
export function sqliteMigrationsTableSql(log: string): string {
  return `CREATE TABLE IF NOT EXISTS "${log}" ("version" INTEGER PRIMARY KEY NOT NULL, "description" TEXT NOT NULL, "appliedAt" INTEGER NOT NULL)`
}

/** Every schema change, in order. Append; never edit a released one. */
export const sqliteMigrations: readonly Migration[] = [
  {
    version: 1,
    description: "create users, accounts, sessions, verification tokens and authenticators",
    statements: (t) => [
      `CREATE TABLE "${t.users}" (
  "id" TEXT PRIMARY KEY NOT NULL,
  "name" TEXT,
  "email" TEXT NOT NULL,
  "emailVerified" INTEGER,
  "image" TEXT
)`,
      `CREATE UNIQUE INDEX "${t.users}_email_key" ON "${t.users}" ("email")`,
      `CREATE TABLE "${t.accounts}" (
  "id" TEXT PRIMARY KEY NOT NULL,
  "userId" TEXT NOT NULL REFERENCES "${t.users}" ("id") ON DELETE CASCADE,
  "type" TEXT NOT NULL,
  "provider" TEXT NOT NULL,
  "providerAccountId" TEXT NOT NULL,
  "refresh_token" TEXT,
  "access_token" TEXT,
  "expires_at" INTEGER,
  "token_type" TEXT,
  "scope" TEXT,
  "id_token" TEXT,
  "session_state" TEXT
)`,
      `CREATE UNIQUE INDEX "${t.accounts}_provider_key" ON "${t.accounts}" ("provider", "providerAccountId")`,
      `CREATE INDEX "${t.accounts}_userId_idx" ON "${t.accounts}" ("userId")`,
      `CREATE TABLE "${t.sessions}" (
  "sessionToken" TEXT PRIMARY KEY NOT NULL,
  "userId" TEXT NOT NULL REFERENCES "${t.users}" ("id") ON DELETE CASCADE,
  "expires" INTEGER NOT NULL,
  "createdAt" INTEGER,
  "lastUsedAt" INTEGER,
  "userAgent" TEXT
)`,
      `CREATE INDEX "${t.sessions}_userId_idx" ON "${t.sessions}" ("userId")`,
      `CREATE TABLE "${t.verificationTokens}" (
  "identifier" TEXT NOT NULL,
  "token" TEXT NOT NULL,
  "expires" INTEGER NOT NULL,
  PRIMARY KEY ("identifier", "token")
)`,
      `CREATE TABLE "${t.authenticators}" (
  "credentialID" TEXT PRIMARY KEY NOT NULL,
  "userId" TEXT NOT NULL REFERENCES "${t.users}" ("id") ON DELETE CASCADE,
  "providerAccountId" TEXT NOT NULL,
  "credentialPublicKey" TEXT NOT NULL,
  "counter" INTEGER NOT NULL,
  "credentialDeviceType" TEXT NOT NULL,
  "credentialBackedUp" INTEGER NOT NULL,
  "transports" TEXT,
  "name" TEXT,
  "createdAt" INTEGER
)`,
      `CREATE INDEX "${t.authenticators}_userId_idx" ON "${t.authenticators}" ("userId")`,
    ],
  },
  {
    version: 2,
    description: "create passwords and counters",
    statements: (t) => [
      `CREATE TABLE "${t.passwords}" (
  "userId" TEXT PRIMARY KEY NOT NULL REFERENCES "${t.users}" ("id") ON DELETE CASCADE,
  "hash" TEXT NOT NULL,
  "updatedAt" INTEGER NOT NULL
)`,
      `CREATE TABLE "${t.counters}" (
  "key" TEXT PRIMARY KEY NOT NULL,
  "count" INTEGER NOT NULL,
  "expires" INTEGER NOT NULL
)`,
    ],
  },
  {
    version: 3,
    description: "create second factors and recovery codes; add sessions' factors",
    statements: (t) => [
      // How the user signed in (`password,totp`), comma-separated; null for sessions from before.
      `ALTER TABLE "${t.sessions}" ADD COLUMN "factors" TEXT`,
      `CREATE TABLE "${t.twoFactors}" (
  "userId" TEXT PRIMARY KEY NOT NULL REFERENCES "${t.users}" ("id") ON DELETE CASCADE,
  "method" TEXT NOT NULL,
  "secret" TEXT,
  "enabledAt" INTEGER NOT NULL,
  "devicesRevokedAt" INTEGER
)`,
      // The primary key leads with "userId", so it also serves the lookups of a user's codes.
      `CREATE TABLE "${t.recoveryCodes}" (
  "userId" TEXT NOT NULL REFERENCES "${t.users}" ("id") ON DELETE CASCADE,
  "hash" TEXT NOT NULL,
  PRIMARY KEY ("userId", "hash")
)`,
    ],
  },
  {
    version: 4,
    description: "create signing keys",
    statements: (t) => [
      // The keys that sign API tokens: the app's, tied to no user.
      `CREATE TABLE "${t.signingKeys}" (
  "id" TEXT PRIMARY KEY NOT NULL,
  "algorithm" TEXT NOT NULL,
  "publicKey" TEXT NOT NULL,
  "privateKey" TEXT NOT NULL,
  "createdAt" INTEGER NOT NULL
)`,
    ],
  },
]
