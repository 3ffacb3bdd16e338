/**
 * The gate that keeps SQLite's one connection to one transaction at a time (`gate.ts`): waiters
 * woken together never both start, and an operation that found the gate free runs before the next
 * transaction begins, not inside it.
 */
import { describe, expect, it } from "vitest"
import { Gate } from "../src/gate.js"

describe("the SQLite gate", () => {
  it("runs transactions one at a time, also those that waited for the same one to end", async () => {
    const gate = new Gate()
    let inside = 0
    let most = 0
    const transaction = () =>
      gate.exclusive(async () => {
        most = Math.max(most, ++inside)
        await new Promise((resolve) => setTimeout(resolve, 2))
        inside--
      })
    await Promise.all(Array.from({ length: 6 }, transaction))
    expect(most).toBe(1)
  })

  it("an operation that found no transaction open runs before the next one begins", async () => {
    const gate = new Gate()
    const log: string[] = []
    const operation = async (name: string) => {
      await gate.idle()
      log.push(name)
    }
    const first = operation("read")
    const transaction = gate.exclusive(async () => {
      log.push("begin")
      await new Promise((resolve) => setTimeout(resolve, 1))
      log.push("commit")
    })
    const later = operation("write")
    await Promise.all([first, transaction, later])
    // "read" passed the gate before the transaction marked it; "write" came after and waited.
    expect(log).toEqual(["read", "begin", "commit", "write"])
  })
})
