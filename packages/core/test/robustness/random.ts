/**
 * The fuzzer's source of randomness: one seeded PRNG (mulberry32), so that a printed seed replays
 * the same sequence of requests, and the small pickers built on it.
 */

export type Rng = () => number

export function mulberry32(seed: number): Rng {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

export const pick = <T>(rng: Rng, list: readonly T[]): T => list[Math.floor(rng() * list.length)]!
export const chance = (rng: Rng, p: number): boolean => rng() < p
export const int = (rng: Rng, max: number): number => Math.floor(rng() * max)

/** Picks a key of `weights` with probability proportional to its weight. */
export function weighted<K extends string>(rng: Rng, weights: Readonly<Record<K, number>>): K {
  const entries = Object.entries(weights) as [K, number][]
  let r = rng() * entries.reduce((sum, [, w]) => sum + w, 0)
  for (const [key, weight] of entries) {
    r -= weight
    if (r < 0) return key
  }
  return entries.at(-1)![0]
}

/** A header-safe string: printable Latin-1 without CR, LF or NUL. */
export function headerText(rng: Rng, max: number): string {
  const length = int(rng, max)
  let out = ""
  for (let i = 0; i < length; i++) out += String.fromCharCode(chance(rng, 0.9) ? 0x20 + int(rng, 0x5f) : 0xa0 + int(rng, 0x5f))
  return out
}

/** Any UTF-16 code units, lone surrogates and NUL included. */
export function garbage(rng: Rng, max: number): string {
  const length = int(rng, max)
  let out = ""
  for (let i = 0; i < length; i++) out += String.fromCharCode(int(rng, 0xffff))
  return out
}

/** Bytes from the seeded generator (not crypto: a replay must send the same body). */
export function bytes(rng: Rng, max: number): Uint8Array {
  const out = new Uint8Array(int(rng, max))
  for (let i = 0; i < out.length; i++) out[i] = int(rng, 256)
  return out
}

const base64urlAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"

/** A string that looks like a token (base64url), of `length` characters. */
export function tokenLike(rng: Rng, length: number): string {
  let out = ""
  for (let i = 0; i < length; i++) out += base64urlAlphabet[int(rng, 64)]
  return out
}

/** `value` with one character replaced, one removed, something appended, or cut short. */
export function mutate(rng: Rng, value: string): string {
  if (value.length === 0) return tokenLike(rng, 8)
  const at = int(rng, value.length)
  switch (int(rng, 5)) {
    case 0:
      return `${value.slice(0, at)}${pick(rng, ["A", "_", "-", ".", "%", "~"])}${value.slice(at + 1)}`
    case 1:
      return value.slice(0, at) + value.slice(at + 1)
    case 2:
      return value + pick(rng, ["x", ".", "..", "=", "%00", tokenLike(rng, 40)])
    case 3:
      return value.slice(0, at)
    default:
      return value.split("").reverse().join("")
  }
}
