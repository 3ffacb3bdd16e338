/**
 * What a database already has, read from its catalogue: a table's columns and the names of its
 * indexes (an empty column list: no such table). PostgreSQL looks in the connection's current
 * schema (the first of its `search_path`), MySQL in the connection's database, SQLite in `main`.
 *
 * @module
 */
import type { SqlDialect, SqlRunner } from "./types.js"

const columnsSql: Record<SqlDialect, string> = {
  pg: `SELECT "column_name" AS "name" FROM information_schema.columns WHERE "table_schema" = current_schema() AND "table_name" = $1`,
  mysql: "SELECT `COLUMN_NAME` AS `name` FROM information_schema.COLUMNS WHERE `TABLE_SCHEMA` = DATABASE() AND `TABLE_NAME` = ?",
  sqlite: `SELECT "name" FROM pragma_table_info(?)`,
}

const indexesSql: Record<SqlDialect, string> = {
  pg: `SELECT "indexname" AS "name" FROM pg_indexes WHERE "schemaname" = current_schema() AND "tablename" = $1`,
  mysql: "SELECT DISTINCT `INDEX_NAME` AS `name` FROM information_schema.STATISTICS WHERE `TABLE_SCHEMA` = DATABASE() AND `TABLE_NAME` = ?",
  sqlite: `SELECT "name" FROM pragma_index_list(?)`,
}

/**
 * Names as the dialect compares them: PostgreSQL's quoted names are case-sensitive, MySQL's
 * column and index names and SQLite's are not.
 */
export function nameKey(dialect: SqlDialect, name: string): string {
  return dialect === "pg" ? name : name.toLowerCase()
}

async function names(dialect: SqlDialect, runner: SqlRunner, sql: string, table: string): Promise<Set<string>> {
  const { rows } = await runner.run(sql, [table])
  return new Set(rows.map((row) => nameKey(dialect, String(row.name))))
}

/** The columns of `table` (keyed by {@link nameKey}); empty when there is no such table. */
export function columnsOf(dialect: SqlDialect, runner: SqlRunner, table: string): Promise<Set<string>> {
  return names(dialect, runner, columnsSql[dialect], table)
}

/** The names of the indexes of `table` (keyed by {@link nameKey}). */
export function indexesOf(dialect: SqlDialect, runner: SqlRunner, table: string): Promise<Set<string>> {
  return names(dialect, runner, indexesSql[dialect], table)
}
