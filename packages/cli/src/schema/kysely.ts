/**
 * `sesame schema --format kysely`: a TypeScript `Database` interface for `new Kysely<Database>`,
 * keyed by table name, with every table `sesame migrate` makes (Sesame's ten and the plugins'),
 * so that an app's own queries of them are typed.
 *
 * A column's type is what the dialect's driver returns, as in `@sesame/adapter-kysely`'s
 * `SesameDatabase<D>` (node-postgres: dates as `Date`s, `BIGINT` as strings; mysql2: dates as
 * `Date`s, flags and `BIGINT`s as numbers; better-sqlite3: dates as milliseconds, flags as 0 or
 * 1): Sesame's tables under their default names have exactly its types. A nullable column is
 * `T | null`, which Kysely lets an insert leave out; a column with a database default is
 * `Generated<T>`. A `json` field is its JSON text (the store parses it; a query reads the text).
 *
 * @module
 */
import { usageError } from "../errors.js"
import type { ColumnShape, SchemaDialect, TableShape } from "./tables.js"

const titles = { pg: "PostgreSQL (node-postgres)", mysql: "MySQL/MariaDB (mysql2)", sqlite: "SQLite (better-sqlite3)" } as const

/** The type a dialect's driver returns for a column. */
function selectType(dialect: SchemaDialect, column: ColumnShape): string {
  switch (column.value) {
    case "string":
      return "string"
    case "int":
      return "number"
    case "bigint":
      // node-postgres returns int8 as a string, since it may exceed a double's exact integers.
      return dialect === "pg" ? "string" : "number"
    case "boolean":
      return dialect === "pg" ? "boolean" : "number"
    case "date":
      return dialect === "sqlite" ? "number" : "Date"
  }
}

/** A property name as TypeScript takes it (table names may hold any identifier character). */
const property = (name: string) => (/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) ? name : JSON.stringify(name))

/** `Sesame` + the role or model name in PascalCase + `Table`: `SesameUsersTable`, `AuditSignInTable`. */
export function kyselyTypeName(table: TableShape): string {
  const pascal = table.key.charAt(0).toUpperCase() + table.key.slice(1)
  return table.model ? `${pascal}Table` : `Sesame${pascal}Table`
}

/** The module for `dialect`'s `tables` (from `schemaTables`). */
export function kyselySchema(dialect: SchemaDialect, tables: readonly TableShape[]): string {
  const names = new Set<string>()
  for (const table of tables) {
    const name = kyselyTypeName(table)
    if (names.has(name) || name === "Database") throw usageError(`--format kysely: two tables would be interface ${name}; rename the plugin's model.`)
    names.add(name)
  }
  let generated = false
  const interfaces = tables.map((table) => {
    const lines = table.columns.map((column) => {
      let type = selectType(dialect, column)
      if (column.nullable) type += " | null"
      if (column.default !== undefined) {
        generated = true
        type = `Generated<${type}>`
      }
      return `  ${property(column.name)}: ${type}`
    })
    const note = table.model ? `Plugin model "${table.key}"` : `Sesame's ${table.key}`
    return `/** ${note}: table \`${table.name}\`. */\nexport interface ${kyselyTypeName(table)} {\n${lines.join("\n")}\n}`
  })
  const database = tables.map((table) => `  ${property(table.name)}: ${kyselyTypeName(table)}`)
  return [
    `/**`,
    ` * Sesame's tables for Kysely on ${titles[dialect]}, as \`sesame migrate --adapter ${dialect}\` makes them`,
    ` * (printed by \`sesame schema --format kysely --adapter ${dialect}\`): \`new Kysely<Database>(…)\`, or`,
    ` * \`interface AppDatabase extends Database { … }\` beside the app's own tables.`,
    ` */`,
    // Imported only when used, so that the module compiles under noUnusedLocals.
    ...(generated ? [`import type { Generated } from "kysely"`, ""] : []),
    interfaces.join("\n\n"),
    "",
    `/** Every table, by its name in the database. */`,
    `export interface Database {\n${database.join("\n")}\n}`,
    "",
  ].join("\n")
}
