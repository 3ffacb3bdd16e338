/**
 * What a page shows when `auth()` throws `StorageUnavailable` (the database cannot be reached for a
 * moment): nothing is known of the session, so neither "signed out" nor the sign-in page, but a
 * "try again" with the seconds Sesame suggests.
 */
import type { StorageUnavailable } from "@sesame/next"

export function Unavailable({ error, retry }: { error: StorageUnavailable; retry: string }) {
  return (
    <section role="alert" data-testid="unavailable">
      <h1>Try again in a moment</h1>
      <p>
        The database cannot be reached right now. Nothing was lost, and you are still signed in: try again in{" "}
        {error.retryAfter} seconds.
      </p>
      <p>
        <a href={retry}>Try again</a>
      </p>
    </section>
  )
}
