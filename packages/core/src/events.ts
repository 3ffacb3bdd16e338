/**
 * Sending events: to the app's handler (`events`), then to the modules' (`plugins`), in their
 * order. A handler that throws is logged as `EventError` and never changes the flow, nor stops the
 * handlers after it.
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
  if (handler) {
    try {
      await handler(message)
    } catch (error) {
      config.logger.error(new EventError(`The "${event}" event handler threw.`, { cause: error }))
    }
  }
  const { modules } = config
  for (const moduleHandler of modules.events.get(event) ?? []) {
    try {
      await (moduleHandler as (m: typeof message, context: typeof modules.context) => unknown)(message, modules.context)
    } catch (error) {
      config.logger.error(new EventError(`A plugin's "${event}" event handler threw.`, { cause: error }))
    }
  }
}
