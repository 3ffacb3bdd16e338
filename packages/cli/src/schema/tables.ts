/**
 * The tables `sesame migrate` makes, described once for the printers of `sesame schema --format
 * drizzle|kysely|prisma`: names, columns (with the exact SQL type of each dialect), primary keys,
 * foreign keys, unique constraints and indexes, under the names the migrations and the model DDL
 * give them. Each printer turns this into its library's terms, so the three cannot disagree about
 * a column, and a test compares them with a migrated database.
 *
 * Sesame's ten tables come from its numbered migrations (`@sesame/sql-common`'s `schema/`), whose
 * types are not always those a model declaration would give (a counter is `INTEGER`, not
 * `BIGINT`; MySQL's text is `TEXT`, not `MEDIUMTEXT`), so they are written out here, as the
 * migrations leave them after the last one. The plugins' models take the rules of the model DDL
 * from `@sesame/sql-common` (`fieldSqlType`, `modelReferences`, `modelIndexes`, `byReferences`),
 * the same functions `sesame migrate` makes their tables with. The app's user fields (`user.fields`,
 * whose model `userModel` maps onto the users table) are columns and indexes of the users table,
 * typed and named by the same rules, as `sesame migrate` adds them after the migrations.
 *
 * @module
 */
import { columnOf, isUserModel, primaryKeyOf, type FieldDeclaration, type FieldType, type ModelDeclaration } from "@sesame/core/adapters"
import {
  byReferences,
  defaultTableNames,
  fieldSqlType,
  modelIndexes,
  modelReferences,
  tableOf,
  type ModelTableOptions,
  type SqlDialect,
  type TableNames,
} from "@sesame/sql-common"

/** The three SQL dialects, as `--adapter` names them. */
export type SchemaDialect = SqlDialect

/**
 * What a column holds, whatever its SQL type: `bigint` for 64-bit integers (`BIGINT`; `INTEGER` on
 * SQLite), `int` for the 32-bit ones (a counter), `date` for an instant (on SQLite, milliseconds in
 * an `INTEGER`), `boolean` (0 or 1 on SQLite and MySQL).
 */
export type ColumnValue = "string" | "bigint" | "int" | "boolean" | "date"

export interface ColumnShape {
  /** The property name (a model's field, or the column itself for Sesame's tables). */
  key: string
  /** The column's name. */
  name: string
  value: ColumnValue
  /** The column's type as `sesame migrate` makes it (`TEXT`, `VARCHAR(255)`, `TIMESTAMPTZ(3)`, …). */
  sql: string
  nullable: boolean
  /** A model's `default`, as declared (a date's as a `Date`, a JSON field's as the value). */
  default?: string | number | boolean | Date
  /** A `json` field: JSON text, which the store parses on reading. */
  json?: boolean
}

export interface ForeignKeyShape {
  /** The constraint's name; none for SQLite's inline `REFERENCES`. */
  name?: string
  column: string
  /** The table referred to, and its (one) key column. */
  table: string
  foreignColumn: string
  onDelete: "cascade" | "set null"
}

export interface IndexShape {
  name: string
  columns: string[]
  unique: boolean
  /** A `UNIQUE` constraint in the table (PostgreSQL) rather than a `CREATE UNIQUE INDEX`. */
  constraint?: boolean
}

export interface TableShape {
  /** The role (`users`, `passwords`, …) or the plugin model's name: the export name in Drizzle's module. */
  key: string
  /** The plugin's model, when the table is one (not one of Sesame's ten). */
  model?: ModelDeclaration
  name: string
  columns: ColumnShape[]
  primaryKey: { columns: string[]; name?: string }
  foreignKeys: ForeignKeyShape[]
  indexes: IndexShape[]
}

/** The types of each dialect's columns, by a short name; the table descriptions below use these. */
const sqlTypes = {
  pg: { key: "TEXT", short: "TEXT", text: "TEXT", bigint: "BIGINT", int: "INTEGER", boolean: "BOOLEAN", date: "TIMESTAMPTZ(3)" },
  mysql: { key: "VARCHAR(255)", short: "VARCHAR(255)", text: "TEXT", bigint: "BIGINT", int: "INT", boolean: "BOOLEAN", date: "DATETIME(3)" },
  sqlite: { key: "TEXT", short: "TEXT", text: "TEXT", bigint: "INTEGER", int: "INTEGER", boolean: "INTEGER", date: "INTEGER" },
} as const

/** A column of Sesame's tables: its kind in the migrations' terms (`key`: a `VARCHAR(255)` on MySQL). */
type Kind = keyof (typeof sqlTypes)["pg"]
const valueOf: Record<Kind, ColumnValue> = { key: "string", short: "string", text: "string", bigint: "bigint", int: "int", boolean: "boolean", date: "date" }

/**
 * Sesame's ten tables, column by column, as the four migrations of each dialect leave them. The
 * `?` marks a nullable column. On MySQL a passkey's credential id is ASCII `VARCHAR(1400)` (see
 * `@sesame/sql-common`'s `schema/mysql.ts`), the one type that is not in `sqlTypes`.
 */
const builtIn: Record<keyof TableNames, { columns: Record<string, `${Kind}${"" | "?"}`>; key: string[]; userId?: boolean }> = {
  users: { columns: { id: "key", name: "text?", email: "key", emailVerified: "date?", image: "text?" }, key: ["id"] },
  accounts: {
    columns: {
      id: "key",
      userId: "key",
      type: "key",
      provider: "key",
      providerAccountId: "key",
      refresh_token: "text?",
      access_token: "text?",
      expires_at: "bigint?",
      token_type: "short?",
      scope: "text?",
      id_token: "text?",
      session_state: "text?",
    },
    key: ["id"],
    userId: true,
  },
  sessions: {
    columns: { sessionToken: "key", userId: "key", expires: "date", createdAt: "date?", lastUsedAt: "date?", userAgent: "text?", factors: "text?" },
    key: ["sessionToken"],
    userId: true,
  },
  verificationTokens: { columns: { identifier: "key", token: "key", expires: "date" }, key: ["identifier", "token"] },
  authenticators: {
    columns: {
      credentialID: "key",
      userId: "key",
      providerAccountId: "key",
      credentialPublicKey: "text",
      counter: "bigint",
      credentialDeviceType: "short",
      credentialBackedUp: "boolean",
      transports: "short?",
      name: "text?",
      createdAt: "date?",
    },
    key: ["credentialID"],
    userId: true,
  },
  passwords: { columns: { userId: "key", hash: "text", updatedAt: "date" }, key: ["userId"], userId: true },
  counters: { columns: { key: "key", count: "int", expires: "date" }, key: ["key"] },
  twoFactors: {
    columns: { userId: "key", method: "short", secret: "text?", enabledAt: "date", devicesRevokedAt: "date?" },
    key: ["userId"],
    userId: true,
  },
  recoveryCodes: { columns: { userId: "key", hash: "key" }, key: ["userId", "hash"], userId: true },
  signingKeys: { columns: { id: "key", algorithm: "short", publicKey: "text", privateKey: "text", createdAt: "date" }, key: ["id"] },
}

/** The columns the migrations give the users table: the user fields' model has `id` among them, and may declare none of the others. */
export const usersTableColumns: readonly string[] = Object.keys(builtIn.users.columns)

/** The tables whose `userId` the migrations index (the others' primary keys lead with it). */
const indexedUserId = new Set(["accounts", "sessions", "authenticators"])

/**
 * The indexes' names: PostgreSQL and SQLite name them after the table (`sesame_accounts_userId_idx`),
 * MySQL's migrations inside the table (`userId_idx`), where a name need only be unique per table.
 */
function builtInIndexes(dialect: SchemaDialect, role: keyof TableNames, table: string): IndexShape[] {
  const name = (local: string) => (dialect === "mysql" ? local : `${table}_${local}`)
  const indexes: IndexShape[] = []
  // PostgreSQL's migrations make the users' and accounts' unique keys constraints in the table.
  const constraint = dialect === "pg" ? { constraint: true } : {}
  if (role === "users") indexes.push({ name: name("email_key"), columns: ["email"], unique: true, ...constraint })
  if (role === "accounts") indexes.push({ name: name("provider_key"), columns: ["provider", "providerAccountId"], unique: true, ...constraint })
  if (indexedUserId.has(role)) indexes.push({ name: name("userId_idx"), columns: ["userId"], unique: false })
  return indexes
}

/** A table's primary key: PostgreSQL's is the constraint `<table>_pkey`, MySQL's always PRIMARY, SQLite's unnamed. */
function primaryKey(dialect: SchemaDialect, table: string, columns: string[]): TableShape["primaryKey"] {
  return { columns, ...(dialect === "pg" ? { name: `${table}_pkey` } : {}) }
}

function builtInTable(dialect: SchemaDialect, role: keyof TableNames, names: TableNames): TableShape {
  const spec = builtIn[role]
  const table = names[role]
  const columns = Object.entries(spec.columns).map(([name, declared]): ColumnShape => {
    const kind = declared.replace("?", "") as Kind
    const sql = dialect === "mysql" && role === "authenticators" && name === "credentialID" ? "VARCHAR(1400) CHARACTER SET ascii COLLATE ascii_bin" : sqlTypes[dialect][kind]
    return { key: name, name, value: valueOf[kind], sql, nullable: declared.endsWith("?") }
  })
  const foreignKeys: ForeignKeyShape[] = spec.userId
    ? [{ ...(dialect === "sqlite" ? {} : { name: `${table}_userId_fkey` }), column: "userId", table: names.users, foreignColumn: "id", onDelete: "cascade" }]
    : []
  return {
    key: role,
    name: table,
    columns,
    primaryKey: primaryKey(dialect, table, spec.key),
    foreignKeys,
    indexes: builtInIndexes(dialect, role, table),
  }
}

const fieldValues: Record<FieldType, ColumnValue> = { string: "string", text: "string", integer: "bigint", boolean: "boolean", date: "date", json: "string" }

/** A declared field's column, as the model DDL makes it. */
function modelColumn(dialect: SchemaDialect, model: ModelDeclaration, key: string, field: FieldDeclaration): ColumnShape {
  const column: ColumnShape = { key, name: columnOf(model, key), value: fieldValues[field.type], sql: fieldSqlType(dialect, field), nullable: field.optional ?? false }
  if (field.type === "json") column.json = true
  if (field.default !== undefined) column.default = field.type === "date" ? new Date(field.default as string | number) : field.default
  return column
}

/** A plugin model's table: the columns, keys and indexes the model DDL gives it. */
function modelTable(dialect: SchemaDialect, model: ModelDeclaration, options: ModelTableOptions): TableShape {
  const table = tableOf(model, options.tables)
  const columns = Object.entries(model.fields).map(([key, field]) => modelColumn(dialect, model, key, field))
  const foreignKeys = modelReferences(model, options).map(
    (reference): ForeignKeyShape => ({ ...reference, onDelete: reference.onDelete === "SET NULL" ? "set null" : "cascade" }),
  )
  return {
    key: model.name,
    model,
    name: table,
    columns,
    primaryKey: primaryKey(dialect, table, primaryKeyOf(model).map((f) => columnOf(model, f))),
    foreignKeys,
    indexes: modelIndexes(model, table),
  }
}

/** The users table with the user fields' columns after its own, and their indexes (named, as migrate names them, after the table). */
function withUserFields(dialect: SchemaDialect, users: TableShape, model: ModelDeclaration): TableShape {
  const added = Object.entries(model.fields).filter(([key]) => !usersTableColumns.includes(key))
  return {
    ...users,
    columns: [...users.columns, ...added.map(([key, field]) => modelColumn(dialect, model, key, field))],
    indexes: [...users.indexes, ...modelIndexes(model, users.name)],
  }
}

/**
 * Every table `sesame migrate --adapter <dialect>` makes with these `tables` names (by role and by
 * model name) and these `models` (the plugins', and the user fields' model if any): Sesame's ten,
 * the users table with the user fields, then the plugins' tables in the order migrate creates
 * them. `models` must have passed the dialect's `schema()` (which checks them and their
 * references), and `tables` the CLI's checks.
 */
export function schemaTables(dialect: SchemaDialect, tables: Readonly<Record<string, string>>, models: readonly ModelDeclaration[]): TableShape[] {
  const names = { ...defaultTableNames } as TableNames
  for (const role of Object.keys(defaultTableNames) as (keyof TableNames)[]) if (tables[role] !== undefined) names[role] = tables[role]
  const roles = Object.keys(defaultTableNames) as (keyof TableNames)[]
  const userFields = models.find(isUserModel)
  const plugins = models.filter((model) => !isUserModel(model))
  const options: ModelTableOptions = { tables, usersTable: names.users, models: plugins }
  const builtIns = roles.map((role) => {
    const table = builtInTable(dialect, role, names)
    return role === "users" && userFields ? withUserFields(dialect, table, userFields) : table
  })
  return [...builtIns, ...byReferences(plugins).map((model) => modelTable(dialect, model, options))]
}
