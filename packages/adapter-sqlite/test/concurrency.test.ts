/**
 * Use-once verification tokens across connections: four adapters on one SQLite file (as four
 * processes would have), twenty uses of one token at once, and exactly one gets it.
 */
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import type { Adapter } from "@sesame/core/adapters"
import SqliteAdapter from "@sesame/adapter-sqlite"
import { winnersPerRound } from "../../sql-common/test/shared/contention.js"

describe("useVerificationToken under contention", () => {
  it("20 concurrent uses of one token through 4 connections to one file: exactly one gets it, every time", async () => {
    const file = join(mkdtempSync(join(tmpdir(), "sesame-sqlite-")), "auth.db")
    const adapters = Array.from({ length: 4 }, () => SqliteAdapter(file))
    let next = 0
    // Each use goes to the next connection in turn.
    const spread: Adapter = {
      createVerificationToken: (token) => adapters[0]!.createVerificationToken!(token),
      useVerificationToken: (params) => adapters[next++ % adapters.length]!.useVerificationToken!(params),
    }
    expect(await winnersPerRound(spread, 20, 10)).toEqual(Array(10).fill(1))
  })
})
