/**
 * `sesame schema --format`: which printer makes the output. `sql` (the default) is the adapters'
 * own DDL; the others describe the same tables for an ORM or query builder, from one description
 * (`tables.ts`) of what `sesame migrate` makes.
 *
 * @module
 */
import type { ModelDeclaration } from "@sesame/core/adapters"
import { usageError } from "../errors.js"
import { drizzleSchema } from "./drizzle.js"
import { kyselySchema } from "./kysely.js"
import { prismaSchema } from "./prisma.js"
import { schemaTables, type SchemaDialect } from "./tables.js"

/** The values `--format` takes. */
export const schemaFormats = ["sql", "drizzle", "kysely", "prisma"] as const

export type SchemaFormat = (typeof schemaFormats)[number]

/** `--format`'s value, `sql` when absent; anything else is a usage error. */
export function schemaFormat(value: string | undefined): SchemaFormat {
  if (value === undefined) return "sql"
  if ((schemaFormats as readonly string[]).includes(value)) return value as SchemaFormat
  throw usageError(`Unknown format ${JSON.stringify(value)}: use ${schemaFormats.slice(0, -1).join(", ")} or ${schemaFormats.at(-1)}.`)
}

const printers = { drizzle: drizzleSchema, kysely: kyselySchema, prisma: prismaSchema }

/**
 * The tables of `dialect` (`--adapter`), renamed by `tables` and with the plugins' `models`, in
 * `format` (not `sql`, which the adapter prints). The caller has had the adapter's `schema()`
 * check the names and models first.
 */
export function printSchema(format: Exclude<SchemaFormat, "sql">, dialect: SchemaDialect, tables: Readonly<Record<string, string>>, models: readonly ModelDeclaration[]): string {
  return printers[format](dialect, schemaTables(dialect, tables, models))
}
