/**
 * Cross-tab session sync: after a sign-in or sign-out in one tab, the others refetch their session.
 *
 * A `BroadcastChannel` delivers to every other channel of the same name on the same origin,
 * including those of other `createSession()` calls in the same tab, and never to the sender. The
 * name carries the prefix, so two apps on one origin under different prefixes do not disturb each
 * other. The message says only that something changed: each tab asks the server what the session
 * is now, so nothing from a message is ever trusted as session data.
 *
 * @module
 */

/** What changed, for listeners that care (the session is refetched either way). */
export type SessionChange = "signin" | "signout"

export interface SessionMessage {
  readonly sesame: "session"
  readonly change: SessionChange
}

/** The channel name for the routes under `prefix`. */
export function channelName(prefix: string): string {
  return `sesame.session:${prefix}`
}

/** Tells the other tabs (and other sessions in this tab) that the session changed. */
export function announce(prefix: string, change: SessionChange): void {
  if (typeof BroadcastChannel === "undefined") return
  const channel = new BroadcastChannel(channelName(prefix))
  channel.postMessage({ sesame: "session", change } satisfies SessionMessage)
  channel.close()
}

/** Calls `onChange` for each announcement under `prefix`; returns the function that stops listening. */
export function listen(prefix: string, onChange: (change: SessionChange) => void): () => void {
  if (typeof BroadcastChannel === "undefined") return () => {}
  const channel = new BroadcastChannel(channelName(prefix))
  channel.onmessage = (event: MessageEvent<unknown>) => {
    const data = event.data
    if (typeof data === "object" && data !== null && (data as SessionMessage).sesame === "session") {
      const change = (data as SessionMessage).change
      if (change === "signin" || change === "signout") onChange(change)
    }
  }
  return () => channel.close()
}
