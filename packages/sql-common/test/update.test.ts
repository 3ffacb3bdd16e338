import { describe, expect, it } from "vitest"
import { updateSql, type UpdateDialect } from "@sesame/sql-common"

const postgres: UpdateDialect = { quote: (name) => `"${name}"`, placeholder: (position) => `$${position}`, returning: true }
const mysql: UpdateDialect = { quote: (name) => `\`${name}\``, placeholder: () => "?", returning: false }
const sqlite: UpdateDialect = { ...mysql, quote: (name) => `"${name}"`, returning: true, toParameter: (v) => (v instanceof Date ? v.getTime() : v) }

describe("updateSql", () => {
  const columns = ["name", "email", "emailVerified", "image"]
  const verified = new Date("2025-01-02T03:04:05.678Z")

  it("sets only the columns given, numbering PostgreSQL's placeholders past the SET ones for the WHERE", () => {
    expect(updateSql(postgres, "sesame_accounts", columns, { id: "u", email: "a@example.com", image: null, name: undefined }, ["provider", "providerAccountId"])).toEqual({
      sql: `UPDATE "sesame_accounts" SET "email" = $1, "image" = $2 WHERE "provider" = $3 AND "providerAccountId" = $4 RETURNING *`,
      params: ["a@example.com", null],
    })
  })

  it("writes MySQL's quoting, without RETURNING", () => {
    expect(updateSql(mysql, "sesame_users", columns, { name: "A", emailVerified: verified }, ["id"])).toEqual({
      sql: "UPDATE `sesame_users` SET `name` = ?, `emailVerified` = ? WHERE `id` = ?",
      params: ["A", verified],
    })
  })

  it("passes values through the dialect's toParameter (SQLite's dates as milliseconds)", () => {
    expect(updateSql(sqlite, "sesame_users", columns, { emailVerified: verified }, ["id"])).toEqual({
      sql: `UPDATE "sesame_users" SET "emailVerified" = ? WHERE "id" = ? RETURNING *`,
      params: [verified.getTime()],
    })
  })

  it("is null when nothing is to be set", () => {
    expect(updateSql(postgres, "sesame_users", columns, { id: "u", name: undefined }, ["id"])).toBeNull()
  })
})
