/** The audit trail on Kysely, on each dialect: its `migrate` makes Sesame's tables and the plugin's. */
import KyselyAdapter, { migrate } from "@sesame/adapter-kysely"
import { afterAll } from "vitest"
import { dialects } from "../../../packages/adapter-kysely/test/dialects.js"
import { auditTrailTests } from "./suite.js"

for (const { name, open } of dialects) {
  const run = await open()
  const db = run.kysely()
  await migrate(db)
  auditTrailTests(`Kysely on ${name} (@sesame/adapter-kysely)`, KyselyAdapter(db), (models) => migrate(db, { models }))
  afterAll(() => run.close())
}
