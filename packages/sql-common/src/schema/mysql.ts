/**
 * The MySQL/MariaDB schema, which `@sesame/adapter-mysql` and `@sesame/adapter-kysely` both apply
 * (so either works on a database the other migrated): ten InnoDB tables with foreign keys
 * (cascading on user deletion), the unique constraints of the contract, and an index on every
 * column the adapters look rows up by.
 *
 * - Text compares exactly (`utf8mb4_bin`), as in PostgreSQL and SQLite: MySQL's default collations
 *   ignore case and accents, which would make `Zoë@example.com` and `zoe@example.com` one email,
 *   and two credential ids that differ in case (base64 is case-sensitive) one passkey.
 * - Key columns are `VARCHAR(255)` (an index entry of at most 1020 bytes in utf8mb4); a passkey's
 *   credential id is base64, so it is ASCII and may be longer (WebAuthn allows 1023 bytes, 1364 in
 *   base64).
 * - Dates are `DATETIME(3)` in UTC (millisecond precision, like a JS `Date`); the adapters write and
 *   read them as UTC strings, so neither the server's nor the pool's time zone matters.
 * - Flags are `BOOLEAN` (`TINYINT(1)`), an account's `expires_at` and a passkey's counter `BIGINT`.
 *
 * MySQL cannot roll back DDL, so every statement of a migration can run again (`CREATE TABLE IF
 * NOT EXISTS`, indexes and keys inside it; an `ADD COLUMN` whose column exists is passed over
 * ({@link passOverExistingColumn}), as MySQL, unlike MariaDB, has no `ADD COLUMN IF NOT EXISTS`):
 * a migration cut off half-way is completed by the next run, and a migration is recorded after
 * its last statement. Runs are serialised by a named lock ({@link mysqlMigrationLock}) instead of
 * a transaction. The SQL runs on MySQL 8 and MariaDB 10.5 and later.
 *
 * @module
 */
import type { Migration } from "../migrations.js"

/**
 * Options of every table: InnoDB (for foreign keys and transactions) and exact comparison. The
 * tables of declared models take them too, so their keys match the users table's `id`.
 */
export const tableOptions = "ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin"

/** The table recording applied migrations, made when missing. `log` is a checked identifier. */
export function mysqlMigrationsTableSql(log: string): string {
  return `CREATE TABLE IF NOT EXISTS \`${log}\` (\`version\` INT NOT NULL PRIMARY KEY, \`description\` TEXT NOT NULL, \`appliedAt\` DATETIME(3) NOT NULL) ${tableOptions}`
}

/**
 * The name of a run's lock (`GET_LOCK(<this>, timeout)`, `RELEASE_LOCK(<this>)`), with one `?`: the
 * migrations table's name. Named locks are server-wide and their names at most 64 characters, so
 * the database and table are hashed.
 */
export const mysqlMigrationLock = `CONCAT('sesame:', LEFT(SHA1(CONCAT(DATABASE(), '.', ?)), 40))`

/**
 * Lets an `ADD COLUMN` of a migration run again: a run cut off after it added the column left the
 * column there (MySQL commits DDL at once), and MySQL, unlike MariaDB, cannot say `IF NOT EXISTS`.
 * Any other error is thrown again.
 */
export function passOverExistingColumn(error: unknown): void {
  if ((error as { code?: unknown } | null)?.code !== "ER_DUP_FIELDNAME") throw error
}

/** Every schema change, in order. Append; never edit a released one. */
export const mysqlMigrations: readonly Migration[] = [
  {
    version: 1,
    description: "create users, accounts, sessions, verification tokens and authenticators",
    statements: (t) => [
      `CREATE TABLE IF NOT EXISTS \`${t.users}\` (
  \`id\` VARCHAR(255) NOT NULL,
  \`name\` TEXT NULL,
  \`email\` VARCHAR(255) NOT NULL,
  \`emailVerified\` DATETIME(3) NULL,
  \`image\` TEXT NULL,
  PRIMARY KEY (\`id\`),
  UNIQUE KEY \`email_key\` (\`email\`)
) ${tableOptions}`,
      `CREATE TABLE IF NOT EXISTS \`${t.accounts}\` (
  \`id\` VARCHAR(255) NOT NULL,
  \`userId\` VARCHAR(255) NOT NULL,
  \`type\` VARCHAR(255) NOT NULL,
  \`provider\` VARCHAR(255) NOT NULL,
  \`providerAccountId\` VARCHAR(255) NOT NULL,
  \`refresh_token\` TEXT NULL,
  \`access_token\` TEXT NULL,
  \`expires_at\` BIGINT NULL,
  \`token_type\` VARCHAR(255) NULL,
  \`scope\` TEXT NULL,
  \`id_token\` TEXT NULL,
  \`session_state\` TEXT NULL,
  PRIMARY KEY (\`id\`),
  UNIQUE KEY \`provider_key\` (\`provider\`, \`providerAccountId\`),
  KEY \`userId_idx\` (\`userId\`),
  CONSTRAINT \`${t.accounts}_userId_fkey\` FOREIGN KEY (\`userId\`) REFERENCES \`${t.users}\` (\`id\`) ON DELETE CASCADE
) ${tableOptions}`,
      `CREATE TABLE IF NOT EXISTS \`${t.sessions}\` (
  \`sessionToken\` VARCHAR(255) NOT NULL,
  \`userId\` VARCHAR(255) NOT NULL,
  \`expires\` DATETIME(3) NOT NULL,
  \`createdAt\` DATETIME(3) NULL,
  \`lastUsedAt\` DATETIME(3) NULL,
  \`userAgent\` TEXT NULL,
  PRIMARY KEY (\`sessionToken\`),
  KEY \`userId_idx\` (\`userId\`),
  CONSTRAINT \`${t.sessions}_userId_fkey\` FOREIGN KEY (\`userId\`) REFERENCES \`${t.users}\` (\`id\`) ON DELETE CASCADE
) ${tableOptions}`,
      `CREATE TABLE IF NOT EXISTS \`${t.verificationTokens}\` (
  \`identifier\` VARCHAR(255) NOT NULL,
  \`token\` VARCHAR(255) NOT NULL,
  \`expires\` DATETIME(3) NOT NULL,
  PRIMARY KEY (\`identifier\`, \`token\`)
) ${tableOptions}`,
      `CREATE TABLE IF NOT EXISTS \`${t.authenticators}\` (
  \`credentialID\` VARCHAR(1400) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
  \`userId\` VARCHAR(255) NOT NULL,
  \`providerAccountId\` VARCHAR(255) NOT NULL,
  \`credentialPublicKey\` TEXT NOT NULL,
  \`counter\` BIGINT NOT NULL,
  \`credentialDeviceType\` VARCHAR(255) NOT NULL,
  \`credentialBackedUp\` BOOLEAN NOT NULL,
  \`transports\` VARCHAR(255) NULL,
  \`name\` TEXT NULL,
  \`createdAt\` DATETIME(3) NULL,
  PRIMARY KEY (\`credentialID\`),
  KEY \`userId_idx\` (\`userId\`),
  CONSTRAINT \`${t.authenticators}_userId_fkey\` FOREIGN KEY (\`userId\`) REFERENCES \`${t.users}\` (\`id\`) ON DELETE CASCADE
) ${tableOptions}`,
    ],
  },
  {
    version: 2,
    description: "create passwords and counters",
    statements: (t) => [
      `CREATE TABLE IF NOT EXISTS \`${t.passwords}\` (
  \`userId\` VARCHAR(255) NOT NULL,
  \`hash\` TEXT NOT NULL,
  \`updatedAt\` DATETIME(3) NOT NULL,
  PRIMARY KEY (\`userId\`),
  CONSTRAINT \`${t.passwords}_userId_fkey\` FOREIGN KEY (\`userId\`) REFERENCES \`${t.users}\` (\`id\`) ON DELETE CASCADE
) ${tableOptions}`,
      `CREATE TABLE IF NOT EXISTS \`${t.counters}\` (
  \`key\` VARCHAR(255) NOT NULL,
  \`count\` INT NOT NULL,
  \`expires\` DATETIME(3) NOT NULL,
  PRIMARY KEY (\`key\`)
) ${tableOptions}`,
    ],
  },
  {
    version: 3,
    description: "create second factors and recovery codes; add sessions' factors",
    statements: (t) => [
      // How the user signed in (`password,totp`), comma-separated; null for sessions from before.
      // Not re-runnable by itself (MySQL has no ADD COLUMN IF NOT EXISTS): `migrate` passes over it
      // when the column exists.
      `ALTER TABLE \`${t.sessions}\` ADD COLUMN \`factors\` TEXT NULL`,
      // The secret is a compact JWE of a few hundred characters: TEXT, not a VARCHAR(255).
      `CREATE TABLE IF NOT EXISTS \`${t.twoFactors}\` (
  \`userId\` VARCHAR(255) NOT NULL,
  \`method\` VARCHAR(255) NOT NULL,
  \`secret\` TEXT NULL,
  \`enabledAt\` DATETIME(3) NOT NULL,
  \`devicesRevokedAt\` DATETIME(3) NULL,
  PRIMARY KEY (\`userId\`),
  CONSTRAINT \`${t.twoFactors}_userId_fkey\` FOREIGN KEY (\`userId\`) REFERENCES \`${t.users}\` (\`id\`) ON DELETE CASCADE
) ${tableOptions}`,
      // The primary key leads with userId, so it is also the index the foreign key and the
      // lookups of a user's codes use.
      `CREATE TABLE IF NOT EXISTS \`${t.recoveryCodes}\` (
  \`userId\` VARCHAR(255) NOT NULL,
  \`hash\` VARCHAR(255) NOT NULL,
  PRIMARY KEY (\`userId\`, \`hash\`),
  CONSTRAINT \`${t.recoveryCodes}_userId_fkey\` FOREIGN KEY (\`userId\`) REFERENCES \`${t.users}\` (\`id\`) ON DELETE CASCADE
) ${tableOptions}`,
    ],
  },
  {
    version: 4,
    description: "create signing keys",
    statements: (t) => [
      // The keys that sign API tokens: the app's, tied to no user. The private key is a JWK sealed
      // as a compact JWE (about 2.5 KB for an RSA key): TEXT, not a VARCHAR(255).
      `CREATE TABLE IF NOT EXISTS \`${t.signingKeys}\` (
  \`id\` VARCHAR(255) NOT NULL,
  \`algorithm\` VARCHAR(255) NOT NULL,
  \`publicKey\` TEXT NOT NULL,
  \`privateKey\` TEXT NOT NULL,
  \`createdAt\` DATETIME(3) NOT NULL,
  PRIMARY KEY (\`id\`)
) ${tableOptions}`,
    ],
  },
]
