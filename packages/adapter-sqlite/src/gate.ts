/**
 * One better-sqlite3 connection serves the whole process, and its statements run synchronously.
 * A transaction, though, spans `await`s (the caller's code runs between its statements), so
 * statements of other requests must not slip into it. The gate lets ordinary operations run at
 * once unless a transaction is open, in which case they wait for it to end; transactions run one
 * at a time.
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
    await this.idle()
    let release!: () => void
    this.open = new Promise<void>((resolve) => (release = resolve))
    try {
      return await fn()
    } finally {
      this.open = null
      release()
    }
  }
}
