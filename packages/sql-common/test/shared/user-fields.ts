/**
 * The migration of the app's user fields, the same on every SQL adapter: `migrate` with the user
 * fields' model (`userModel`) adds its columns to a users table that already has rows (a required
 * field's default filling them), finds nothing to do the second time, completes the adapter's
 * users table when it is renamed, and refuses when the users table it names does not exist.
 */
import { userModel, type Adapter, type AdapterUser } from "@sesame/core/adapters"
import type { SqlMigrateOptions, SqlMigrationResult } from "@sesame/sql-common"
import { expect, it } from "vitest"
import { renamedTables } from "./tables.js"

export interface UserFieldsMigrationPlace {
  /** The dialect's `migrate` on a database of the tests' own, empty before the first call. */
  migrate(options?: SqlMigrateOptions): Promise<SqlMigrationResult>
  /** The dialect's adapter on that database. */
  adapter(options?: Pick<SqlMigrateOptions, "tables">): Adapter
}

const model = userModel({ role: { type: "string", default: "member" } })
const newUser = (): AdapterUser => ({ id: crypto.randomUUID(), email: `${crypto.randomUUID().slice(0, 8)}@example.com`, emailVerified: null })

/** Registers the tests (in the order they must run: the database is shared). */
export function checkUserFieldsMigration(place: UserFieldsMigrationPlace): void {
  it("adds the fields' columns to a users table that has rows, filled from the defaults; the second run does nothing", async () => {
    await place.migrate()
    const plain = place.adapter()
    const existing = await plain.createUser!(newUser())
    expect(await place.migrate({ models: [model] })).toMatchObject({ applied: [], models: { created: [], altered: ["sesame_users"] } })
    const bound = plain.withUserFields!(model)
    expect(await bound.getUser!(existing.id)).toMatchObject({ id: existing.id, role: "member" })
    expect(await place.migrate({ models: [model] })).toMatchObject({ applied: [], models: { created: [], altered: [] } })
  })

  it("completes the adapter's users table under its own name (`tables.users`)", async () => {
    const options = { tables: renamedTables, migrationsTable: "app_migrations" }
    await place.migrate(options)
    expect(await place.migrate({ ...options, models: [model] })).toMatchObject({ models: { created: [], altered: [renamedTables.users] } })
    const bound = place.adapter({ tables: renamedTables }).withUserFields!(model)
    const user = newUser()
    expect(await bound.createUser!({ ...user, role: "admin" } as AdapterUser)).toMatchObject({ id: user.id, role: "admin" })
    expect(await bound.getUserByEmail!(user.email)).toMatchObject({ id: user.id, role: "admin" })
  })

  it("refuses when the users table does not exist", async () => {
    await place.migrate()
    // The numbered migrations are applied (under the default migrations table), so nothing makes this one.
    const missing = { tables: { users: "missing_users" }, models: [model] }
    await expect(place.migrate(missing)).rejects.toThrow(/users table "missing_users" does not exist yet.*numbered migrations make it/)
  })
}
