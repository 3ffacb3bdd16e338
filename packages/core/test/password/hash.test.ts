/**
 * Password hashing with the real `@node-rs/argon2`, and hashes imported from bcrypt (made with the
 * real `bcryptjs`) upgraded to Argon2id.
 */
import { readFileSync } from "node:fs"
import { join, relative } from "node:path"
import bcrypt from "bcryptjs"
import { describe, expect, it, vi } from "vitest"
import { argon2id, dummyVerify, type PasswordHasher } from "../../src/password/hash.js"
import { withLegacyHashes, type LegacyHashFormat } from "../../src/password/legacy.js"
import { sourceFiles } from "../import-graph.js"

const bcryptHashes: LegacyHashFormat = {
  matches: (hash) => /^\$2[aby]\$/.test(hash),
  verify: (hash, password) => bcrypt.compare(password, hash),
}

describe("argon2id()", () => {
  const hasher = argon2id()

  it("makes PHC strings with OWASP's parameters, a new salt each time, that verify the password and nothing else", async () => {
    const first = await hasher.hash("correct horse battery staple")
    const second = await hasher.hash("correct horse battery staple")
    expect(first).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/)
    expect(second).not.toBe(first)
    expect(await hasher.verify(first, "correct horse battery staple")).toBe(true)
    expect(await hasher.verify(second, "correct horse battery staple")).toBe(true)
    expect(await hasher.verify(first, "correct horse battery stapler")).toBe(false)
    expect(await hasher.verify(first, "")).toBe(false)
  })

  it("hashes non-ASCII passwords as UTF-8", async () => {
    const hash = await hasher.hash("пароль-密码-🔑")
    expect(await hasher.verify(hash, "пароль-密码-🔑")).toBe(true)
    expect(await hasher.verify(hash, "пароль-密码-🔐")).toBe(false)
  })

  it("says no, without throwing, for a hash it cannot read", async () => {
    expect(await hasher.verify("", "x")).toBe(false)
    expect(await hasher.verify("plain text", "plain text")).toBe(false)
    expect(await hasher.verify(await bcrypt.hash("x", 4), "x")).toBe(false)
    expect(await hasher.verify("$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$", "x")).toBe(false)
    // Parses, but the library refuses a 4-byte salt.
    expect(await hasher.verify("$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", "x")).toBe(false)
  })

  it("asks for a rehash when the algorithm, version or any parameter differs from the current ones", async () => {
    const current = await hasher.hash("pw")
    expect(hasher.needsRehash!(current)).toBe(false)
    expect(argon2id({ memoryCost: 47_104, timeCost: 1 }).needsRehash!(current)).toBe(true)
    expect(argon2id({ parallelism: 2 }).needsRehash!(current)).toBe(true)
    expect(argon2id({ outputLen: 16 }).needsRehash!(current)).toBe(true)
    const older = await argon2id({ memoryCost: 12_288, timeCost: 3 }).hash("pw")
    expect(await hasher.verify(older, "pw")).toBe(true)
    expect(hasher.needsRehash!(older)).toBe(true)
    expect(hasher.needsRehash!(current.replace("$argon2id$", "$argon2i$"))).toBe(true)
    expect(hasher.needsRehash!(current.replace("$v=19$", "$v=16$"))).toBe(true)
    expect(hasher.needsRehash!(await bcrypt.hash("pw", 4))).toBe(true)
  })

  it("refuses parameters that are not positive integers, with the option's name", () => {
    expect(() => argon2id({ timeCost: 0 })).toThrow(new TypeError('argon2id: "timeCost" must be a positive integer, got 0'))
    expect(() => argon2id({ memoryCost: 1.5 })).toThrow(TypeError)
    expect(() => argon2id({ memoryCost: 8, parallelism: 2 })).toThrow(/8 KiB per lane/)
    expect(() => argon2id({ outputLen: 8 })).toThrow(/at least 16 bytes/)
  })
})

describe("dummyVerify()", () => {
  it("verifies against a hash with the current parameters that matches no password, and says false", async () => {
    const hasher = argon2id({ memoryCost: 12_288, timeCost: 3 })
    const dummy = hasher.dummyHash!()
    expect(dummy).toMatch(/^\$argon2id\$v=19\$m=12288,t=3,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/)
    expect(hasher.dummyHash!()).toBe(dummy)
    expect(hasher.needsRehash!(dummy)).toBe(false)
    const verify = vi.spyOn(hasher, "verify")
    expect(await dummyVerify(hasher, "any password")).toBe(false)
    // The real verification ran, on the dummy hash: the work of a real sign-in.
    expect(verify).toHaveBeenCalledWith(dummy, "any password")
    expect(await verify.mock.results[0]!.value).toBe(false)
  })

  it("for a hasher without dummyHash, hashes a random password once and verifies against it every time", async () => {
    const made: string[] = []
    const hasher: PasswordHasher = {
      hash: async (password) => (made.push(password), `plain:${password}`),
      verify: async (hash, password) => hash === `plain:${password}`,
    }
    const verify = vi.spyOn(hasher, "verify")
    expect(await dummyVerify(hasher, "guess")).toBe(false)
    expect(await dummyVerify(hasher, "another guess")).toBe(false)
    expect(made).toHaveLength(1)
    expect(made[0]).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(verify.mock.calls).toEqual([
      [`plain:${made[0]}`, "guess"],
      [`plain:${made[0]}`, "another guess"],
    ])
  })
})

describe("withLegacyHashes()", () => {
  it("verifies a real bcrypt hash, asks to rehash it, and the rehash is Argon2id that needs nothing more", async () => {
    const hasher = withLegacyHashes(argon2id(), [bcryptHashes])
    const imported = await bcrypt.hash("hunter2 but longer", 10)
    expect(imported).toMatch(/^\$2b\$10\$/)
    expect(await hasher.verify(imported, "hunter2 but longer")).toBe(true)
    expect(await hasher.verify(imported, "hunter3 but longer")).toBe(false)
    expect(hasher.needsRehash!(imported)).toBe(true)

    // What the sign-in flow does after a successful verification that needs a rehash.
    const upgraded = await hasher.hash("hunter2 but longer")
    expect(upgraded).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/)
    expect(await hasher.verify(upgraded, "hunter2 but longer")).toBe(true)
    expect(await hasher.verify(upgraded, "hunter3 but longer")).toBe(false)
    expect(hasher.needsRehash!(upgraded)).toBe(false)
  })

  it("also verifies the $2a$ and $2y$ spellings of bcrypt, and leaves other hashes to the current hasher", async () => {
    const hasher = withLegacyHashes(argon2id(), [bcryptHashes])
    const imported = await bcrypt.hash("pw", 4)
    for (const prefix of ["$2a$", "$2y$"]) expect(await hasher.verify(prefix + imported.slice(4), "pw")).toBe(true)
    expect(await hasher.verify("$2x$04$invalid", "pw")).toBe(false)
    expect(hasher.needsRehash!(await argon2id({ timeCost: 3 }).hash("pw"))).toBe(true)
  })

  it("tries the legacy formats in order and keeps the current hasher's dummy hash", async () => {
    const current = argon2id()
    const calls: string[] = []
    const first: LegacyHashFormat = { matches: (hash) => hash.startsWith("legacy:"), verify: async () => (calls.push("first"), true) }
    const second: LegacyHashFormat = { matches: (hash) => hash.startsWith("legacy:"), verify: async () => (calls.push("second"), false) }
    const hasher = withLegacyHashes(current, [first, second])
    expect(await hasher.verify("legacy:x", "pw")).toBe(true)
    expect(calls).toEqual(["first"])
    expect(hasher.dummyHash!()).toBe(current.dummyHash!())
    expect(await dummyVerify(hasher, "pw")).toBe(false)
  })
})

const src = join(import.meta.dirname, "..", "..", "src")

describe("the library", () => {
  it("is imported by Sesame's sources only as types, or lazily in password/argon2-library.ts (it is native: Node.js only)", () => {
    const offenders: string[] = []
    for (const file of sourceFiles(src)) {
      const code = readFileSync(file, "utf8")
      for (const match of code.matchAll(/^import\s+(type\s+)?[^;]*?from\s+["']@node-rs\/argon2["']/gm)) {
        if (!match[1]) offenders.push(relative(src, file))
      }
      if (/import\([^)]*["']@node-rs\/argon2["']\)/.test(code) && relative(src, file) !== join("password", "argon2-library.ts")) offenders.push(relative(src, file))
    }
    expect(offenders).toEqual([])
    expect(readFileSync(join(src, "password", "argon2-library.ts"), "utf8")).toContain('/* webpackIgnore: true */ /* turbopackIgnore: true */ /* @vite-ignore */ "@node-rs/argon2")')
  })

  it("is loaded on first use, and a missing package (an edge runtime) is a configuration error naming it", async () => {
    vi.resetModules()
    vi.doMock("@node-rs/argon2", () => {
      throw new Error("Cannot find package '@node-rs/argon2'")
    })
    try {
      const { argon2id: fresh } = await import("../../src/password/hash.js")
      const hasher = fresh()
      await expect(hasher.hash("pw")).rejects.toMatchObject({
        type: "InvalidProvider",
        message: expect.stringContaining("Password sign-in needs the @node-rs/argon2 package"),
      })
      await expect(hasher.verify("$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHRzYWx0$AAAA", "pw")).rejects.toMatchObject({ type: "InvalidProvider" })
    } finally {
      vi.doUnmock("@node-rs/argon2")
      vi.resetModules()
    }
    const { argon2id: again } = await import("../../src/password/hash.js")
    expect(await again().hash("pw")).toMatch(/^\$argon2id\$/)
  })
})
