/**
 * The conformance suite on one dialect, twice on one place: with the default table names, and with
 * every table renamed (and its own migrations table) beside them. `migrate` makes the tables; the
 * dialect's own adapter's reader checks every write.
 */
import KyselyAdapter, { migrate } from "@sesame/adapter-kysely"
import { runAdapterTests } from "@sesame/adapter-test"
import { renamedTables } from "../../sql-common/test/shared/tables.js"
import type { DialectRun } from "./dialects.js"

export function conformance(run: DialectRun, driver: string): void {
  const db = run.kysely()
  runAdapterTests({
    name: `KyselyAdapter on ${run.name} (${driver})`,
    adapter: KyselyAdapter(db),
    db: {
      ...run.raw(),
      async connect() {
        await migrate(db)
      },
    },
  })
  runAdapterTests({
    name: `KyselyAdapter on ${run.name} (${driver}, renamed tables)`,
    adapter: KyselyAdapter(db, { tables: renamedTables }),
    db: {
      ...run.raw(renamedTables),
      async connect() {
        await migrate(db, { tables: renamedTables, migrationsTable: "app_migrations" })
      },
      disconnect: () => run.close(),
    },
  })
}
