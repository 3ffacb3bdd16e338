/**
 * The new-password policy: lengths in code points after NFKC, context words, the breach check,
 * and the options' limits.
 */
import { describe, expect, it } from "vitest"
import type { BreachChecker } from "../../src/password/breach.js"
import { checkNewPassword, normalizePassword, passwordPolicy } from "../../src/password/policy.js"

const policy = passwordPolicy()

describe("checkNewPassword()", () => {
  it("accepts 8 to 256 characters, with no composition rule, and returns the normalised password", async () => {
    expect(await checkNewPassword("abcdefgh", policy)).toEqual({ ok: true, password: "abcdefgh" })
    expect(await checkNewPassword("all lower case words", policy)).toEqual({ ok: true, password: "all lower case words" })
    expect(await checkNewPassword("x".repeat(256), policy)).toEqual({ ok: true, password: "x".repeat(256) })
    expect(await checkNewPassword("abcdefg", policy)).toEqual({ ok: false, reason: "too-short" })
    expect(await checkNewPassword("", policy)).toEqual({ ok: false, reason: "too-short" })
    expect(await checkNewPassword("x".repeat(257), policy)).toEqual({ ok: false, reason: "too-long" })
    expect(await checkNewPassword("x".repeat(5_000_000), policy)).toEqual({ ok: false, reason: "too-long" })
  })

  it("counts code points, not UTF-16 units: 8 emoji are 8 characters, 7 are too few", async () => {
    expect(await checkNewPassword("🔑".repeat(8), policy)).toMatchObject({ ok: true })
    expect("🔑".repeat(7).length).toBe(14)
    expect(await checkNewPassword("🔑".repeat(7), policy)).toEqual({ ok: false, reason: "too-short" })
    expect(await checkNewPassword("🔑".repeat(256), policy)).toMatchObject({ ok: true })
    expect(await checkNewPassword("🔑".repeat(257), policy)).toEqual({ ok: false, reason: "too-long" })
  })

  it("normalises to NFKC before counting and returns that form, so both spellings of a password hash alike", async () => {
    const composed = "caf\u00e9 cr\u00e8me"
    const decomposed = "cafe\u0301 cre\u0300me"
    expect(decomposed.length).toBe(composed.length + 2)
    expect(await checkNewPassword(decomposed, policy)).toEqual({ ok: true, password: composed })
    expect(normalizePassword(decomposed)).toBe(composed)
    // Full-width letters and a ligature become their plain forms.
    expect(normalizePassword("ｐａｓｓ\ufb01x")).toBe("passfix")
    // Seven code points once composed ("ᾄ" is α and three marks): too short, though 10 were typed.
    expect(await checkNewPassword("\u03b1\u0313\u0301\u0345abcdef", policy)).toEqual({ ok: false, reason: "too-short" })
    // A string that composes below the maximum is not refused by the early bound.
    expect(await checkNewPassword("e\u0301".repeat(256), policy)).toEqual({ ok: true, password: "\u00e9".repeat(256) })
  })

  it("refuses the email address, its local part and the app's name, without regard to case, punctuation or spaces", async () => {
    const context = { email: "Ada.Lovelace@example.com", appName: "Analytical Engine" }
    for (const password of ["ada.lovelace@example.com", "ADA.LOVELACE@EXAMPLE.COM", "Ada.Lovelace", "adalovelace", "analytical engine", "Analytical-Engine!"]) {
      expect(await checkNewPassword(password, policy, context), password).toEqual({ ok: false, reason: "matches-context" })
    }
    expect(await checkNewPassword("ada.lovelace 1815", policy, context)).toMatchObject({ ok: true })
    expect(await checkNewPassword("example.com", policy, context)).toMatchObject({ ok: true })
    expect(await checkNewPassword("adalovelace", policy, { email: null, appName: "" })).toMatchObject({ ok: true })
  })

  it("asks the breach checker last, with the normalised password and the logger (not the address), and refuses what it reports", async () => {
    const asked: unknown[][] = []
    const breached: BreachChecker = async (password, context) => (asked.push([password, context]), password === "password1")
    const withCheck = passwordPolicy({ breached })
    const logger = { error: () => {} }
    const context = { email: "ada@example.com", logger }
    expect(await checkNewPassword("password1", withCheck, context)).toEqual({ ok: false, reason: "breached" })
    expect(await checkNewPassword("ｐａｓｓｗｏｒｄ１", withCheck, context)).toEqual({ ok: false, reason: "breached" })
    expect(await checkNewPassword("a rarer passphrase", withCheck, context)).toMatchObject({ ok: true })
    expect(await checkNewPassword("short", withCheck, context)).toEqual({ ok: false, reason: "too-short" })
    expect(await checkNewPassword("ada@example.com", withCheck, context)).toEqual({ ok: false, reason: "matches-context" })
    expect(asked).toEqual([
      ["password1", { logger }],
      ["password1", { logger }],
      ["a rarer passphrase", { logger }],
    ])
  })
})

describe("passwordPolicy()", () => {
  it("has NIST's defaults and no breach check unless given one", () => {
    expect(policy).toEqual({ minLength: 8, maxLength: 256, breached: false })
    expect(passwordPolicy({ minLength: 15, maxLength: 64 })).toEqual({ minLength: 15, maxLength: 64, breached: false })
  })

  it("refuses a minimum under 8 and a maximum under 64 or under the minimum, naming the option", () => {
    expect(() => passwordPolicy({ minLength: 6 })).toThrow(new TypeError('password policy: "minLength" must be an integer of at least 8 (NIST SP 800-63B), got 6'))
    expect(() => passwordPolicy({ minLength: 8.5 })).toThrow(TypeError)
    expect(() => passwordPolicy({ maxLength: 32 })).toThrow(/"maxLength" must be an integer of at least 64/)
    expect(() => passwordPolicy({ minLength: 100, maxLength: 80 })).toThrow(/at least "minLength"/)
  })
})
