/**
 * `sesame schema --format drizzle`: a TypeScript module of Drizzle ORM tables (`drizzle-orm/pg-core`,
 * `mysql-core` or `sqlite-core`) for every table `sesame migrate` makes, so that an app queries
 * them with Drizzle and gives them to `@sesame/adapter-drizzle`.
 *
 * The module exports Sesame's ten tables under the names `@sesame/adapter-drizzle/pg` (…) uses
 * (`users`, `accounts`, …, `signingKeys`), one table per plugin model under the model's name, and
 * `sesameTables`: those tables, by role and by model name, the `tables` option the adapter and its
 * `migrate` take (for a model's table, they use the Drizzle table's name).
 *
 * Columns, keys, indexes and constraint names are those of the migrations and of the model DDL,
 * so that drizzle-kit, shown this schema, finds nothing to change in a migrated database.
 *
 * @module
 */
import { usageError } from "../errors.js"
import type { ColumnShape, SchemaDialect, TableShape } from "./tables.js"

/** What each dialect's module imports, and its table function. */
const dialects = {
  pg: { module: "drizzle-orm/pg-core", table: "pgTable", title: "PostgreSQL" },
  mysql: { module: "drizzle-orm/mysql-core", table: "mysqlTable", title: "MySQL/MariaDB" },
  sqlite: { module: "drizzle-orm/sqlite-core", table: "sqliteTable", title: "SQLite" },
} as const

/** A column's builder call, and the names it imports from the dialect's module and the helpers it needs. */
interface Builder {
  code: string
  imports: string[]
  helpers?: string[]
}

/** Helpers the module defines when a column needs them (custom types Drizzle has no builder for). */
const helperCode: Record<string, (dialect: SchemaDialect) => string> = {
  // JSON text: the store writes `JSON.stringify`'s text to a plain text column and parses it on
  // reading; Drizzle's `json` columns would be of the `json` type, which migrate does not make.
  jsonText: (dialect) =>
    [
      "/** A declared `json` field: JSON as text, parsed on reading (as Sesame's store does). */",
      `const jsonText = customType<{ data: unknown; driverData: string }>({`,
      `  dataType: () => "${dialect === "mysql" ? "mediumtext" : "text"}",`,
      "  toDriver: (value) => JSON.stringify(value),",
      "  fromDriver: (value) => JSON.parse(value) as unknown,",
      "})",
    ].join("\n"),
  // A passkey's credential id on MySQL: ASCII, so that its 1,400 characters fit an index.
  asciiVarchar: () =>
    [
      "/** A `VARCHAR` of ASCII compared byte for byte: a passkey's credential id. */",
      "const asciiVarchar = (name: string, length: number) =>",
      "  customType<{ data: string; driverData: string }>({ dataType: () => `varchar(${length}) CHARACTER SET ascii COLLATE ascii_bin` })(name)",
    ].join("\n"),
}

const str = (value: string) => JSON.stringify(value)

function pgBuilder(column: ColumnShape): Builder {
  const name = str(column.name)
  if (column.json) return { code: `jsonText(${name})`, imports: ["customType"], helpers: ["jsonText"] }
  switch (column.sql) {
    case "TEXT":
      return { code: `text(${name})`, imports: ["text"] }
    case "BIGINT":
      return { code: `bigint(${name}, { mode: "number" })`, imports: ["bigint"] }
    case "INTEGER":
      return { code: `integer(${name})`, imports: ["integer"] }
    case "BOOLEAN":
      return { code: `boolean(${name})`, imports: ["boolean"] }
    case "TIMESTAMPTZ(3)":
      return { code: `timestamp(${name}, { mode: "date", withTimezone: true, precision: 3 })`, imports: ["timestamp"] }
  }
  throw new Error(`No Drizzle column for PostgreSQL's ${column.sql}.`)
}

function mysqlBuilder(column: ColumnShape): Builder {
  const name = str(column.name)
  if (column.json) return { code: `jsonText(${name})`, imports: ["customType"], helpers: ["jsonText"] }
  const varchar = /^VARCHAR\((\d+)\)$/.exec(column.sql)
  if (varchar) return { code: `varchar(${name}, { length: ${varchar[1]} })`, imports: ["varchar"] }
  switch (column.sql) {
    case "VARCHAR(1400) CHARACTER SET ascii COLLATE ascii_bin":
      return { code: `asciiVarchar(${name}, 1400)`, imports: ["customType"], helpers: ["asciiVarchar"] }
    case "TEXT":
      return { code: `text(${name})`, imports: ["text"] }
    case "MEDIUMTEXT":
      return { code: `mediumtext(${name})`, imports: ["mediumtext"] }
    case "BIGINT":
      return { code: `bigint(${name}, { mode: "number" })`, imports: ["bigint"] }
    case "INT":
      return { code: `int(${name})`, imports: ["int"] }
    case "BOOLEAN":
      return { code: `boolean(${name})`, imports: ["boolean"] }
    case "DATETIME(3)":
      return { code: `datetime(${name}, { mode: "date", fsp: 3 })`, imports: ["datetime"] }
  }
  throw new Error(`No Drizzle column for MySQL's ${column.sql}.`)
}

function sqliteBuilder(column: ColumnShape): Builder {
  const name = str(column.name)
  // Drizzle's JSON mode on SQLite is JSON text, exactly what the store writes.
  if (column.json) return { code: `text(${name}, { mode: "json" })`, imports: ["text"] }
  if (column.sql === "TEXT") return { code: `text(${name})`, imports: ["text"] }
  const mode = column.value === "boolean" ? "boolean" : column.value === "date" ? "timestamp_ms" : "number"
  return { code: `integer(${name}, { mode: "${mode}" })`, imports: ["integer"] }
}

const builders = { pg: pgBuilder, mysql: mysqlBuilder, sqlite: sqliteBuilder }

/** `.default(…)`: the declared default as the column's data (a `Date` for a date, the value for JSON). */
function defaultCall(column: ColumnShape): string {
  const value = column.default
  if (value === undefined) return ""
  return `.default(${value instanceof Date ? `new Date(${str(value.toISOString())})` : JSON.stringify(value)})`
}

/** A table's definition: `export const <key> = <table>("<name>", { … }, (t) => [ … ])`. */
function tableCode(dialect: SchemaDialect, table: TableShape, exportOf: Map<string, string>, imports: Set<string>, helpers: Set<string>): string {
  const keyOfColumn = new Map(table.columns.map((c) => [c.name, c.key]))
  const ref = (column: string) => `t.${keyOfColumn.get(column)}`
  const singleKey = table.primaryKey.columns.length === 1 ? table.primaryKey.columns[0] : undefined
  const lines = table.columns.map((column) => {
    const built = builders[dialect](column)
    built.imports.forEach((i) => imports.add(i))
    built.helpers?.forEach((h) => helpers.add(h))
    let code = built.code
    if (column.name === singleKey) code += ".primaryKey()"
    else if (!column.nullable) code += ".notNull()"
    code += defaultCall(column)
    // SQLite's migrations declare references inline, without a constraint name.
    const fk = table.foreignKeys.find((f) => f.column === column.name && f.name === undefined)
    if (fk) {
      code += `.references(() => ${exportOf.get(fk.table)}.${fk.foreignColumn}, { onDelete: "${fk.onDelete}" })`
    }
    return `  ${column.key}: ${code},`
  })
  const extras: string[] = []
  if (!singleKey) {
    imports.add("primaryKey")
    const name = table.primaryKey.name ? `name: ${str(table.primaryKey.name)}, ` : ""
    extras.push(`primaryKey({ ${name}columns: [${table.primaryKey.columns.map(ref).join(", ")}] })`)
  }
  for (const fk of table.foreignKeys) {
    if (fk.name === undefined) continue
    imports.add("foreignKey")
    // A model may refer to itself: its own columns are `t`'s.
    const target = fk.table === table.name ? `t.${fk.foreignColumn}` : `${exportOf.get(fk.table)}.${fk.foreignColumn}`
    const onDelete = fk.onDelete === "cascade" ? "cascade" : "set null"
    extras.push(`foreignKey({ name: ${str(fk.name)}, columns: [${ref(fk.column)}], foreignColumns: [${target}] }).onDelete("${onDelete}")`)
  }
  for (const index of table.indexes) {
    const fn = index.constraint ? "unique" : index.unique ? "uniqueIndex" : "index"
    imports.add(fn)
    extras.push(`${fn}(${str(index.name)}).on(${index.columns.map(ref).join(", ")})`)
  }
  const head = `export const ${table.key} = ${dialects[dialect].table}(${str(table.name)}, {\n${lines.join("\n")}\n}`
  if (extras.length === 0) return `${head})`
  return `${head}, (t) => [\n${extras.map((e) => `  ${e},`).join("\n")}\n])`
}

/** Names the module defines itself, which a plugin model's export may not take. */
const ownNames = new Set(["sesameTables", "jsonText", "asciiVarchar", "customType", "bigint", "boolean", "datetime", "foreignKey", "index", "int", "integer", "mediumtext", "primaryKey", "text", "timestamp", "unique", "uniqueIndex", "varchar", "pgTable", "mysqlTable", "sqliteTable"])

/**
 * The module for `dialect`'s `tables` (from `schemaTables`). A plugin model whose name is one of
 * the module's own (`index`, `text`, …) is a usage error: rename the model.
 */
export function drizzleSchema(dialect: SchemaDialect, tables: readonly TableShape[]): string {
  for (const table of tables) {
    if (table.model && ownNames.has(table.key)) throw usageError(`--format drizzle: model "${table.key}" would be exported under a name the module uses itself; rename the model.`)
  }
  const exportOf = new Map(tables.map((t) => [t.name, t.key]))
  const imports = new Set<string>([dialects[dialect].table])
  const helpers = new Set<string>()
  const definitions = tables.map((table) => {
    const note = table.model ? `/** Plugin model "${table.key}". */\n` : ""
    return `${note}${tableCode(dialect, table, exportOf, imports, helpers)}`
  })
  const sesameTables = tables.map((t) => `  ${t.key},`)
  return [
    `/**`,
    ` * Sesame's tables for Drizzle ORM on ${dialects[dialect].title}, as \`sesame migrate --adapter ${dialect}\` makes them`,
    ` * (printed by \`sesame schema --format drizzle --adapter ${dialect}\`; print it again after changing plugins).`,
    ` * Give the adapter \`sesameTables\`: \`DrizzleAdapter(db, { tables: sesameTables })\`, and the same to its \`migrate\`.`,
    ` */`,
    `import { ${[...imports].sort().join(", ")} } from "${dialects[dialect].module}"`,
    ...[...helpers].sort().map((h) => `\n${helperCode[h]!(dialect)}`),
    "",
    definitions.join("\n\n"),
    "",
    `/** The \`tables\` option of \`DrizzleAdapter\` and \`migrate\`: Sesame's tables and each plugin model's. */`,
    `export const sesameTables = {\n${sesameTables.join("\n")}\n}`,
    "",
  ].join("\n")
}
