/**
 * Running batches of operations through the script. `EVALSHA` first; a server that does not have
 * the script yet (first use, restart, `SCRIPT FLUSH`) answers `NOSCRIPT`, and `EVAL` then sends
 * it whole, which also caches it. The user's client is used as it is: nothing is defined on it.
 *
 * The script reports a broken rule (a taken email, an unknown user…) as an error reply starting
 * with `SESAME `; it becomes an `Error` with the rule's message. `SESAME_CONFLICT` means a
 * transaction's replay saw different data (see `transaction.ts`). Any other error (connection,
 * timeout, a key of the wrong type) is the driver's own and is passed on, but without the
 * arguments ioredis attaches to it as `command.args`: they hold the operations' values (OAuth
 * tokens, emails), and Sesame logs adapter errors with their cause.
 *
 * @module
 */
import type { Redis } from "ioredis"
import { script, scriptSha } from "./lua/index.js"
import type { Fields } from "./records.js"

/** The operations the script knows (see `lua/`). */
export type OperationName =
  | "createUser"
  | "getUser"
  | "getUserByEmail"
  | "usersByEmail"
  | "getUserByAccount"
  | "updateUser"
  | "deleteUser"
  | "linkAccount"
  | "unlinkAccount"
  | "getAccount"
  | "updateAccount"
  | "listAccountsByUserId"
  | "createSession"
  | "getSessionAndUser"
  | "updateSession"
  | "deleteSession"
  | "listSessionsByUserId"
  | "deleteSessionsByUserId"
  | "createVerificationToken"
  | "useVerificationToken"
  | "createAuthenticator"
  | "getAuthenticator"
  | "listAuthenticatorsByUserId"
  | "updateAuthenticator"
  | "deleteAuthenticator"

/** One operation: its name and arguments (strings, lists of strings, or hash fields). */
export type Operation = readonly [OperationName, ...(string | readonly string[] | Fields)[]]

/**
 * `keep` commits the batch's writes; `undo` rolls them back once the results are known (a
 * transaction's dry run). `expected` holds the results (as the script encodes them) that the
 * first operations must give again, else nothing is written and `TransactionConflict` is thrown.
 */
export type RunBatch = (mode: "keep" | "undo", operations: readonly Operation[], expected: readonly string[]) => Promise<string>

/** Thrown when data a transaction read or wrote changed before it committed; nothing was written. */
export class TransactionConflict extends Error {
  override readonly name = "TransactionConflict"
  constructor() {
    super("Another client changed data this transaction used before it committed; nothing was written.")
  }
}

function replyMessage(error: unknown): string | null {
  return error instanceof Error ? error.message : null
}

/** `error` with the command's arguments reduced to the operations' names. */
function withoutValues(error: unknown, operations: readonly Operation[]): unknown {
  const command = (error as { command?: { name?: unknown; args?: unknown } } | null)?.command
  if (command && typeof command === "object" && "args" in command) command.args = operations.map(([name]) => name)
  return error
}

export function batchRunner(client: Redis, prefix: string): RunBatch {
  return async (mode, operations, expected) => {
    const args = [prefix, mode, JSON.stringify(operations), JSON.stringify(expected)]
    let reply: unknown
    try {
      try {
        reply = await client.evalsha(scriptSha, 0, ...args)
      } catch (error) {
        if (!replyMessage(error)?.startsWith("NOSCRIPT")) throw error
        reply = await client.eval(script, 0, ...args)
      }
    } catch (error) {
      const message = replyMessage(error)
      if (message?.startsWith("SESAME_CONFLICT ")) throw new TransactionConflict()
      if (message?.startsWith("SESAME ")) throw new Error(message.slice("SESAME ".length))
      throw withoutValues(error, operations)
    }
    // The script encodes every result as JSON; an empty batch gives no reply at all.
    return typeof reply === "string" ? reply : "null"
  }
}
