import { describe, expect, it } from "vitest"
import { incrementCounterSql, setPasswordSql, setTwoFactorSql, type UpsertDialect } from "@sesame/sql-common"

const postgres: UpsertDialect = { quote: (name) => `"${name}"`, placeholder: (position) => `$${position}`, returning: true, upsert: "on-conflict" }
const mysql: UpsertDialect = { quote: (name) => `\`${name}\``, placeholder: () => "?", returning: false, upsert: "on-duplicate-key" }
const sqlite: UpsertDialect = { ...postgres, placeholder: () => "?", toParameter: (v) => (v instanceof Date ? v.getTime() : v) }

const now = new Date("2025-01-02T03:04:05.678Z")
const expires = new Date("2025-01-02T03:19:05.678Z")

describe("setPasswordSql", () => {
  const password = { userId: "u1", hash: "$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA", updatedAt: now }

  it("writes PostgreSQL's ON CONFLICT upsert with the incoming row as excluded", () => {
    expect(setPasswordSql(postgres, "sesame_passwords", password)).toEqual({
      sql: `INSERT INTO "sesame_passwords" ("userId", "hash", "updatedAt") VALUES ($1, $2, $3) ON CONFLICT ("userId") DO UPDATE SET "hash" = excluded."hash", "updatedAt" = excluded."updatedAt" RETURNING *`,
      params: ["u1", password.hash, now],
    })
  })

  it("writes MySQL's ON DUPLICATE KEY UPDATE with VALUES(), without RETURNING", () => {
    expect(setPasswordSql(mysql, "sesame_passwords", password)).toEqual({
      sql: "INSERT INTO `sesame_passwords` (`userId`, `hash`, `updatedAt`) VALUES (?, ?, ?) ON DUPLICATE KEY UPDATE `hash` = VALUES(`hash`), `updatedAt` = VALUES(`updatedAt`)",
      params: ["u1", password.hash, now],
    })
  })

  it("passes the date through SQLite's toParameter", () => {
    expect(setPasswordSql(sqlite, "sesame_passwords", password).params).toEqual(["u1", password.hash, now.getTime()])
  })
})

describe("setTwoFactorSql", () => {
  const twoFactor = { userId: "u1", method: "email" as const, secret: null, enabledAt: now, devicesRevokedAt: null }

  it("replaces every field of a stored factor, so that nulls overwrite earlier values", () => {
    expect(setTwoFactorSql(postgres, "sesame_two_factors", twoFactor)).toEqual({
      sql:
        `INSERT INTO "sesame_two_factors" ("userId", "method", "secret", "enabledAt", "devicesRevokedAt") VALUES ($1, $2, $3, $4, $5) ON CONFLICT ("userId") DO UPDATE SET ` +
        `"method" = excluded."method", "secret" = excluded."secret", "enabledAt" = excluded."enabledAt", "devicesRevokedAt" = excluded."devicesRevokedAt" RETURNING *`,
      params: ["u1", "email", null, now, null],
    })
  })

  it("writes MySQL's ON DUPLICATE KEY UPDATE, and SQLite's dates as milliseconds", () => {
    const revoked = { ...twoFactor, method: "totp" as const, secret: "eyJ.x.y", devicesRevokedAt: expires }
    expect(setTwoFactorSql(mysql, "t", revoked)).toEqual({
      sql:
        "INSERT INTO `t` (`userId`, `method`, `secret`, `enabledAt`, `devicesRevokedAt`) VALUES (?, ?, ?, ?, ?) ON DUPLICATE KEY UPDATE " +
        "`method` = VALUES(`method`), `secret` = VALUES(`secret`), `enabledAt` = VALUES(`enabledAt`), `devicesRevokedAt` = VALUES(`devicesRevokedAt`)",
      params: ["u1", "totp", "eyJ.x.y", now, expires],
    })
    expect(setTwoFactorSql(sqlite, "t", revoked).params).toEqual(["u1", "totp", "eyJ.x.y", now.getTime(), expires.getTime()])
    expect(setTwoFactorSql(sqlite, "t", twoFactor).params).toEqual(["u1", "email", null, now.getTime(), null])
  })
})

describe("incrementCounterSql", () => {
  it("restarts an expired counter and counts a live one in the one statement, reading the stored row", () => {
    expect(incrementCounterSql(postgres, "sesame_counters", "password:ip:1", expires, now)).toEqual({
      sql:
        `INSERT INTO "sesame_counters" ("key", "count", "expires") VALUES ($1, 1, $2) ON CONFLICT ("key") DO UPDATE SET ` +
        `"count" = CASE WHEN "sesame_counters"."expires" <= $3 THEN 1 ELSE "sesame_counters"."count" + 1 END, "expires" = excluded."expires" RETURNING *`,
      params: ["password:ip:1", expires, now],
    })
  })

  it("assigns MySQL's count before its expires, which the count's test must see unchanged", () => {
    const { sql, params } = incrementCounterSql(mysql, "sesame_counters", "k", expires, now)
    expect(sql).toBe(
      "INSERT INTO `sesame_counters` (`key`, `count`, `expires`) VALUES (?, 1, ?) ON DUPLICATE KEY UPDATE " +
        "`count` = CASE WHEN `sesame_counters`.`expires` <= ? THEN 1 ELSE `sesame_counters`.`count` + 1 END, `expires` = VALUES(`expires`)",
    )
    expect(params).toEqual(["k", expires, now])
  })

  it("gives SQLite's dates as milliseconds", () => {
    expect(incrementCounterSql(sqlite, "c", "k", expires, now).params).toEqual(["k", expires.getTime(), now.getTime()])
  })
})
