/**
 * A failure that does not stop the flow (the old session of a browser signing in again) is logged
 * aside: as an error when it is news, as a debug line when it belongs to an outage already logged.
 * In the soak, a sign-in whose first reads were sent before a PostgreSQL restart failed at the old
 * session's deletion in the middle of the restart, and logged the outage a second time.
 */
import { describe, expect, it } from "vitest"
import { availabilityOf, logAside } from "../../src/adapters/availability.js"

function recording() {
  const errors: string[] = []
  const debugs: string[] = []
  return { errors, debugs, logger: { error: (e: Error) => void errors.push(e.message), warn: () => {}, debug: (m: string) => void debugs.push(m) } }
}

const reset = () => Object.assign(new Error("read ECONNRESET"), { code: "ECONNRESET" })

describe("a failure logged aside", () => {
  it("is a debug line when it belongs to an outage already logged, so the outage stays one line", async () => {
    const log = recording()
    const availability = availabilityOf({}, log.logger)
    await expect(availability.run(() => Promise.reject(reset()), "never")).rejects.toThrow()
    let inTheMiddle: unknown
    await availability.run(() => Promise.reject(reset()), "never").catch((error: unknown) => (inTheMiddle = error))
    logAside(log.logger, inTheMiddle)
    expect(log.errors).toHaveLength(1)
    expect(log.debugs).toContain("storage still unavailable")
  })

  it("is an error when it is news", () => {
    const log = recording()
    logAside(log.logger, new Error("the disk is full"))
    logAside(log.logger, "not even an error")
    expect(log.errors).toEqual(["the disk is full", "not even an error"])
  })
})
