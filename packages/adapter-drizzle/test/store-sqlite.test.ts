import { sqliteTables } from "@sesame/adapter-drizzle/sqlite"
import Database from "better-sqlite3"
import { drizzle } from "drizzle-orm/better-sqlite3"
import { renamedTables } from "../../sql-common/test/shared/tables.js"
import { sqliteCreateSql } from "./create-tables.js"
import { sqliteFile } from "./services.js"
import { storeSuite } from "./store-suite.js"

const connection = new Database(sqliteFile())
connection.pragma("journal_mode = WAL")
const sesame = sqliteTables({ names: renamedTables })

storeSuite({
  name: "SQLite (better-sqlite3)",
  db: drizzle(connection),
  sesame,
  async create() {
    for (const statement of await sqliteCreateSql(sesame)) connection.exec(statement)
  },
  close: async () => void connection.close(),
})
