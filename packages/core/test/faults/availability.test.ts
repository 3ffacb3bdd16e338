/**
 * When an outage ends in the log (`adapters/availability.ts`): a PostgreSQL fast shutdown
 * terminates connections one after another, so a query already running on one of them can succeed
 * after another connection failed. That success is no news about the server; the first operation
 * sent after the failure is. The soak's restart printed the outage twice before this.
 */
import { describe, expect, it } from "vitest"
import { availabilityOf } from "../../src/adapters/availability.js"

const terminated = () => Object.assign(new Error("terminating connection due to administrator command"), { code: "57P01" })

function logger() {
  const lines: string[] = []
  return {
    lines,
    error: (error: Error) => void lines.push(`error ${error.name}`),
    warn: (code: string) => void lines.push(`warn ${code}`),
    debug: () => {},
  }
}

/** A promise settled from outside, for an operation that is still running. */
function pending<T>() {
  let resolve!: (value: T) => void
  const promise = new Promise<T>((r) => (resolve = r))
  return { promise, resolve }
}

describe("the end of a storage outage", () => {
  it("a query sent before the outage began and answered after it does not end it; the next one sent does", async () => {
    const log = logger()
    const availability = availabilityOf({}, log)
    const inFlight = pending<string>()
    const running = availability.run(() => inFlight.promise, "never")
    await expect(availability.run(() => Promise.reject(terminated()), "never")).rejects.toMatchObject({ name: "StorageUnavailable" })
    inFlight.resolve("answered")
    expect(await running).toBe("answered")
    expect(log.lines).toEqual(["error StorageUnavailable"])
    // The connection it ran on is terminated a moment later: still the same outage, no second line.
    await expect(availability.run(() => Promise.reject(terminated()), "never")).rejects.toMatchObject({ name: "StorageUnavailable" })
    expect(log.lines).toEqual(["error StorageUnavailable"])
    expect(await availability.run(async () => "back", "never")).toBe("back")
    expect(log.lines).toEqual(["error StorageUnavailable", "warn storage-available-again"])
  })

  it("an operation sent while the outage lasts ends it when it succeeds", async () => {
    const log = logger()
    const availability = availabilityOf({}, log)
    await expect(availability.run(() => Promise.reject(terminated()), "never")).rejects.toBeTruthy()
    const sentDuring = pending<string>()
    const running = availability.run(() => sentDuring.promise, "never")
    sentDuring.resolve("answered")
    await running
    expect(log.lines).toEqual(["error StorageUnavailable", "warn storage-available-again"])
  })

  it("an outage logged from outside is the adapter's next outage once, not every one after", async () => {
    const log = logger()
    const availability = availabilityOf({}, log)
    availability.loggedElsewhere()
    log.lines.push("error StorageUnavailable (the app's callback)")
    // The adapter meets it next: that outage, logged above; its end is logged.
    await expect(availability.run(() => Promise.reject(terminated()), "never")).rejects.toMatchObject({ name: "StorageUnavailable" })
    expect(await availability.run(async () => "back", "never")).toBe("back")
    // A second outage a moment later is news.
    await expect(availability.run(() => Promise.reject(terminated()), "never")).rejects.toMatchObject({ name: "StorageUnavailable" })
    expect(log.lines).toEqual(["error StorageUnavailable (the app's callback)", "warn storage-available-again", "error StorageUnavailable"])
  })

  it("an operation sent after the line from outside that succeeds makes the adapter's next outage news", async () => {
    const log = logger()
    const availability = availabilityOf({}, log)
    availability.loggedElsewhere()
    await new Promise((resolve) => setTimeout(resolve, 2))
    expect(await availability.run(async () => "fine", "never")).toBe("fine")
    await expect(availability.run(() => Promise.reject(terminated()), "never")).rejects.toMatchObject({ name: "StorageUnavailable" })
    expect(log.lines).toEqual(["error StorageUnavailable"])
  })
})
