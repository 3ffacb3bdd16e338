/**
 * The home page's "Database outage": a button that takes the demo's database away for a few
 * seconds (lib/outage.ts), then opens the protected page, which says "Try again in a moment"
 * instead of sending you to sign in; once the database is back, the same browser is signed in.
 */
import { simulateOutageAction } from "../actions"
import { outageSeconds } from "../../lib/outage"

export function OutageSection() {
  return (
    <section aria-labelledby="outage-heading">
      <h2 id="outage-heading">Database outage</h2>
      <p>
        A database restart or failover takes a few seconds. Sesame answers <code>503</code> and “try again” meanwhile, and
        signs nobody out: <code>auth()</code> throws <code>StorageUnavailable</code> instead of answering “no session”.
      </p>
      <form action={simulateOutageAction}>
        <button type="submit">Take the database away for {outageSeconds} seconds</button>
      </form>
    </section>
  )
}
