/**
 * The in-memory counter store: the adapter methods' semantics, and its bound.
 */
import { describe, expect, it } from "vitest"
import { memoryCounterStore } from "../../src/password/counters.js"
import { frozenClock } from "../helpers.js"

const advance = frozenClock("2030-01-01T00:00:00Z")

const inAMinute = () => new Date(Date.now() + 60_000)

describe("memoryCounterStore()", () => {
  it("starts at 1, counts up, moves the expiry each time, and restarts once expired", async () => {
    const store = memoryCounterStore()
    expect(await store.getCounter("k")).toBeNull()
    expect(await store.incrementCounter("k", inAMinute())).toEqual({ key: "k", count: 1, expires: new Date("2030-01-01T00:01:00Z") })
    advance(30_000)
    expect(await store.incrementCounter("k", inAMinute())).toEqual({ key: "k", count: 2, expires: new Date("2030-01-01T00:01:30Z") })
    advance(59_999)
    expect(await store.getCounter("k")).toEqual({ key: "k", count: 2, expires: new Date("2030-01-01T00:01:30Z") })
    advance(1)
    expect(await store.getCounter("k")).toBeNull()
    expect(await store.incrementCounter("k", inAMinute())).toMatchObject({ count: 1 })
  })

  it("deletes a counter, and a missing one without complaint", async () => {
    const store = memoryCounterStore()
    await store.incrementCounter("k", inAMinute())
    await store.deleteCounter("k")
    await store.deleteCounter("never")
    expect(await store.getCounter("k")).toBeNull()
  })

  it("keeps at most maxKeys counters: expired ones go first, then the least recently incremented", async () => {
    const store = memoryCounterStore({ maxKeys: 3 })
    await store.incrementCounter("short", new Date(Date.now() + 1000))
    await store.incrementCounter("a", inAMinute())
    await store.incrementCounter("b", inAMinute())
    advance(1000)
    await store.incrementCounter("c", inAMinute())
    expect(await store.getCounter("a")).toMatchObject({ count: 1 })
    await store.incrementCounter("a", inAMinute())
    await store.incrementCounter("d", inAMinute())
    // "b" was the least recently incremented.
    expect(await store.getCounter("b")).toBeNull()
    for (const key of ["a", "c", "d"]) expect(await store.getCounter(key), key).not.toBeNull()
    expect(await store.getCounter("a")).toMatchObject({ count: 2 })
  })
})
