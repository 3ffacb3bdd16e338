/**
 * Rate limits count in fixed windows of the wall clock: a test whose burst straddled a window's
 * end would see its counts start again. Where the clock cannot be frozen (a store that expires
 * keys by the real time, as Redis does), a test waits until the window has room for its burst.
 *
 * @module
 */

/** Resolves at once when more than `margin` seconds are left in the current `window`, else at the next window's start. */
export async function roomInWindow(window: number, margin = 15): Promise<void> {
  const left = window * 1000 - (Date.now() % (window * 1000))
  if (left > margin * 1000) return
  await new Promise((resolve) => setTimeout(resolve, left + 50))
}
