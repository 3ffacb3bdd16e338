import { describe, expect, it } from "vitest"
import { insertRecoveryCodesSql, type UpdateDialect } from "@sesame/sql-common"

const postgres: UpdateDialect = { quote: (name) => `"${name}"`, placeholder: (position) => `$${position}`, returning: true }
const mysql: UpdateDialect = { quote: (name) => `\`${name}\``, placeholder: () => "?", returning: false }

const [a, b] = ["a".repeat(64), "b".repeat(64)]

describe("insertRecoveryCodesSql", () => {
  it("inserts one row a hash, numbering PostgreSQL's placeholders across the rows", () => {
    expect(insertRecoveryCodesSql(postgres, "sesame_recovery_codes", "u1", [a, b])).toEqual({
      sql: `INSERT INTO "sesame_recovery_codes" ("userId", "hash") VALUES ($1, $2), ($3, $4)`,
      params: ["u1", a, "u1", b],
    })
    expect(insertRecoveryCodesSql(mysql, "codes", "u1", [a])).toEqual({ sql: "INSERT INTO `codes` (`userId`, `hash`) VALUES (?, ?)", params: ["u1", a] })
  })

  it("lists a hash given twice once (the primary key would refuse it), and has nothing to insert for none", () => {
    expect(insertRecoveryCodesSql(mysql, "codes", "u1", [a, b, a])?.params).toEqual(["u1", a, "u1", b])
    expect(insertRecoveryCodesSql(postgres, "codes", "u1", [])).toBeNull()
  })
})
