/**
 * Calls of the store's script (`lua/models.ts`), as `run.ts` calls the adapter's: `EVALSHA`
 * first, `EVAL` when the server answers `NOSCRIPT`. An error reply `SESAME <message>` becomes an
 * `Error` with the message; any other error is the driver's, passed on without the arguments that
 * ioredis attaches to it (they hold the rows' values).
 *
 * @module
 */
import type { Redis } from "ioredis"
import { modelScript, modelScriptSha } from "../lua/models.js"
import type { Layout } from "./layout.js"

/** The script's operations (see `lua/models.ts`). */
export type ModelOperation = "create" | "increment" | "update" | "delete" | "prune" | "adopt"

/** Runs one operation on a model's rows; resolves with the script's reply. */
export type RunModelScript = (layout: Layout, operation: ModelOperation, args: object, now: number) => Promise<unknown>

function messageOf(error: unknown): string | null {
  return error instanceof Error ? error.message : null
}

/** `prefix`: the whole key prefix, the client's `keyPrefix` included (the script builds its keys). */
export function modelScriptRunner(client: Redis, prefix: string): RunModelScript {
  return async (layout, operation, args, now) => {
    const argv = [prefix, operation, layout.schema, String(now), JSON.stringify(args)]
    try {
      try {
        return await client.evalsha(modelScriptSha, 0, ...argv)
      } catch (error) {
        if (!messageOf(error)?.startsWith("NOSCRIPT")) throw error
        return await client.eval(modelScript, 0, ...argv)
      }
    } catch (error) {
      const message = messageOf(error)
      if (message?.startsWith("SESAME ")) throw new Error(message.slice("SESAME ".length))
      const command = (error as { command?: { args?: unknown } } | null)?.command
      if (command && typeof command === "object") command.args = [operation]
      throw error
    }
  }
}
