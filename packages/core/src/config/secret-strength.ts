/**
 * Whether a configured secret is strong enough to key session encryption and token hashes.
 *
 * The rule: at least 32 characters and at least 128 bits of estimated entropy. 128 bits is what
 * the keys derived from the secret are meant to resist (an offline guess against any sealed cookie
 * or stored token hash tests one secret), and 32 characters is the shortest string that can carry
 * it in the usual alphabets (base64: 6 bits a character).
 *
 * The estimate is deliberately generous to random strings and harsh only on visible structure. It
 * charges each character what a guesser that knows the string's shape would need to name it:
 * - a literal character: log2 of the alphabet its character classes span (lower case 26, upper
 *   case 26, digits 10, ASCII symbols 33, anything else 100);
 * - a character within one code point of the previous one (`aaaa`, `abcd`, `4321`): log2(3), the
 *   choice between "same", "next" and "previous";
 * - a run of 3 or more characters that repeats earlier text (`passwordpassword`, `abcabcabc`):
 *   the cost of pointing back to it (where it starts and how long it is), not of its characters.
 *
 * A random secret loses almost nothing to these rules (a chance neighbour or a chance repeat costs
 * a few bits), so `openssl rand -base64 33`, `openssl rand -hex 32`, `npx sesame secret` and any
 * random 32-character base64url string pass with a wide margin. One repeated character, a word
 * repeated to length, a short repeated pattern, or a run of the alphabet do not. It is not a
 * dictionary check: a long passphrase of real words passes, as it would any length rule.
 *
 * Only the first 256 characters are examined: more characters only add entropy, and the bound keeps
 * the quadratic search for repeats cheap.
 *
 * @module
 */

/** Shortest secret accepted. */
export const minSecretLength = 32
/** Least estimated entropy accepted, in bits. */
export const minSecretBits = 128

const examined = 256
/** Shortest repeat counted as one: shorter ones are cheaper to name literally. */
const minRepeat = 3

function poolSize(chars: readonly string[]): number {
  let lower = false
  let upper = false
  let digit = false
  let symbol = false
  let other = false
  for (const c of chars) {
    if (c >= "a" && c <= "z") lower = true
    else if (c >= "A" && c <= "Z") upper = true
    else if (c >= "0" && c <= "9") digit = true
    else if (c >= " " && c <= "~") symbol = true
    else other = true
  }
  return (lower ? 26 : 0) + (upper ? 26 : 0) + (digit ? 10 : 0) + (symbol ? 33 : 0) + (other ? 100 : 0)
}

/** Length of the longest earlier text (it may overlap position `i`, as in LZ77) that `chars` continues with at `i`. */
function longestRepeat(chars: readonly string[], i: number): number {
  let best = 0
  for (let j = 0; j < i; j++) {
    let length = 0
    while (i + length < chars.length && chars[j + length] === chars[i + length]) length++
    if (length > best) best = length
  }
  return best
}

/** Estimated entropy of `secret` in bits (see the module comment for the model). */
export function estimateSecretBits(secret: string): number {
  const chars = Array.from(secret).slice(0, examined)
  const n = chars.length
  if (n === 0) return 0
  const literal = Math.log2(poolSize(chars))
  const neighbour = Math.log2(3)
  let bits = 0
  let i = 0
  while (i < n) {
    const repeat = longestRepeat(chars, i)
    if (repeat >= minRepeat) {
      // Point back: which earlier position, and how long.
      bits += Math.min(Math.log2(i) + Math.log2(n), repeat * literal)
      i += repeat
      continue
    }
    const step = i > 0 ? Math.abs(chars[i]!.codePointAt(0)! - chars[i - 1]!.codePointAt(0)!) : Number.POSITIVE_INFINITY
    bits += step <= 1 ? Math.min(neighbour, literal) : literal
    i++
  }
  return bits
}

/** What is wrong with a secret, or null when it follows the rule. Never contains the secret. */
export function secretWeakness(secret: string): string | null {
  const length = Array.from(secret).length
  if (length < minSecretLength) return `it has ${length} characters; at least ${minSecretLength} are needed`
  const bits = estimateSecretBits(secret)
  if (bits < minSecretBits) {
    return `it is not random enough (about ${Math.floor(bits)} bits of estimated entropy; at least ${minSecretBits} are needed)`
  }
  return null
}
