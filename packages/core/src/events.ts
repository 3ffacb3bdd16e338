/**
 * Sending events. A handler that throws is logged as `EventError` and never changes the flow.
 *
 * @module
 */
import type { ResolvedConfig } from "./config/resolve.js"
import { EventError } from "./errors.js"
import type { EventCallbacks } from "./types.js"

export async function emit<E extends keyof EventCallbacks>(
  config: ResolvedConfig,
  event: E,
  message: Parameters<EventCallbacks[E]>[0],
): Promise<void> {
  const handler = config.events[event] as ((m: typeof message) => unknown) | undefined
  if (!handler) return
  try {
    await handler(message)
  } catch (error) {
    config.logger.error(new EventError(`The "${event}" event handler threw.`, { cause: error }))
  }
}
