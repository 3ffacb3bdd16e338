import { describe, expect, it } from "vitest"
import { isUniqueViolation } from "@sesame/sql-common"

describe("isUniqueViolation", () => {
  it("knows each driver's duplicate key", () => {
    expect(isUniqueViolation(Object.assign(new Error("duplicate key value violates unique constraint"), { code: "23505" }))).toBe(true)
    expect(isUniqueViolation(Object.assign(new Error("Duplicate entry 'x' for key 'PRIMARY'"), { code: "ER_DUP_ENTRY", errno: 1062 }))).toBe(true)
    expect(isUniqueViolation({ errno: 1062 })).toBe(true)
    expect(isUniqueViolation(Object.assign(new Error("UNIQUE constraint failed: t.id"), { code: "SQLITE_CONSTRAINT_PRIMARYKEY" }))).toBe(true)
    expect(isUniqueViolation(Object.assign(new Error("x"), { code: "SQLITE_CONSTRAINT_UNIQUE" }))).toBe(true)
    expect(isUniqueViolation(new Error("SQLITE_CONSTRAINT: UNIQUE constraint failed: notes.slug"))).toBe(true)
  })

  it("looks through the cause chain of a wrapping error, and stops at a loop", () => {
    const wrapped = new Error("Failed query", { cause: new Error("driver", { cause: Object.assign(new Error("dup"), { code: "23505" }) }) })
    expect(isUniqueViolation(wrapped)).toBe(true)
    const loop: { cause?: unknown } = {}
    loop.cause = loop
    expect(isUniqueViolation(loop)).toBe(false)
  })

  it("lets every other error through", () => {
    expect(isUniqueViolation(Object.assign(new Error("violates foreign key constraint"), { code: "23503" }))).toBe(false)
    expect(isUniqueViolation(Object.assign(new Error("FOREIGN KEY constraint failed"), { code: "SQLITE_CONSTRAINT_FOREIGNKEY" }))).toBe(false)
    expect(isUniqueViolation(Object.assign(new Error("Column cannot be null"), { code: "ER_BAD_NULL_ERROR", errno: 1048 }))).toBe(false)
    expect(isUniqueViolation(null)).toBe(false)
    expect(isUniqueViolation("23505")).toBe(false)
  })
})
