/**
 * The PostgreSQL schema, which `@sesame/adapter-pg` and `@sesame/adapter-kysely` both apply (so
 * either works on a database the other migrated): ten tables with foreign keys (cascading on user
 * deletion), the unique constraints of the contract, and an index on every column the adapters
 * look rows up by. Dates are `timestamptz(3)` (millisecond precision, like a JS `Date`), flags
 * `boolean`, and the two integers that can outgrow 32 bits (an account's `expires_at`, a passkey's
 * signature counter, an unsigned 32-bit value) `bigint`.
 *
 * PostgreSQL runs DDL inside transactions, so a run applies every pending migration in one
 * transaction that first takes an advisory lock named for the schema and migrations table: runs
 * that start together apply each migration once, and a failure half-way changes nothing.
 *
 * @module
 */
import type { Migration } from "../migrations.js"

/** The table recording applied migrations, made when missing. `log` is a checked identifier. */
export function pgMigrationsTableSql(log: string): string {
  return `CREATE TABLE IF NOT EXISTS "${log}" ("version" INTEGER PRIMARY KEY, "description" TEXT NOT NULL, "appliedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT now())`
}

/** Takes the run's lock until its transaction ends; `$1` is the migrations table's name. */
export const pgMigrationLockSql = `SELECT pg_advisory_xact_lock(hashtext(current_schema() || '.' || $1))`

/** Every schema change, in order. Append; never edit a released one. */
export const pgMigrations: readonly Migration[] = [
  {
    version: 1,
    description: "create users, accounts, sessions, verification tokens and authenticators",
    statements: (t) => [
      `CREATE TABLE "${t.users}" (
  "id" TEXT NOT NULL,
  "name" TEXT,
  "email" TEXT NOT NULL,
  "emailVerified" TIMESTAMPTZ(3),
  "image" TEXT,
  CONSTRAINT "${t.users}_pkey" PRIMARY KEY ("id"),
  CONSTRAINT "${t.users}_email_key" UNIQUE ("email")
)`,
      `CREATE TABLE "${t.accounts}" (
  "id" TEXT NOT NULL,
  "userId" TEXT NOT NULL,
  "type" TEXT NOT NULL,
  "provider" TEXT NOT NULL,
  "providerAccountId" TEXT NOT NULL,
  "refresh_token" TEXT,
  "access_token" TEXT,
  "expires_at" BIGINT,
  "token_type" TEXT,
  "scope" TEXT,
  "id_token" TEXT,
  "session_state" TEXT,
  CONSTRAINT "${t.accounts}_pkey" PRIMARY KEY ("id"),
  CONSTRAINT "${t.accounts}_provider_key" UNIQUE ("provider", "providerAccountId"),
  CONSTRAINT "${t.accounts}_userId_fkey" FOREIGN KEY ("userId") REFERENCES "${t.users}" ("id") ON DELETE CASCADE
)`,
      `CREATE INDEX "${t.accounts}_userId_idx" ON "${t.accounts}" ("userId")`,
      `CREATE TABLE "${t.sessions}" (
  "sessionToken" TEXT NOT NULL,
  "userId" TEXT NOT NULL,
  "expires" TIMESTAMPTZ(3) NOT NULL,
  "createdAt" TIMESTAMPTZ(3),
  "lastUsedAt" TIMESTAMPTZ(3),
  "userAgent" TEXT,
  CONSTRAINT "${t.sessions}_pkey" PRIMARY KEY ("sessionToken"),
  CONSTRAINT "${t.sessions}_userId_fkey" FOREIGN KEY ("userId") REFERENCES "${t.users}" ("id") ON DELETE CASCADE
)`,
      `CREATE INDEX "${t.sessions}_userId_idx" ON "${t.sessions}" ("userId")`,
      `CREATE TABLE "${t.verificationTokens}" (
  "identifier" TEXT NOT NULL,
  "token" TEXT NOT NULL,
  "expires" TIMESTAMPTZ(3) NOT NULL,
  CONSTRAINT "${t.verificationTokens}_pkey" PRIMARY KEY ("identifier", "token")
)`,
      `CREATE TABLE "${t.authenticators}" (
  "credentialID" TEXT NOT NULL,
  "userId" TEXT NOT NULL,
  "providerAccountId" TEXT NOT NULL,
  "credentialPublicKey" TEXT NOT NULL,
  "counter" BIGINT NOT NULL,
  "credentialDeviceType" TEXT NOT NULL,
  "credentialBackedUp" BOOLEAN NOT NULL,
  "transports" TEXT,
  "name" TEXT,
  "createdAt" TIMESTAMPTZ(3),
  CONSTRAINT "${t.authenticators}_pkey" PRIMARY KEY ("credentialID"),
  CONSTRAINT "${t.authenticators}_userId_fkey" FOREIGN KEY ("userId") REFERENCES "${t.users}" ("id") ON DELETE CASCADE
)`,
      `CREATE INDEX "${t.authenticators}_userId_idx" ON "${t.authenticators}" ("userId")`,
    ],
  },
  {
    version: 2,
    description: "create passwords and counters",
    statements: (t) => [
      `CREATE TABLE "${t.passwords}" (
  "userId" TEXT NOT NULL,
  "hash" TEXT NOT NULL,
  "updatedAt" TIMESTAMPTZ(3) NOT NULL,
  CONSTRAINT "${t.passwords}_pkey" PRIMARY KEY ("userId"),
  CONSTRAINT "${t.passwords}_userId_fkey" FOREIGN KEY ("userId") REFERENCES "${t.users}" ("id") ON DELETE CASCADE
)`,
      `CREATE TABLE "${t.counters}" (
  "key" TEXT NOT NULL,
  "count" INTEGER NOT NULL,
  "expires" TIMESTAMPTZ(3) NOT NULL,
  CONSTRAINT "${t.counters}_pkey" PRIMARY KEY ("key")
)`,
    ],
  },
  {
    version: 3,
    description: "create second factors and recovery codes; add sessions' factors",
    statements: (t) => [
      // How the user signed in (`password,totp`), comma-separated; null for sessions from before.
      `ALTER TABLE "${t.sessions}" ADD COLUMN "factors" TEXT`,
      // The secret is a compact JWE of a few hundred characters; TEXT has no limit to outgrow.
      `CREATE TABLE "${t.twoFactors}" (
  "userId" TEXT NOT NULL,
  "method" TEXT NOT NULL,
  "secret" TEXT,
  "enabledAt" TIMESTAMPTZ(3) NOT NULL,
  "devicesRevokedAt" TIMESTAMPTZ(3),
  CONSTRAINT "${t.twoFactors}_pkey" PRIMARY KEY ("userId"),
  CONSTRAINT "${t.twoFactors}_userId_fkey" FOREIGN KEY ("userId") REFERENCES "${t.users}" ("id") ON DELETE CASCADE
)`,
      // The primary key leads with "userId", so it also serves the lookups of a user's codes.
      `CREATE TABLE "${t.recoveryCodes}" (
  "userId" TEXT NOT NULL,
  "hash" TEXT NOT NULL,
  CONSTRAINT "${t.recoveryCodes}_pkey" PRIMARY KEY ("userId", "hash"),
  CONSTRAINT "${t.recoveryCodes}_userId_fkey" FOREIGN KEY ("userId") REFERENCES "${t.users}" ("id") ON DELETE CASCADE
)`,
    ],
  },
  {
    version: 4,
    description: "create signing keys",
    statements: (t) => [
      // The keys that sign API tokens: the app's, tied to no user. The private key is a JWK sealed
      // as a compact JWE (about 2.5 KB for an RSA key), so both keys are unbounded TEXT.
      `CREATE TABLE "${t.signingKeys}" (
  "id" TEXT NOT NULL,
  "algorithm" TEXT NOT NULL,
  "publicKey" TEXT NOT NULL,
  "privateKey" TEXT NOT NULL,
  "createdAt" TIMESTAMPTZ(3) NOT NULL,
  CONSTRAINT "${t.signingKeys}_pkey" PRIMARY KEY ("id")
)`,
    ],
  },
]
