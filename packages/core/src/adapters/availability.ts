/**
 * What Sesame does when its storage cannot be reached (a database restart, a failover, a pool
 * with no connection to give): every operation of the adapter and its store runs through
 * {@link Availability.run}, which
 *
 * - turns a failure to reach the storage (`unavailable.ts`) into a {@link StorageUnavailable},
 *   which the request answers with `503` and `Retry-After`, never a sign-out;
 * - tries a read again, briefly (a pooled connection that died with the server fails once, and
 *   the next one works): reads are idempotent. A write is tried again only when it certainly never
 *   reached the server (the connection was refused), since one that may have run must not run twice;
 * - logs one line when an outage begins and one when the storage answers again, not one per
 *   request: a four-second restart under load would otherwise print thousands. Only an operation
 *   sent after the outage began can end it: during a fast shutdown, a query already running on a
 *   connection the server has not terminated yet still succeeds a moment after another connection
 *   failed, and taking that for the end printed the outage twice.
 *
 * One per adapter object, shared by every configuration made with it (an integration may resolve
 * several) and by its store and transactions, so that an outage is one outage in the log.
 *
 * @module
 */
import type { StorageUnavailable } from "../errors.js"
import type { LoggerInstance } from "../logger.js"
import { neverSent, storageUnavailable } from "./unavailable.js"

/** Pauses before each new attempt of an operation that may be tried again: a few hundred ms in all. */
const retryDelays = [50, 150] as const

/**
 * How long after its last failure an outage still counts as the one under way: no operation of
 * Sesame's may come (JWT sessions read none), and another store failing later is news.
 */
const stillDownMs = 60_000

/** How an operation may be tried again. */
export type Retry = "read" | "write" | "never"

export interface Availability {
  /**
   * Runs `operation`; a failure to reach the storage becomes a {@link StorageUnavailable} after
   * the attempts `retry` allows (`never` inside a transaction: its connection is the one that died).
   */
  run<T>(operation: () => Promise<T>, retry: Retry): Promise<T>
  /**
   * Whether an outage was logged, no operation has succeeded since, and one failed within the last
   * minute: a failure to reach storage that did not pass through {@link Availability.run} (an app's
   * callback calling the adapter itself) is then this outage, not a new line in the log.
   */
  readonly down: boolean
  /**
   * A failure to reach storage that did not pass through {@link Availability.run} was just logged
   * (`logUnreported`: an app's callback calling the adapter itself met the outage before Sesame
   * did). An outage of this adapter that begins within {@link stillDownMs} is that one: its first
   * failure is a debug line, and its end is logged as usual. Once such an outage began, or an
   * operation sent after that line succeeded, the next outage is news again.
   */
  loggedElsewhere(): void
}

const byAdapter = new WeakMap<object, Availability>()

/** The availability of `adapter` (its object), made on first use, logging to `logger`. */
export function availabilityOf(adapter: object, logger: Pick<LoggerInstance, "error" | "warn" | "debug">): Availability {
  let availability = byAdapter.get(adapter)
  if (!availability) byAdapter.set(adapter, (availability = track(logger)))
  return availability
}

/** Errors that {@link Availability.run} reported: the request that gets one does not log it again. */
const reported = new WeakSet<Error>()

/** Whether `error` was logged already as part of an outage. */
export function reportedOutage(error: Error): boolean {
  return reported.has(error)
}

function track(logger: Pick<LoggerInstance, "error" | "warn" | "debug">): Availability {
  /** The current outage, undefined while the storage answers. */
  let outage: { since: number; failures: number; lastFailure: number } | undefined
  /** When an outage was last logged from outside (`loggedElsewhere`). */
  let elsewhereAt = -Infinity
  return {
    loggedElsewhere() {
      elsewhereAt = Date.now()
    },
    get down() {
      return outage !== undefined && Date.now() - outage.lastFailure < stillDownMs
    },
    async run(operation, retry) {
      for (let attempt = 0; ; attempt++) {
        const sentDuring = outage
        const sentAt = Date.now()
        try {
          const value = await operation()
          if (sentAt > elsewhereAt) elsewhereAt = -Infinity
          if (outage && outage === sentDuring) {
            logger.debug("storage outage ended", { seconds: (Date.now() - outage.since) / 1000, failures: outage.failures })
            logger.warn("storage-available-again")
            outage = undefined
          }
          return value
        } catch (error) {
          const unavailable = storageUnavailable(error)
          if (!unavailable) throw error
          const delay = retryDelays[attempt]
          if (delay !== undefined && (retry === "read" || (retry === "write" && neverSent(error)))) {
            await new Promise((resolve) => setTimeout(resolve, delay))
            continue
          }
          if (!outage) {
            outage = { since: Date.now(), failures: 1, lastFailure: Date.now() }
            if (Date.now() - elsewhereAt < stillDownMs) logger.debug("storage outage began, logged above", { error: unavailable.message })
            else logger.error(unavailable)
            elsewhereAt = -Infinity
          } else {
            outage.failures++
            outage.lastFailure = Date.now()
            logger.debug("storage still unavailable", { error: unavailable.message })
          }
          reported.add(unavailable)
          throw unavailable
        }
      }
    },
  }
}

/**
 * Logs a storage failure that does not stop the flow (the old session of a browser that signs in
 * again, which expires anyway). One that {@link Availability.run} already counted in a logged
 * outage is a debug line: a request that began before the outage and fails in the middle of it
 * must not log it a second time.
 */
export function logAside(logger: Pick<LoggerInstance, "error" | "debug">, error: unknown): void {
  if (error instanceof Error && reported.has(error)) return logger.debug("storage still unavailable", { error: error.message })
  logger.error(error instanceof Error ? error : new Error(String(error)))
}
