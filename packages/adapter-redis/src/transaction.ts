/**
 * Transactions on Redis, by optimistic replay.
 *
 * Redis has no interactive transactions: `MULTI` queues commands blind, and `fn` needs the result
 * of each call (the user it created, say) before it makes the next. So each call inside `fn` runs
 * as a dry run: the script replays every earlier call of the transaction, runs the new one,
 * records its result, and then rolls everything back (see `lua/runtime.ts`). `fn` sees exactly
 * the state its own writes make, and the store is not touched.
 *
 * When `fn` resolves, the whole sequence runs once more, for real, in one script call, checking
 * that every call gives the same result it gave `fn`. Redis runs the script with nothing in
 * between, so either everything is written, against the same data `fn` saw, or (when another
 * client changed that data in the meantime, or a rule now fails) nothing is, and the transaction
 * rejects: with `TransactionConflict`, or with the rule's error. It is not retried, since `fn` may
 * have done other things than adapter calls. When `fn` throws, nothing was ever written. (The
 * store's writes are another matter: `RedisAdapter` hands `fn` a store that commits at once and
 * deletes the rows it created when the transaction fails, `store/transaction.ts`.)
 *
 * Calls inside `fn` run one at a time in the order they were made. A call that fails changed
 * nothing, so it is not replayed. Nested transactions join the outer one.
 *
 * @module
 */
import type { Adapter } from "@sesame/core/adapters"
import { operations, type Call, type OperationOptions } from "./operations.js"
import type { Operation, RunBatch } from "./run.js"

export async function runTransaction<T>(run: RunBatch, options: OperationOptions, fn: (adapter: Adapter) => Promise<T>): Promise<T> {
  const done: Operation[] = []
  const results: string[] = []
  let open = true
  let queue: Promise<unknown> = Promise.resolve()

  const call: Call = (operation) => {
    const next = queue.then(async () => {
      if (!open) throw new Error("This transaction has ended; use the adapter outside it.")
      const result = await run("undo", [...done, operation], results)
      done.push(operation)
      results.push(result)
      return result
    })
    queue = next.catch(() => undefined)
    return next
  }

  const adapter: Adapter = {
    ...operations(call, options),
    transaction: (inner) => inner(adapter),
  }
  try {
    const value = await fn(adapter)
    await queue
    if (done.length > 0) await run("keep", done, results)
    return value
  } finally {
    open = false
  }
}
