import { describe, expect, it } from "vitest"
import { identifier, readDate, readFactors, tableNames, toAccount, toAuthenticator, toSession, writeFactors } from "@sesame/sql-common"

describe("readDate", () => {
  it("reads milliseconds, Dates, 64-bit integer strings and UTC date-time strings", () => {
    const at = new Date("2025-06-07T08:09:10.123Z")
    expect(readDate(at.getTime())?.toISOString()).toBe(at.toISOString())
    expect(readDate(BigInt(at.getTime()))?.toISOString()).toBe(at.toISOString())
    expect(readDate(String(at.getTime()))?.toISOString()).toBe(at.toISOString())
    expect(readDate(new Date(at))?.toISOString()).toBe(at.toISOString())
    expect(readDate("2025-06-07 08:09:10.123")?.toISOString()).toBe(at.toISOString())
    expect(readDate("2025-06-07 08:09:10.123000")?.toISOString()).toBe(at.toISOString())
    expect(readDate("2025-06-07 08:09:10")?.toISOString()).toBe("2025-06-07T08:09:10.000Z")
    expect(readDate(null)).toBeNull()
    expect(readDate(undefined)).toBeNull()
  })

  it("copies a Date rather than sharing it, and refuses what is not a date", () => {
    const at = new Date()
    expect(readDate(at)).not.toBe(at)
    expect(() => readDate("yesterday")).toThrow(TypeError)
    expect(() => readDate({})).toThrow(TypeError)
  })
})

describe("rows", () => {
  it("maps 64-bit integers to numbers, 0/1 to booleans, and drops absent optional fields", () => {
    expect(toAccount({ id: "x", userId: "u", type: "oauth", provider: "p", providerAccountId: "a", expires_at: "1700000000", scope: null })).toEqual({
      userId: "u",
      type: "oauth",
      provider: "p",
      providerAccountId: "a",
      expires_at: 1700000000,
    })
    const authenticator = toAuthenticator({ credentialID: "c", userId: "u", providerAccountId: "a", credentialPublicKey: "k", counter: "7", credentialDeviceType: "d", credentialBackedUp: 1, transports: null, name: null, createdAt: null })
    expect(authenticator).toEqual({ credentialID: "c", userId: "u", providerAccountId: "a", credentialPublicKey: "k", counter: 7, credentialDeviceType: "d", credentialBackedUp: true, transports: null })
    expect(toAuthenticator({ ...authenticator, credentialBackedUp: 0 }).credentialBackedUp).toBe(false)
    expect(toSession({ sessionToken: "t", userId: "u", expires: 0, createdAt: null, lastUsedAt: null, userAgent: null, factors: null })).toEqual({ sessionToken: "t", userId: "u", expires: new Date(0) })
  })

  it("stores a session's factors as comma-separated text and reads them back as a list", () => {
    expect(writeFactors(["password", "totp"])).toBe("password,totp")
    expect(writeFactors(["webauthn"])).toBe("webauthn")
    expect(writeFactors([])).toBe("")
    expect(writeFactors(null)).toBeNull()
    expect(writeFactors(undefined)).toBeNull()
    expect(readFactors("password,totp")).toEqual(["password", "totp"])
    expect(readFactors("")).toEqual([])
    expect(readFactors(null)).toBeNull()
    expect(readFactors(undefined)).toBeNull()
    expect(toSession({ sessionToken: "t", userId: "u", expires: 0, factors: "password,remembered-device" })).toEqual({
      sessionToken: "t",
      userId: "u",
      expires: new Date(0),
      factors: ["password", "remembered-device"],
    })
  })
})

describe("table names", () => {
  it("defaults, overrides, and refuses anything but a short plain identifier", () => {
    expect(tableNames().verificationTokens).toBe("sesame_verificationTokens")
    expect(tableNames()).toMatchObject({ twoFactors: "sesame_two_factors", recoveryCodes: "sesame_recovery_codes" })
    expect(() => tableNames({ recoveryCodes: "codes; --" })).toThrow(/tables\.recoveryCodes/)
    expect(tableNames({ sessions: "app_sessions" }).sessions).toBe("app_sessions")
    for (const bad of ["", "1users", "a-b", "a b", `x"y`, "x;y", "users`", "é"]) expect(() => tableNames({ users: bad })).toThrow(TypeError)
    expect(() => tableNames({ users: "a".repeat(49) })).toThrow(/at most 48/)
    expect(tableNames({ users: "a".repeat(49) }, 63).users).toHaveLength(49)
    expect(() => identifier("migrationsTable", "ok_name", 48)).not.toThrow()
  })
})
