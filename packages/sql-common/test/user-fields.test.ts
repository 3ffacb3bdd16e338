/**
 * The app's user fields as the SQL adapters write and read them (`userTable`): the declared
 * columns only, encoded and decoded by type per dialect; and the user fields' model in the DDL of
 * declared models, which maps it onto the adapter's users table rather than make one.
 */
import { describe, expect, it } from "vitest"
import { userModel, type ModelDeclaration } from "@sesame/core/adapters"
import { byReferences, modelSchemaText, modelTableStatements, tableOf, userFieldColumns, userTable } from "@sesame/sql-common"

const model = userModel({
  role: { type: "string", default: "member", index: true },
  seats: { type: "integer", default: 1 },
  beta: { type: "boolean", default: false },
  trialEnds: { type: "date", optional: true, column: "trial_ends" },
  prefs: { type: "json", optional: true },
})
const at = new Date("2025-06-07T08:09:10.123Z")

describe("userTable", () => {
  it("inserts the spec's columns and the declared fields a user gives, by column, encoded as the store does on each dialect; nothing else", () => {
    const user = { id: "u1", email: "a@example.com", role: "admin", beta: true, trialEnds: at, prefs: { a: [1] }, undeclared: "x", trial_ends: 0 }
    const spec = { id: "u1", name: null, email: "a@example.com", emailVerified: null, image: null }
    expect(userTable("pg", model).insertValues(user)).toEqual({ ...spec, role: "admin", beta: true, trial_ends: at, prefs: `{"a":[1]}` })
    expect(userTable("mysql", model).insertValues(user)).toEqual({ ...spec, role: "admin", beta: 1, trial_ends: "2025-06-07 08:09:10.123", prefs: `{"a":[1]}` })
    expect(userTable("sqlite", model).insertValues(user)).toEqual({ ...spec, role: "admin", beta: 1, trial_ends: at.getTime(), prefs: `{"a":[1]}` })
    const cleared = { ...user, trialEnds: null }
    expect(userTable("sqlite", model).insertValues(cleared)).toMatchObject({ trial_ends: null })
    expect(userTable("pg", model).insertValues({ email: "b@example.com" }).id).toMatch(/^[0-9a-f-]{36}$/)
  })

  it("sets the spec's columns and the declared ones an update gives, never a key that is not declared", () => {
    const users = userTable("pg", model)
    expect(users.updateColumns).toEqual(["name", "email", "emailVerified", "image", "role", "seats", "beta", "trial_ends", "prefs"])
    expect(users.updateValues({ id: "u1", name: "Ada", seats: 2, trial_ends: 5, undeclared: "x" })).toEqual({
      name: "Ada",
      email: undefined,
      emailVerified: undefined,
      image: undefined,
      seats: 2,
    })
  })

  it("refuses a value of the wrong type", () => {
    expect(() => userTable("pg", model).insertValues({ email: "a@example.com", seats: "2" } as never)).toThrow(TypeError)
  })

  it("reads a row's declared columns typed as declared, and a joined row's by their aliases", () => {
    const users = userTable("sqlite", model)
    const row = { id: "u1", name: null, email: "a@example.com", emailVerified: null, image: null, role: "admin", seats: "3", beta: 1, trial_ends: at.getTime(), prefs: `{"a":1}`, other: "x" }
    const fields = { role: "admin", seats: 3, beta: true, trialEnds: at, prefs: { a: 1 } }
    expect(users.toUser(row)).toEqual({ id: "u1", name: null, email: "a@example.com", emailVerified: null, image: null, ...fields })
    const joined = { u_id: "u1", u_name: null, u_email: "a@example.com", u_emailVerified: null, u_image: null, u_f0: "admin", u_f1: 3, u_f2: 1, u_f3: at.getTime(), u_f4: null }
    expect(users.toJoinedUser(joined)).toEqual({ id: "u1", name: null, email: "a@example.com", emailVerified: null, image: null, ...fields, prefs: null })
    expect(users.joinedColumns).toBe(
      `u."id" AS "u_id", u."name" AS "u_name", u."email" AS "u_email", u."emailVerified" AS "u_emailVerified", u."image" AS "u_image", ` +
        `u."role" AS "u_f0", u."seats" AS "u_f1", u."beta" AS "u_f2", u."trial_ends" AS "u_f3", u."prefs" AS "u_f4"`,
    )
  })

  it("without a model, is the spec's users table", () => {
    const users = userTable("mysql")
    expect(users.fields).toEqual([])
    expect(users.insertValues({ id: "u1", email: "a@example.com", role: "admin" } as never)).toEqual({ id: "u1", name: null, email: "a@example.com", emailVerified: null, image: null })
    expect(users.toUser({ id: "u1", email: "a@example.com", role: "admin" })).toEqual({ id: "u1", name: null, email: "a@example.com", emailVerified: null, image: null })
  })

  it("refuses a model that is not the user fields', and a field stored in one of the spec's columns", () => {
    const plain: ModelDeclaration = { name: "profile", table: "profiles", primaryKey: "id", fields: { id: { type: "string" } } }
    expect(() => userTable("pg", plain)).toThrow(/not the user fields' model/)
    expect(() => userFieldColumns(userModel({ mail: { type: "string", optional: true, column: "Email" } }))).toThrow(/column "Email" is one of the users table's own/)
  })
})

describe("the user fields' model in the DDL", () => {
  it("is the adapter's users table: `tables.users`, else the default", () => {
    expect(tableOf(model, undefined)).toBe("sesame_users")
    expect(tableOf(model, { users: "app_users" })).toBe("app_users")
  })

  it("adds its columns and indexes to the users table rather than make one", () => {
    expect(modelTableStatements("pg", model, { tables: { users: "app_users" }, usersTable: "app_users" })).toEqual([
      `ALTER TABLE "app_users" ADD COLUMN "role" TEXT NOT NULL DEFAULT 'member'`,
      `ALTER TABLE "app_users" ADD COLUMN "seats" BIGINT NOT NULL DEFAULT 1`,
      `ALTER TABLE "app_users" ADD COLUMN "beta" BOOLEAN NOT NULL DEFAULT FALSE`,
      `ALTER TABLE "app_users" ADD COLUMN "trial_ends" TIMESTAMPTZ(3)`,
      `ALTER TABLE "app_users" ADD COLUMN "prefs" TEXT`,
      `CREATE INDEX "app_users_role_idx" ON "app_users" ("role")`,
    ])
    const other: ModelDeclaration = { name: "note", table: "notes", primaryKey: "id", fields: { id: { type: "string" }, userId: { type: "string", references: { model: "user" } } } }
    expect(byReferences([other, model])).toEqual([other, model])
    expect(modelSchemaText("sqlite", [model, other], { usersTable: "sesame_users" })).toContain(`ALTER TABLE "sesame_users" ADD COLUMN "role" TEXT NOT NULL DEFAULT 'member'`)
  })
})
