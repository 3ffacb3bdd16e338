/**
 * better-sqlite3 has one connection per database object, and its statements run synchronously.
 * A transaction, though, spans `await`s (the caller's code runs between its statements), so
 * statements of other requests must not slip into it. The gate lets ordinary operations run at
 * once unless a transaction is open, in which case they wait for it to end; transactions run one
 * at a time. `@sesame/adapter-sqlite` and the SQLite store of `@sesame/adapter-drizzle` share it.
 *
 * Two rules make that hold under concurrency. A transaction checks that none is open and marks its
 * own in one synchronous step: waiters woken by the same end must not both find the gate free
 * (they did, and the second `BEGIN` failed with "cannot start a transaction within a
 * transaction"). And it starts only after the operations that found the gate free a moment ago
 * have run their statements: those resume in microtasks, so a pause of one macrotask after marking
 * the gate lets them finish outside the transaction rather than inside it.
 *
 * @module
 */
export class Gate {
  private open: Promise<void> | null = null

  /** Waits until no transaction is open. */
  async idle(): Promise<void> {
    while (this.open) await this.open
  }

  /** Runs `fn` as the only transaction; ordinary operations wait until it ends. */
  async exclusive<T>(fn: () => Promise<T>): Promise<T> {
    while (this.open) await this.open
    let release!: () => void
    this.open = new Promise<void>((resolve) => (release = resolve))
    try {
      await new Promise((resolve) => setTimeout(resolve, 0))
      return await fn()
    } finally {
      this.open = null
      release()
    }
  }
}
