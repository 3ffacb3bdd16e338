/**
 * The upsert of the generic store's `increment`, as text: MySQL evaluates `ON DUPLICATE KEY
 * UPDATE`'s assignments in order, each seeing those before it, so every one that tests the stored
 * expiry must come before the expiry's own; `set`'s columns, which test nothing, come last.
 */
import { describe, expect, it } from "vitest"
import type { ModelDeclaration } from "@sesame/core/adapters"
import { incrementSql } from "../src/store/increment.js"

const counter: ModelDeclaration = {
  name: "attempts",
  table: "app_attempts",
  primaryKey: "key",
  expires: "expires",
  fields: { key: { type: "string" }, expires: { type: "date" }, count: { type: "integer", column: "n" }, scope: { type: "string", optional: true } },
}
const now = new Date("2025-01-02T03:04:05.678Z")
const expires = new Date("2025-01-02T03:19:05.678Z")
const row = { key: "k", expires, count: 2, scope: "s" }

describe("incrementSql", () => {
  it("restarts an expired row and adds to a live one in PostgreSQL's one statement, returning the row", () => {
    expect(incrementSql("pg", counter, "app_attempts", row, "count", { by: 2, set: [], now })).toEqual({
      sql:
        `INSERT INTO "app_attempts" ("key", "expires", "n", "scope") VALUES ($1, $2, $3, $4) ON CONFLICT ("key") DO UPDATE SET ` +
        `"n" = CASE WHEN "app_attempts"."expires" <= $5 THEN excluded."n" ELSE "app_attempts"."n" + $6 END, ` +
        `"scope" = CASE WHEN "app_attempts"."expires" <= $7 THEN excluded."scope" ELSE "app_attempts"."scope" END, ` +
        `"expires" = CASE WHEN "app_attempts"."expires" <= $8 THEN excluded."expires" ELSE "app_attempts"."expires" END RETURNING *`,
      params: ["k", expires, 2, "s", now, 2, now, now],
    })
  })

  it("assigns MySQL's expiry after every column that tests it, and `set`'s columns last", () => {
    const { sql, params } = incrementSql("mysql", counter, "app_attempts", row, "count", { by: 1, set: ["expires"], now })
    expect(sql).toBe(
      "INSERT INTO `app_attempts` (`key`, `expires`, `n`, `scope`) VALUES (?, ?, ?, ?) ON DUPLICATE KEY UPDATE " +
        "`n` = CASE WHEN `app_attempts`.`expires` <= ? THEN VALUES(`n`) ELSE `app_attempts`.`n` + ? END, " +
        "`scope` = CASE WHEN `app_attempts`.`expires` <= ? THEN VALUES(`scope`) ELSE `app_attempts`.`scope` END, " +
        "`expires` = VALUES(`expires`)",
    )
    expect(params).toEqual(["k", "2025-01-02 03:19:05.678", 2, "s", "2025-01-02 03:04:05.678", 1, "2025-01-02 03:04:05.678"])
  })

  it("only adds when the model has no expiry, and keys on every field of a composite key", () => {
    const votes: ModelDeclaration = { name: "votes", table: "votes", primaryKey: ["poll", "option"], fields: { poll: { type: "string" }, option: { type: "integer" }, n: { type: "integer" } } }
    expect(incrementSql("sqlite", votes, "votes", { poll: "p", option: 3, n: 1 }, "n", { by: 1, set: [], now }).sql).toBe(
      `INSERT INTO "votes" ("poll", "option", "n") VALUES (?, ?, ?) ON CONFLICT ("poll", "option") DO UPDATE SET "n" = "votes"."n" + ? RETURNING *`,
    )
  })
})
