import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import Database from "better-sqlite3"
import { runAdapterTests } from "@sesame/adapter-test"
import SqliteAdapter from "@sesame/adapter-sqlite"
import { rawReader } from "./raw-reader.js"
import { renamedTables } from "../../sql-common/test/shared/tables.js"

const file = join(mkdtempSync(join(tmpdir(), "sesame-sqlite-")), "auth.db")
const adapter = SqliteAdapter(file)
// A second connection reads what the adapter wrote, as another process would.
const reader = new Database(file, { readonly: true })

runAdapterTests({
  name: "SqliteAdapter (file)",
  adapter,
  db: rawReader(reader, {}, () => reader.close()),
})

const memory = new Database(":memory:")

runAdapterTests({
  name: "SqliteAdapter (:memory:, renamed tables)",
  adapter: SqliteAdapter(memory, { tables: renamedTables }),
  db: rawReader(memory, renamedTables),
})
