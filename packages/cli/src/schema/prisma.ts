/**
 * `sesame schema --format prisma`: Prisma schema models for every table `sesame migrate` makes,
 * mapped (`@@map`, `@map`, `map:` on keys, indexes and foreign keys) onto its exact tables,
 * columns and constraint names, with relations for its foreign keys. An app that uses Prisma for
 * its own data puts them beside its models, and shares the database Sesame's adapter works on.
 *
 * No generator or datasource block: the app's schema has them. Sesame's tables stay Sesame's:
 * `sesame migrate` makes and upgrades them, so `prisma migrate` must not (a baseline migration
 * that marks them applied, or `prisma db push` left to the app's own models).
 *
 * @module
 */
import { usageError } from "../errors.js"
import type { ColumnShape, ForeignKeyShape, SchemaDialect, TableShape } from "./tables.js"

/** Prisma's names of Sesame's models, prefixed so that they do not meet an app's `User`. */
const builtInNames: Readonly<Record<string, string>> = {
  users: "SesameUser",
  accounts: "SesameAccount",
  sessions: "SesameSession",
  verificationTokens: "SesameVerificationToken",
  authenticators: "SesameAuthenticator",
  passwords: "SesamePassword",
  counters: "SesameCounter",
  twoFactors: "SesameTwoFactor",
  recoveryCodes: "SesameRecoveryCode",
  signingKeys: "SesameSigningKey",
}

const upperFirst = (s: string) => s.charAt(0).toUpperCase() + s.slice(1)
const lowerFirst = (s: string) => s.charAt(0).toLowerCase() + s.slice(1)
const str = (s: string) => JSON.stringify(s)

/** The Prisma model's name of a table. */
function modelName(table: TableShape): string {
  return table.model ? upperFirst(table.key) : builtInNames[table.key]!
}

const scalarTypes = { string: "String", bigint: "BigInt", int: "Int", boolean: "Boolean", date: "DateTime" } as const

/** The `@db.` attribute where Prisma's default type for the scalar is not the column's. */
function nativeType(dialect: SchemaDialect, column: ColumnShape): string {
  if (dialect === "pg") return column.sql === "TIMESTAMPTZ(3)" ? " @db.Timestamptz(3)" : ""
  if (dialect === "sqlite") return ""
  // MySQL. A passkey's credential id is ASCII (`CHARACTER SET ascii`), which Prisma cannot say:
  // VarChar(1400) is its length; the database keeps the character set.
  const varchar = /^VARCHAR\((\d+)\)/.exec(column.sql)
  if (varchar) return ` @db.VarChar(${varchar[1]})`
  if (column.sql === "TEXT") return " @db.Text"
  if (column.sql === "MEDIUMTEXT") return " @db.MediumText"
  if (column.sql === "DATETIME(3)") return " @db.DateTime(3)"
  return ""
}

/** `@default(…)`: a JSON field's default is its JSON text, as the store writes it. */
function defaultAttribute(column: ColumnShape): string {
  const value = column.default
  if (value === undefined) return ""
  if (value instanceof Date) return ` @default(${str(value.toISOString())})`
  if (column.json) return ` @default(${str(JSON.stringify(value))})`
  return ` @default(${typeof value === "string" ? str(value) : String(value)})`
}

interface Relation {
  fk: ForeignKeyShape
  child: TableShape
  target: TableShape
  /** The relation field on the child, and its back-relation on the target. */
  field: string
  back: string
  /** One row of the child at most per target row (the column is the child's key or unique). */
  single: boolean
  name: string
}

/** Every foreign key as a Prisma relation, with field names that meet no column's. */
function relationsOf(tables: readonly TableShape[]): Relation[] {
  const byName = new Map(tables.map((t) => [t.name, t]))
  const taken = new Map(tables.map((t) => [t, new Set(t.columns.map((c) => c.key))]))
  const unique = (table: TableShape, wanted: string) => {
    const names = taken.get(table)!
    let name = wanted
    while (names.has(name)) name += "Ref"
    names.add(name)
    return name
  }
  const relations: Relation[] = []
  for (const child of tables) {
    for (const fk of child.foreignKeys) {
      const target = byName.get(fk.table)!
      const key = child.columns.find((c) => c.name === fk.column)!.key
      const single =
        (child.primaryKey.columns.length === 1 && child.primaryKey.columns[0] === fk.column) ||
        child.indexes.some((i) => i.unique && i.columns.length === 1 && i.columns[0] === fk.column)
      const siblings = child.foreignKeys.filter((f) => f.table === fk.table).length
      const base = lowerFirst(modelName(child)) + (siblings > 1 ? `By${upperFirst(key)}` : "")
      relations.push({
        fk,
        child,
        target,
        field: unique(child, key.length > 2 && key.endsWith("Id") ? key.slice(0, -2) : `${key}Ref`),
        back: unique(target, single ? base : `${base}s`),
        single,
        name: `${modelName(child)}_${key}`,
      })
    }
  }
  return relations
}

const onDeleteOf = { cascade: "Cascade", "set null": "SetNull" } as const

function modelCode(dialect: SchemaDialect, table: TableShape, relations: readonly Relation[]): string {
  const keyOf = (column: string) => table.columns.find((c) => c.name === column)!.key
  const singleKey = table.primaryKey.columns.length === 1 ? table.primaryKey.columns[0] : undefined
  // Only PostgreSQL names primary keys (MySQL's is PRIMARY, SQLite's has none).
  const keyMap = table.primaryKey.name ? `map: ${str(table.primaryKey.name)}` : ""
  const lines = table.columns.map((column) => {
    let line = `  ${column.key} ${scalarTypes[column.value]}${column.nullable ? "?" : ""}`
    if (column.name === singleKey) line += keyMap ? ` @id(${keyMap})` : " @id"
    line += defaultAttribute(column)
    if (column.name !== column.key) line += ` @map(${str(column.name)})`
    return line + nativeType(dialect, column)
  })
  for (const r of relations.filter((r) => r.child === table)) {
    // Prisma names no foreign key on SQLite (the model DDL's names are there, unread by Prisma).
    const map = r.fk.name && dialect !== "sqlite" ? `, map: ${str(r.fk.name)}` : ""
    const optional = r.child.columns.find((c) => c.name === r.fk.column)!.nullable ? "?" : ""
    const references = r.target.columns.find((c) => c.name === r.fk.foreignColumn)!.key
    lines.push(
      `  ${r.field} ${modelName(r.target)}${optional} @relation(${str(r.name)}, fields: [${keyOf(r.fk.column)}], references: [${references}], onDelete: ${onDeleteOf[r.fk.onDelete]}, onUpdate: NoAction${map})`,
    )
  }
  for (const r of relations.filter((r) => r.target === table)) {
    lines.push(`  ${r.back} ${modelName(r.child)}${r.single ? "?" : "[]"} @relation(${str(r.name)})`)
  }
  const blocks: string[] = []
  if (!singleKey) blocks.push(`  @@id([${table.primaryKey.columns.map(keyOf).join(", ")}]${keyMap ? `, ${keyMap}` : ""})`)
  for (const index of table.indexes) {
    blocks.push(`  @@${index.unique ? "unique" : "index"}([${index.columns.map(keyOf).join(", ")}], map: ${str(index.name)})`)
  }
  blocks.push(`  @@map(${str(table.name)})`)
  const note = table.model ? `/// Plugin model "${table.key}".\n` : ""
  return `${note}model ${modelName(table)} {\n${lines.join("\n")}\n\n${blocks.join("\n")}\n}`
}

/** The models for `dialect`'s `tables` (from `schemaTables`). */
export function prismaSchema(dialect: SchemaDialect, tables: readonly TableShape[]): string {
  const names = new Set<string>()
  for (const table of tables) {
    const name = modelName(table)
    if (names.has(name)) throw usageError(`--format prisma: two tables would be Prisma model ${name}; rename the plugin's model.`)
    names.add(name)
  }
  const relations = relationsOf(tables)
  const header = [
    `// Sesame's tables as Prisma models, as \`sesame migrate --adapter ${dialect}\` makes them (printed by`,
    `// \`sesame schema --format prisma --adapter ${dialect}\`). Add them to your schema, beside your`,
    `// generator and datasource (provider "${{ pg: "postgresql", mysql: "mysql", sqlite: "sqlite" }[dialect]}"); \`sesame migrate\`, not`,
    `// Prisma Migrate, creates and upgrades these tables.`,
  ]
  return `${header.join("\n")}\n\n${tables.map((t) => modelCode(dialect, t, relations)).join("\n\n")}\n`
}
