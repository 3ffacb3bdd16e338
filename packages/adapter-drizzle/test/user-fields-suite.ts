/**
 * The app's user fields on one dialect: the app's users table (renamed) with the suite's columns,
 * made by drizzle-kit from its Drizzle definition, then the conformance suite, and what is
 * Drizzle's own: a field without a column refused at `withUserFields`, the values in the columns
 * as the columns' kinds hold them (which the plain adapter, reading whole rows, shows), and the
 * published default tables left as they were.
 */
import { runUserFieldsTests, userFieldsTestModel } from "@sesame/adapter-test"
import { userModel, type AdapterUser } from "@sesame/core/adapters"
import { afterAll, describe, expect, it } from "vitest"
import { renamedTables } from "../../sql-common/test/shared/tables.js"
import type { DialectRun } from "./dialects.js"

/** What the columns test writes; each dialect's file says how the plain adapter reads it back (`stored`). */
export const writtenFields = { role: "admin", plan: "team", seats: 3, beta: true, trialEnds: new Date(1_700_000_000_123), prefs: { a: [1] }, bio: "b" }

export function userFieldsSuite(run: DialectRun, stored: Record<string, unknown>): void {
  const tables = run.userFieldsTables(renamedTables)
  const adapter = run.adapter({ tables })
  let created: Promise<void> | undefined
  const prepare = () => (created ??= run.create(tables))
  afterAll(() => run.close())

  runUserFieldsTests({ name: `DrizzleAdapter user fields on ${run.name}`, adapter, prepare })

  describe(`DrizzleAdapter user fields on ${run.name}, with Drizzle`, () => {
    const user = (): AdapterUser => ({ id: crypto.randomUUID(), email: `uf-${crypto.randomUUID().slice(0, 8)}@example.com`, emailVerified: null, name: null, image: null })

    it("refuses, at withUserFields, a field whose column the users table lacks, naming the field and the column", () => {
      const model = userModel({ nickname: { type: "string", optional: true, column: "nick_name" } })
      expect(() => adapter.withUserFields!(model)).toThrow(/"nickname".*"nick_name".*"app_users"/)
      // The published default users table has none of the app's columns.
      expect(() => run.adapter().withUserFields!(userFieldsTestModel)).toThrow(/"role".*"role"/)
    })

    it("writes each field as its column's kind holds it", async () => {
      await prepare()
      const ada = user()
      await adapter.withUserFields!(userFieldsTestModel).createUser!({ ...ada, ...writtenFields } as AdapterUser)
      expect(await adapter.getUser!(ada.id)).toEqual({ ...ada, ...stored })
    })
  })
}
