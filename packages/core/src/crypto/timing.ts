/**
 * Constant-time comparison. The loop always runs over the whole of the longer input, so the time
 * taken depends only on the lengths, never on where the inputs first differ.
 *
 * @module
 */

export function timingSafeEqual(a: string, b: string): boolean {
  const length = Math.max(a.length, b.length)
  let diff = a.length ^ b.length
  for (let i = 0; i < length; i++) diff |= (a.charCodeAt(i) | 0) ^ (b.charCodeAt(i) | 0)
  return diff === 0
}
